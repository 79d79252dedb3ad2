#include "learn/decay.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kaizen::learn {
namespace {

constexpr int64_t kNow = 1733961600000;  // 2024-12-12T00:00:00Z

int64_t DaysAgo(double days) { return kNow - static_cast<int64_t>(days * model::kMsPerDay); }

TEST(Decay, DayZeroIsFullWeight) { EXPECT_EQ(Decay(kNow, kNow, 90), 1.0); }

// seed 002 "Decay timeline": day 90 50%, day 180 25%, day 270 12.5%.
TEST(Decay, SeedTimelineHalvesEveryNinetyDays) {
  EXPECT_EQ(Decay(DaysAgo(90), kNow, 90), 0.5);
  EXPECT_EQ(Decay(DaysAgo(180), kNow, 90), 0.25);
  EXPECT_EQ(Decay(DaysAgo(270), kNow, 90), 0.125);
}

TEST(Decay, AgeIsInFractionalDays) {
  EXPECT_DOUBLE_EQ(Decay(DaysAgo(45), kNow, 90), std::sqrt(0.5));
  // Twelve hours with a one-day half-life.
  EXPECT_DOUBLE_EQ(Decay(kNow - model::kMsPerDay / 2, kNow, 1), std::sqrt(0.5));
  // One millisecond already counts.
  EXPECT_LT(Decay(kNow - 1, kNow, 90), 1.0);
}

TEST(Decay, HalfLifeIsTheConfiguredOne) { EXPECT_EQ(Decay(DaysAgo(30), kNow, 30), 0.5); }

TEST(Decay, FutureTimestampCountsAsAgeZero) {
  EXPECT_EQ(Decay(kNow + 1, kNow, 90), 1.0);
  EXPECT_EQ(Decay(kNow + 400 * model::kMsPerDay, kNow, 90), 1.0);
}

}  // namespace
}  // namespace kaizen::learn
