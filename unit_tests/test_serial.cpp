// The sequential Hines algorithm (the reference every batched path is checked against)
// agrees with a dense LU in long double on fresh random systems.
#include <gtest/gtest.h>

#include <cmath>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/solvers/hines_serial.hpp"
#include "random_systems.hpp"

namespace {

using namespace hinesbatch;

TEST(SerialHines, MatchesDenseLu) {
  for (int n : {1, 2, 3, 10, 60, 150}) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const Tree tree = random_tree(n, seed * 31 + n, 0.3);
      auto sys = hinesbatch::test::random_systems<double>(tree, 1, seed);
      const auto x_ref =
          dense_lu_solve(tree, sys.u.data(), sys.l.data(), sys.d.data(), sys.rhs.data());
      std::vector<double> d = sys.d, x = sys.rhs;
      hines_solve_serial(tree.parents().data(), n, sys.u.data(), sys.l.data(), d.data(), x.data());
      long double err = 0, nrm = 0;
      for (int i = 0; i < n; ++i) {
        err += (x[i] - x_ref[i]) * (x[i] - x_ref[i]);
        nrm += x_ref[i] * x_ref[i];
      }
      EXPECT_LE(std::sqrt(double(err / nrm)), 1e-13) << "n=" << n << " seed=" << seed;
      EXPECT_LE(relative_residual(tree, sys.u.data(), sys.l.data(), sys.d.data(), sys.rhs.data(),
                                  x.data()),
                1e-14);
    }
  }
}

TEST(SerialHines, ResidualSeesAWrongAnswer) {
  const Tree tree = chain_tree(20);
  auto sys = hinesbatch::test::random_systems<double>(tree, 1, 9);
  std::vector<double> d = sys.d, x = sys.rhs;
  hines_solve_serial(tree.parents().data(), 20, sys.u.data(), sys.l.data(), d.data(), x.data());
  x[7] += 1e-3;
  EXPECT_GT(
      relative_residual(tree, sys.u.data(), sys.l.data(), sys.d.data(), sys.rhs.data(), x.data()),
      1e-6);
}

TEST(SerialHines, DenseLuRejectsSingularMatrix) {
  const Tree tree = chain_tree(3);
  std::vector<double> u{0, 0, 0}, l{0, 0, 0}, d{1, 0, 1}, b{1, 1, 1};
  EXPECT_THROW(dense_lu_solve(tree, u.data(), l.data(), d.data(), b.data()), SolverError);
}

}  // namespace
