#pragma once
// Counter-based random numbers: draw b of stream a under seed is a hash of (seed, a, b), so
// any rank, backend or order of evaluation that asks for the same draw gets the same value.

#include <Kokkos_Core.hpp>
#include <cstdint>

namespace hinesbatch {

KOKKOS_INLINE_FUNCTION std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A double in [0, 1) (53 random bits).
KOKKOS_INLINE_FUNCTION double counter_uniform01(std::uint64_t seed, std::uint64_t a,
                                                std::uint64_t b) {
  const std::uint64_t h =
      splitmix64(splitmix64(splitmix64(seed) ^ a) ^ (b * 0x632be59bd9b4e019ULL));
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

}  // namespace hinesbatch
