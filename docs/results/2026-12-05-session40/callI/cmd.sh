#!/usr/bin/env bash
# Call I: session 38's call F (the mixed batches' map at 102,400 and 256,000 cells) and
# session 39's call G, cut to fit (the host's tile sweeps with rows asked for 4 ahead against
# none on the 16 cores: Full-Interleaved at 2^24 in the order f0 f4 f4 f0, Flat as control).
set -u
d=$(cd "$(dirname "$0")" && pwd); O=$OUT
# Both parts may take up to about 740 s, more than one call's 600: `cmd.sh F` and `cmd.sh G`
# run one each (no argument: both).
part=${1:-FG}
mkdir -p $O/callF $O/callG
[[ $part == *F* ]] && OUT=$O/callF bash $d/../../2026-12-05-session38/callF/cmd.sh
[[ $part == *G* ]] && OUT=$O/callG FI_TOTALS=24 FI_TIMEOUT=70 FLAT_TIMEOUT=40 FLAT_BUILDS="f0 f4" \
  bash $d/../../2026-12-05-session39/callG/cmd.sh
