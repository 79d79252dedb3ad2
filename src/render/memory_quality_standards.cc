// The renderer of memory/quality-standards.md: the gates, target scores and calibration the
// learner holds now, over the gates' own window.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "learn/reviews/quality_index.h"
#include "model/schema.h"
#include "model/timestamp.h"
#include "render/memory_files.h"
#include "render/memory_files_internal.h"

namespace kaizen::render {
namespace {

using internal::Day;
using internal::Header;
using internal::Label;
using internal::Pct;
using internal::Sum;
using internal::Window;
using learn::MemoryConfig;

}  // namespace

std::string QualityStandardsFile(const learn::Learner& learner, int64_t now_ms) {
  const MemoryConfig& cfg = learner.config().memory;
  const int64_t now_day = model::DayOf(now_ms);
  // The gates' own window (§9.3 "30-day rolling averages"), so averages match "Based On".
  const auto window_days = static_cast<int64_t>(learner.config().gates.window_days);
  const Window w = Sum(learner.recent().days(), now_day - window_days + 1, now_day);
  const auto& names = model::QualityDimensions();
  int64_t points = 0;
  for (const learn::DimensionTally& d : w.dimensions) {
    for (int64_t n : d.n) points += n;
  }
  // seed 000 §5.1 "Confidence: High (100+ data points)"; Medium from 30 (§3.3's fit minimum).
  const std::string_view confidence = points >= 100 ? "High" : points >= 30 ? "Medium" : "Low";

  std::vector<MemoryBlock> b;
  b.push_back({Header("Quality Standards (Learned Thresholds)",
                      fmt::format("Last calibrated: {} | Confidence: {} ({} data points in {} "
                                  "days)",
                                  Day(now_ms), confidence, points, window_days)),
               kAlwaysKept});

  auto mean_of = [&](size_t dim) -> std::optional<double> {
    int64_t n = 0;
    double sum = 0;
    for (int b = 0; b < learn::DimensionTally::kBuckets; ++b) {
      n += w.dimensions[dim].n[b];
      sum += w.dimensions[dim].sum[b];
    }
    if (n == 0) return std::nullopt;
    return sum / static_cast<double>(n);
  };

  b.push_back({"\n## Minimum Acceptable Scores (Hard and Soft Gates)\n", kAlwaysKept});
  const std::vector<learn::ScoreGate> gates = learner.gates().Gates(now_ms);
  if (gates.empty()) {
    b.push_back({fmt::format("- No gate yet: a dimension needs {}+ scores in {} days and a "
                             "threshold below which reviewers (nearly) always reject.\n",
                             learner.config().gates.min_scores, window_days),
                 9});
  } else {
    b.push_back(
        {"| Dimension | Minimum Score | Gate | Rejection Rate Below | Based On | "
         "Reviewer Avg |\n|-----------|---------------|------|----------------------|"
         "----------|--------------|\n",
         9});
  }
  for (const learn::ScoreGate& g : gates) {
    const int dim = learn::QualityDimensionIndex(g.dimension);
    const std::optional<double> avg = dim < 0 ? std::nullopt : mean_of(static_cast<size_t>(dim));
    b.push_back({fmt::format("| {} | {} | {} | {} | {} reviews | {} |\n", Label(g.dimension),
                             g.threshold, learn::GateKindName(g.kind), Pct(g.rejection_rate),
                             g.scores, avg ? fmt::format("{:.1f}", *avg) : "-"),
                 g.kind == learn::GateKind::kHard ? 9 : 8});
  }

  // Targets: the score at the top quartile's edge, and the top quartile's mean.
  b.push_back({"\n## Target Scores (What \"Great\" Looks Like)\n", kAlwaysKept});
  std::vector<std::string> rows;
  for (size_t dim = 0; dim < names.size(); ++dim) {
    const learn::DimensionTally& d = w.dimensions[dim];
    int64_t n = 0;
    for (int64_t c : d.n) n += c;
    if (n == 0 || static_cast<double>(n) < cfg.min_reviews) continue;
    int64_t want = (n + 3) / 4, taken = 0;
    double sum = 0;
    int edge = learn::DimensionTally::kBuckets;
    for (int bucket = learn::DimensionTally::kBuckets - 1; bucket >= 0 && taken < want; --bucket) {
      if (d.n[bucket] == 0) continue;
      const int64_t take = std::min(want - taken, d.n[bucket]);
      sum += static_cast<double>(take) * d.sum[bucket] / static_cast<double>(d.n[bucket]);
      taken += take;
      edge = bucket + 1;
    }
    rows.push_back(fmt::format("| {} | {}+ | {:.1f} | {} scores |\n", names[dim], edge,
                               sum / static_cast<double>(taken), n));
  }
  if (rows.empty()) {
    b.push_back({fmt::format("- Not enough scores yet ({}+ per dimension in {} days).\n",
                             cfg.min_reviews, window_days),
                 7});
  } else {
    b.push_back(
        {"| Dimension | Target | Top Quartile | Based On |\n|-----------|--------|--------------|"
         "----------|\n",
         7});
  }
  for (std::string& r : rows) b.push_back({std::move(r), 7});

  // §3.1 calibration: what the agent's raw confidence turned out to mean.
  b.push_back({"\n## Confidence Calibration\n", kAlwaysKept});
  const learn::CalibrationResult cal = learner.calibration().Result();
  const double min_bucket = learner.config().calibration.min_bucket;
  bool any = false;
  for (auto it = cal.buckets.rbegin(); it != cal.buckets.rend(); ++it) {
    if (static_cast<double>(it->n) < min_bucket || !it->actual_rate || !it->error) continue;
    if (!any) b.push_back({"The agent's raw confidence maps to an actual approval rate:\n", 8});
    any = true;
    // kaizen's choice: within 5 points counts as calibrated (the seed's "~calibrated" rows).
    const std::string action = std::fabs(*it->error) < 0.05
                                   ? "~calibrated"
                                   : fmt::format("apply {:+.0f}% correction", -*it->error * 100);
    b.push_back({fmt::format("- {:.0f}-{:.0f}% raw → {} actual ({}, n={})\n", it->lower * 100,
                             it->upper * 100 - (it->upper < 1 ? 1 : 0), Pct(*it->actual_rate),
                             action, it->n),
                 8});
  }
  if (!any) {
    b.push_back(
        {fmt::format("- Not enough reviews yet ({}+ per confidence bucket).\n", min_bucket), 8});
  }
  const learn::ScorePrediction& sp = cal.score_prediction;
  if (sp.n > 0 && sp.mean_abs_error && sp.mean_delta) {
    b.push_back({fmt::format("- Score predictions: off by {:.1f} on average over {} reviews "
                             "(reviewers score {:.1f} {} than predicted)\n",
                             *sp.mean_abs_error, sp.n, std::fabs(*sp.mean_delta),
                             *sp.mean_delta >= 0 ? "higher" : "lower"),
                 8});
  }
  return FitToBudget(b, static_cast<size_t>(cfg.budget_bytes));
}

}  // namespace kaizen::render
