# Call T (2026-11-24, stop 27, issue #10), nvidia-h100-x1: the CSR order of 10 M and 50 M connections on the GPU, by counting (impl::csr_by_counting) and by key sort (impl::csr_by_key, what stop 26 used), alternating 4 times in one process; the two orders are compared element by element (diff 0 expected).
R=$OUT; cp .devcarry/cmdT.sh $R/cmd.sh; export LD_LIBRARY_PATH=$PWD/.devcarry/csrb
nvidia-smi --query-gpu=name --format=csv,noheader | tee $R/run.log
for a in "10000000 100000" "50000000 100000" "10000000 10000"; do echo "n, gids = $a" | tee -a $R/run.log; .devcarry/csrb/csrb2 $a 2>&1 | tee -a $R/run.log; done
