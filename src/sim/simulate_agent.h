// The simulated agent ("Buba"): it makes work items of 4 task types, each built with a
// decomposition and a structure pattern, has weak spots it does not know about, and is
// overconfident. With learning on it reads
// kaizen's advice every morning and acts on it the way seed 000 §6.1-6.3 describes: it meets the
// learned score gates, drops flagged patterns for proven ones, reports calibrated confidence.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "learn/learner.h"
#include "sim/simulate.h"

namespace kaizen::sim {

// What the agent took from kaizen. Gates are remembered (the agent writes them into its memory
// files): a gate kaizen stops reporting because the agent now meets it stays followed. Habits
// change slowly: a piece of advice is followed on a share of the items that grows with the
// days since the agent first read it (Adoption).
struct AgentAdvice {
  struct Gate {
    bool known = false;
    int threshold = 0;          // the highest threshold kaizen reported for the dimension
    double rejection_rate = 0;  // below it
    int64_t since_ms = 0;       // when the agent first read a gate on the dimension
  };
  std::array<Gate, kDimCount> gates{};
  // Anti-pattern or deprecated now: since when (continuously).
  std::array<std::optional<int64_t>, kPatternCount> avoid_since{};
  std::array<bool, kPatternCount> proven{};  // proven now
  // Belief bucket -> the confidence reported; nullopt: report the belief itself.
  std::array<std::optional<double>, 10> calibration{};
};

// kaizen's calibration curve as the agent saw it one morning: (pairs, approved) per bucket.
using CalibrationSnapshot = std::array<std::pair<int64_t, int64_t>, 10>;

// The share of items on which advice first read at `since_ms` is followed at `now_ms`: none on
// the day it is read, rising linearly to 90% three weeks later.
double Adoption(int64_t since_ms, int64_t now_ms);

// seed 002 outcome: the chance that a bead using these patterns succeeds.
double SuccessProbability(Pattern decomposition, Pattern structure);

class SimulatedAgent {
 public:
  static constexpr size_t kCalibrationDays = 14;

  SimulatedAgent(uint64_t seed, bool learning);

  // The start of a day: what kaizen, fed with every event so far, advises at `now_ms`. Does
  // nothing when learning is off.
  //  - gates().Gates(now): remembered per dimension;
  //  - outcomes().AntiPatterns() and Patterns(now): avoid anti-patterns and deprecated
  //    patterns, prefer proven ones;
  //  - calibration(): kaizen's curve relates the confidence the agent *reported* to approval,
  //    over all time. The agent keeps the curve's daily counts to see the last
  //    kCalibrationDays only (an improving agent's old buckets are stale), and passes each
  //    belief bucket's reported value through that recent curve again: map[b] = recent actual
  //    rate of bucket(map[b]), when that bucket holds calibration.min_bucket recent pairs. The
  //    correction composes day by day and follows the agent's changing approval rate.
  void ReadAdvice(const learn::Learner& learner, int64_t now_ms);

  // The index-th work item of `day`, submitted at `submitted_ms`. Its random draws depend only on
  // (seed, day, index), so the runs with and without learning make the same items before advice.
  // Patterns: its habits, minus adopted advice. Quality: skill + N(0, 1) per dimension, moved by
  // the patterns and by a failed bead; a known gate's dimension that it judges below threshold +
  // 1.2 is raised past the threshold (on Adoption's share of items). Confidence: an optimistic
  // belief from its self-assessment, times (1 - rejection rate) for each known gate it still
  // misses, through the calibration map.
  WorkItem Make(int day, int index, int64_t submitted_ms) const;

  bool learning() const { return learning_; }
  const AgentAdvice& advice() const { return advice_; }

 private:
  void ReadGates(const learn::Learner& learner, int64_t now_ms);
  void ReadPatterns(const learn::Learner& learner, int64_t now_ms);
  void ReadCalibration(const learn::Learner& learner);

  uint64_t seed_;
  bool learning_;
  AgentAdvice advice_;
  std::vector<CalibrationSnapshot> mornings_;  // the last kCalibrationDays + 1, oldest first
};

}  // namespace kaizen::sim
