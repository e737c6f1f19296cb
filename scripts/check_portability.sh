#!/usr/bin/env bash
#   check_portability.sh [ROOT]      (ROOT: the source tree, default this repository)
#   check_portability.sh --self-test (must report every line of
#                        unit_tests/portability/removed_names.hpp.txt not marked "fine")
# Fails when the sources use a Kokkos name that Kokkos 4 or 5 removed or deprecated, so that
# the library keeps building with them. Only Kokkos 3.4 is installable here, so a Kokkos 4
# build cannot catch these; this check does, in CI (a ctest) and by hand:
#   scripts/check_portability.sh
#
# Sources: the Kokkos 4.0 changelog and the deprecation pages of kokkos-core-wiki
# ("Deprecation for Kokkos-3.x": removed with Kokkos_ENABLE_DEPRECATED_CODE_3 in 4.0 and
# for good in 4.3, kokkos/kokkos#6523; "Deprecations for Kokkos 4"), plus the project's own
# rules (no LayoutTiled or custom layouts, int(V::rank), Kokkos::ALL by value).
#
# What is checked and why (pattern -> reason -> replacement):
#  InitArguments             removed in 4.3 (deprecated 3.7)  -> InitializationSettings under
#                            #if KOKKOS_VERSION >= 30700, or Kokkos::initialize(argc, argv)
#  finalize_all              removed with the 3.x deprecations -> Kokkos::finalize
#  ALL_t / Impl::ALL_t       moved from Kokkos::Impl in 4.0    -> Kokkos::ALL by value
#  V::Rank (a View's Rank)   removed (View traits rework, 4.x) -> int(V::rank)
#  V::rank used bare         an integral_constant in 4.x (mdspan-based View in 5): printf,
#                            arithmetic and template arguments need int(V::rank)
#  Kokkos::Experimental::{min,max,clamp,minmax,abs,fabs,sqrt,exp,log,pow,isfinite,isnan,
#                            isinf,infinity,epsilon,finite_min,finite_max,...}
#                            math promoted to namespace Kokkos, the Experimental aliases
#                            removed in 4.3 -> Kokkos::min etc. (or std:: in host code)
#  is_reducer_type           removed -> Kokkos::is_reducer
#  Impl::is_view             removed -> Kokkos::is_view
#  partition_master, OpenMP::partition, OpenMP::create_instance, MasterLock
#                            removed with the 3.x deprecations
#  KOKKOS_THREAD_LOCAL       removed -> thread_local
#  ExecSpace::concurrency()  static in 3.x, a member function from 4.0 (kokkos#5655) ->
#                            ExecSpace().concurrency() (works on 3.4 too)
#  Space::fence() static     removed in 3.0 -> exec.fence() / Kokkos::fence()
#  thread_pool_size          deprecated in 4.x -> exec.concurrency()
#  join(volatile ...)        volatile join overloads removed in 4.0 -> const& join
#  vector_length()           TeamPolicy::vector_length() removed (3.x deprecation)
#  LayoutTiled               Experimental, removed from 4.x View; the project's rule
#  --kokkos-threads, --kokkos-numa, --kokkos-ndevices, --kokkos-device=
#                            command-line names deprecated in 3.7 (--kokkos-num-threads,
#                            --kokkos-device-id); allowed only on a line that says
#                            "portability-ok" (a Kokkos < 3.7 branch under a version guard)
#  Kokkos::Experimental::HIP / HIPSpace  promoted to Kokkos::HIP in 4.0
#  Kokkos::Impl::            implementation details: no stability across releases
# Comments are not exempt (the rule is simple); a line with "portability-ok" is.
set -euo pipefail
if [[ ${1:-} == --self-test ]]; then
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  sample=$here/unit_tests/portability/removed_names.hpp.txt
  t=$(mktemp -d)
  trap 'rm -rf "$t"' EXIT
  mkdir "$t/include"
  cp "$sample" "$t/include/bad.hpp"
  if out=$("${BASH_SOURCE[0]}" "$t"); then
    echo "self-test: the check passed on the sample of removed names"
    exit 1
  fi
  bad=0
  n=0
  while IFS= read -r line; do
    n=$((n + 1))
    if [[ $line == *fine* ]]; then
      grep -q "bad.hpp:$n:" <<<"$out" && { echo "self-test: line $n reported: $line"; bad=1; }
    else
      grep -q "bad.hpp:$n:" <<<"$out" || { echo "self-test: line $n missed: $line"; bad=1; }
    fi
  done <"$sample"
  ((bad == 0)) && echo "self-test: every removed name of the sample reported, no false alarm"
  exit $bad
fi
cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}"

folders=(include src tools examples perf_tests unit_tests)
status=0
check() {  # check REASON ERE
  local reason=$1 pattern=$2 hits
  hits=$(grep -rnE --include='*.hpp' --include='*.cpp' --include='*.h' --include='*.cu' \
    --include='*.cuh' -- "$pattern" "${folders[@]}" 2>/dev/null | grep -v 'portability-ok' || true)
  if [[ -n $hits ]]; then
    echo "Kokkos 4/5 portability: $reason"
    echo "$hits" | sed 's/^/  /'
    status=1
  fi
}

check "Kokkos::InitArguments is removed in Kokkos 4.3" '\bInitArguments\b'
check "finalize_all() is removed" '\bfinalize_all\b'
check "ALL_t is not portable: use Kokkos::ALL by value" '\bALL_t\b'
check "View::Rank is removed: use int(V::rank)" '::Rank\b[^<]|::Rank$'
# V::rank: every use must be int(V::rank) or static_cast<int>(V::rank); the allowed forms
# are blanked out first, then any ::rank left is reported.
rank_hits=$(grep -rnE --include='*.hpp' --include='*.cpp' --include='*.h' --include='*.cu' \
  --include='*.cuh' -- '::rank\b([^_(]|$)' "${folders[@]}" 2>/dev/null | grep -v 'portability-ok' |
  sed -E 's/(static_cast<int>|int)\([A-Za-z_][A-Za-z0-9_:<>, ]*::rank\)/OK/g' |
  grep -E '::rank\b([^_(]|$)' || true)
if [[ -n $rank_hits ]]; then
  echo "Kokkos 4/5 portability: V::rank must be written int(V::rank) (an integral_constant in 4.x)"
  echo "$rank_hits" | sed 's/^/  /'
  status=1
fi
check "Kokkos::Experimental math/min/max are removed: use Kokkos:: or std::" \
  'Kokkos::Experimental::(min|max|clamp|minmax|abs|fabs|sqrt|cbrt|exp|exp2|log|log2|log10|pow|sin|cos|tan|isfinite|isnan|isinf|infinity|epsilon|finite_min|finite_max|quiet_NaN|signaling_NaN|round_error|norm_min|digits|pi_v|e_v)\b'
check "is_reducer_type is removed: use Kokkos::is_reducer" '\bis_reducer_type\b'
check "Impl::is_view is removed: use Kokkos::is_view" 'Impl::is_view\b'
check "OpenMP partitioning is removed" '\b(partition_master|create_instance|MasterLock)\b|OpenMP::partition\b'
check "KOKKOS_THREAD_LOCAL is removed: use thread_local" '\bKOKKOS_THREAD_LOCAL\b'
check "static concurrency() is a member in Kokkos 4: call it on an instance" \
  '(Kokkos::[A-Za-z]+|ExecutionSpace|ExecSpace|Exec|execution_space)::concurrency\(\)'
check "static fence() is removed: use exec.fence() or Kokkos::fence()" \
  '(Kokkos::[A-Za-z]+|ExecutionSpace|ExecSpace|Exec|execution_space)::fence\(\)'
check "thread_pool_size is deprecated: use concurrency()" '\bthread_pool_size\('
check "volatile join overloads are removed" 'join\([^)]*volatile'
check "TeamPolicy::vector_length() is removed" '\.vector_length\(\)'
check "LayoutTiled is not portable (project rule; removed from Kokkos 4 View)" '\bLayoutTiled\b'
check "deprecated Kokkos command-line names (use --kokkos-num-threads, --kokkos-device-id)" \
  '--kokkos-(threads|numa|ndevices|device)\b([^-]|$)'
check "Kokkos::Experimental::HIP is Kokkos::HIP since 4.0" 'Kokkos::Experimental::HIP'
check "Kokkos::Impl:: is not a public interface" 'Kokkos::Impl::'

if ((status == 0)); then
  echo "portability check: no Kokkos 4/5 removed or deprecated names in ${folders[*]}"
fi
exit $status
