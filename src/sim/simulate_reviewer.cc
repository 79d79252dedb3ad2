#include "sim/simulate_reviewer.h"

#include <algorithm>
#include <cmath>

namespace kaizen::sim {
namespace {

constexpr double kScoreNoise = 0.6;      // sd of a score around the item's quality
constexpr double kEveningHarsher = 0.4;  // points off every score in the evening
constexpr double kMedianDecideMs = 70'000;

struct DimText {
  std::string_view disliked, fix;
};

const DimText& TextOf(Dim d) {
  static constexpr std::array<DimText, kDimCount> kTexts = {{
      {"The code is hard to follow", "Extract the long functions into named steps"},
      {"Errors from the API are swallowed; failure paths are not handled",
       "Handle timeouts and error responses explicitly"},
      {"Not enough tests: the main paths are untested", "Add tests for the main paths"},
      {"Names do not say what things are", "Rename the helpers after what they do"},
      {"The documentation is thin", "Document every tool's parameters"},
      {"The structure mixes concerns", "Keep each feature's code together"},
      {"Input is not validated", "Validate inputs at the boundary"},
      {"It does needless round trips", "Batch the requests"},
      {"Parts of the task are missing", "Finish the remaining cases"},
      {"Awkward to use from a client", "Give the tools clearer parameters"},
  }};
  return kTexts[static_cast<size_t>(d)];
}

constexpr std::array<std::string_view, 4> kApprovedReasons = {
    "Meets the bar", "Clean and complete", "Good to merge", "Does what the task asked"};

}  // namespace

std::string_view WindowName(ReviewWindow w) {
  switch (w) {
    case ReviewWindow::kMorning:
      return "morning";
    case ReviewWindow::kAfternoon:
      return "afternoon";
    case ReviewWindow::kEvening:
      return "evening";
  }
  return "morning";
}

double ApprovalProbability(double mean_score, bool evening) {
  // Linear in the mean: a coin flip at 5.4, near-certain from 6.2 up; evenings cost 6 points.
  const double p = 0.5 + 0.6 * (mean_score - 5.4) - (evening ? 0.06 : 0.0);
  return std::clamp(p, 0.03, 0.97);
}

Review HiddenReviewer::Judge(const WorkItem& item, ReviewWindow window, int position) const {
  SimRng rng = SimRng::For(seed_, kReviewerStream, static_cast<uint64_t>(item.day),
                           static_cast<uint64_t>(item.index));
  const TaskType& task = TaskTypes()[static_cast<size_t>(item.task)];
  const bool evening = window == ReviewWindow::kEvening;
  // Every draw is made whatever the item, so a review sees the same numbers in both runs.
  // Always error handling and test coverage; then 2-4 of naming and the task type's pool.
  std::array<Dim, 5> pool = {Dim::kNaming, task.pool[0], task.pool[1], task.pool[2], task.pool[3]};
  const int extra = rng.Between(2, 4);
  for (int i = 0; i < extra; ++i) {  // a partial Fisher-Yates shuffle picks `extra` of the pool
    std::swap(pool[static_cast<size_t>(i)], pool[static_cast<size_t>(rng.Between(i, 4))]);
  }
  std::array<double, kDimCount> noise{};
  for (double& n : noise) n = kScoreNoise * rng.Normal();
  std::array<double, kHiddenGates.size()> gate_draw{};
  for (double& u : gate_draw) u = rng.U();
  const double approve_draw = rng.U();
  const double time_draw = rng.Normal();
  const double confidence_draw = rng.U();
  const int approved_reason = rng.Between(0, static_cast<int>(kApprovedReasons.size()) - 1);

  Review r;
  auto add = [&](Dim d) {
    const size_t i = static_cast<size_t>(d);
    const double seen = item.quality[i] + noise[i] - (evening ? kEveningHarsher : 0.0);
    r.dims[static_cast<size_t>(r.score_count)] = d;
    r.scores[static_cast<size_t>(r.score_count)] =
        static_cast<int>(std::clamp(std::lround(seen), 1L, 10L));
    ++r.score_count;
  };
  add(Dim::kErrorHandling);
  add(Dim::kTestCoverage);
  for (int i = 0; i < extra; ++i) add(pool[static_cast<size_t>(i)]);

  int sum = 0, worst = 0;
  for (int i = 0; i < r.score_count; ++i) {
    sum += r.scores[static_cast<size_t>(i)];
    if (r.scores[static_cast<size_t>(i)] < r.scores[static_cast<size_t>(worst)]) worst = i;
  }
  r.mean = static_cast<double>(sum) / r.score_count;
  r.worst = r.dims[static_cast<size_t>(worst)];

  // The hidden gates first, in order: the first that fires decides. A gate watches a dimension
  // only when the reviewer scored it.
  for (size_t g = 0; g < kHiddenGates.size() && r.gate == nullptr; ++g) {
    const HiddenGate& gate = kHiddenGates[g];
    for (int i = 0; i < r.score_count; ++i) {
      if (r.dims[static_cast<size_t>(i)] == gate.dim &&
          r.scores[static_cast<size_t>(i)] < gate.below && gate_draw[g] < gate.reject) {
        r.gate = &gate;
      }
    }
  }
  const double p = ApprovalProbability(r.mean, evening);
  if (r.gate != nullptr) {
    r.decision = r.gate->decision;
    r.reason = r.gate->reason;
    r.severity = r.gate->hard ? "major" : "moderate";
    r.suggestion = TextOf(r.gate->dim).fix;
  } else if (approve_draw < p) {
    r.approved = true;
    r.decision = "approved";
    r.reason = kApprovedReasons[static_cast<size_t>(approved_reason)];
  } else {
    r.decision = r.mean < 5 ? "rejected" : "needs-work";
    r.reason = TextOf(r.worst).disliked;
    r.severity = r.scores[static_cast<size_t>(worst)] <= 3 ? "major" : "minor";
    r.suggestion = TextOf(r.worst).fix;
  }

  // seed 000 §3.1: an obvious flaw is rejected fast; evenings and long sessions are faster.
  double ms = kMedianDecideMs * std::max(0.25, 1 + 0.35 * time_draw);
  if (r.gate != nullptr) ms *= 0.4;
  if (evening) ms *= 0.6;
  ms *= 1 - 0.025 * std::min(position - 1, 12);
  r.time_to_decision_ms = std::max<int64_t>(4'000, std::llround(ms));

  const bool clear_cut = r.gate != nullptr || std::abs(p - 0.5) > 0.3;
  r.confidence = evening && confidence_draw < 0.3 ? "somewhat-unsure"
                 : clear_cut                      ? "very-sure"
                                                  : "fairly-sure";
  r.would_delegate = r.approved && r.mean >= 7.5;
  for (int i = 0; i < r.score_count; ++i) {
    if (r.dims[static_cast<size_t>(i)] == Dim::kSecurity && r.scores[static_cast<size_t>(i)] <= 4) {
      r.needs_expert = true;
    }
  }
  return r;
}

}  // namespace kaizen::sim
