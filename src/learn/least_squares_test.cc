#include "learn/least_squares.h"

#include <gtest/gtest.h>

#include <vector>

namespace kaizen::learn {
namespace {

TEST(NormalEquations, RecoversExactLinearRelation) {
  // y = 2 x0 + 3 x1 holds for every sample, so least squares returns (2, 3) up to the 1e-6 ridge.
  NormalEquations eq(2);
  eq.Add(std::vector<double>{1, 0}, 2);
  eq.Add(std::vector<double>{0, 1}, 3);
  eq.Add(std::vector<double>{1, 1}, 5);
  EXPECT_EQ(eq.n(), 3);
  const std::vector<size_t> columns = {0, 1};
  auto w = eq.Solve(columns);
  ASSERT_TRUE(w.has_value());
  ASSERT_EQ(w->size(), 2u);
  EXPECT_NEAR((*w)[0], 2.0, 1e-4);
  EXPECT_NEAR((*w)[1], 3.0, 1e-4);
}

TEST(NormalEquations, NoRidgeGivesTheExactSolution) {
  NormalEquations eq(2);
  eq.Add(std::vector<double>{1, 0}, 2);
  eq.Add(std::vector<double>{0, 1}, 3);
  eq.Add(std::vector<double>{1, 1}, 5);
  const std::vector<size_t> columns = {0, 1};
  auto w = eq.Solve(columns, 0);
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ((*w)[0], 2.0);
  EXPECT_DOUBLE_EQ((*w)[1], 3.0);
}

TEST(NormalEquations, MinimizesSquaredErrorWhenNoExactFitExists) {
  // One column: w = sum(x y) / sum(x^2) = (1*1 + 2*5) / (1 + 4) = 11 / 5.
  NormalEquations eq(1);
  eq.Add(std::vector<double>{1}, 1);
  eq.Add(std::vector<double>{2}, 5);
  const std::vector<size_t> columns = {0};
  auto w = eq.Solve(columns, 0);
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ((*w)[0], 11.0 / 5.0);
}

TEST(NormalEquations, SolvesOverTheRequestedColumnsOnly) {
  // Column 1 alone: y = 3 x1 exactly; column 0 is ignored although it is in the sums.
  NormalEquations eq(3);
  eq.Add(std::vector<double>{7, 1, 9}, 3);
  eq.Add(std::vector<double>{-4, 2, 9}, 6);
  const std::vector<size_t> columns = {1};
  auto w = eq.Solve(columns, 0);
  ASSERT_TRUE(w.has_value());
  ASSERT_EQ(w->size(), 1u);
  EXPECT_DOUBLE_EQ((*w)[0], 3.0);
}

TEST(NormalEquations, RidgeSplitsIdenticalColumnsEvenly) {
  // x0 == x1 always: singular without the ridge, evenly split (1, 1) with it.
  NormalEquations eq(2);
  eq.Add(std::vector<double>{1, 1}, 2);
  eq.Add(std::vector<double>{3, 3}, 6);
  const std::vector<size_t> columns = {0, 1};
  EXPECT_FALSE(eq.Solve(columns, 0).has_value());
  auto w = eq.Solve(columns);
  ASSERT_TRUE(w.has_value());
  EXPECT_NEAR((*w)[0], 1.0, 1e-4);
  EXPECT_NEAR((*w)[1], 1.0, 1e-4);
}

TEST(NormalEquations, EmptyIsUnsolvable) {
  NormalEquations eq(2);
  const std::vector<size_t> columns = {0, 1};
  EXPECT_FALSE(eq.Solve(columns).has_value());
  eq.Add(std::vector<double>{1, 2}, 1);
  EXPECT_FALSE(eq.Solve({}).has_value());
}

TEST(NormalEquations, AllZeroFeaturesAreSingular) {
  NormalEquations eq(2);
  eq.Add(std::vector<double>{0, 0}, 4);
  const std::vector<size_t> columns = {0, 1};
  EXPECT_FALSE(eq.Solve(columns).has_value());
}

TEST(SolveCholesky, RejectsIndefiniteMatrix) {
  EXPECT_FALSE(SolveCholesky({1, 2, 2, 1}, {1, 1}, 2).has_value());
}

TEST(SolveCholesky, SolvesThreeByThree) {
  // A = [[4,2,0],[2,5,1],[0,1,3]], x = (1,-1,2) -> b = (2,-1,5).
  auto x = SolveCholesky({4, 2, 0, 2, 5, 1, 0, 1, 3}, {2, -1, 5}, 3);
  ASSERT_TRUE(x.has_value());
  EXPECT_NEAR((*x)[0], 1.0, 1e-12);
  EXPECT_NEAR((*x)[1], -1.0, 1e-12);
  EXPECT_NEAR((*x)[2], 2.0, 1e-12);
}

}  // namespace
}  // namespace kaizen::learn
