// Internal to render/: what the renderers of the four memory files (memory_*.cc) share, so that
// the files read the log's digests and name labels the same way.
#pragma once

#include <fmt/format.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "learn/learner.h"
#include "model/timestamp.h"
#include "render/safe_text.h"

namespace kaizen::render::internal {

using learn::DayDigest;
using learn::ThemeTally;

inline constexpr size_t kLabelBytes = 64;  // a theme, server type or stage named in a file

// Themes, server types and stages come from the log (annotation categories are reviewer-written):
// sanitized, never trusted as markdown.
inline std::string Label(std::string_view s) { return SanitizeReviewerText(s, kLabelBytes); }
inline std::string Pct(double x) { return fmt::format("{:.0f}%", x * 100); }

// What the digests of days [first, last] add up to.
struct Window {
  int64_t reviews = 0, approved = 0, rejected = 0, needs_work = 0, deferred = 0;
  double review_mean_sum = 0;
  int64_t scored_reviews = 0;
  std::array<learn::DimensionTally, 13> dimensions{};
  std::map<std::string, ThemeTally, std::less<>> themes;
};

inline Window Sum(const std::map<int64_t, DayDigest>& days, int64_t first, int64_t last) {
  Window w;
  for (auto it = days.lower_bound(first); it != days.end() && it->first <= last; ++it) {
    const DayDigest& d = it->second;
    w.reviews += d.reviews;
    w.approved += d.approved;
    w.rejected += d.rejected;
    w.needs_work += d.needs_work;
    w.deferred += d.deferred;
    w.review_mean_sum += d.review_mean_sum;
    w.scored_reviews += d.scored_reviews;
    for (size_t i = 0; i < w.dimensions.size(); ++i) {
      for (int b = 0; b < learn::DimensionTally::kBuckets; ++b) {
        w.dimensions[i].n[b] += d.dimensions[i].n[b];
        w.dimensions[i].sum[b] += d.dimensions[i].sum[b];
      }
    }
    for (const auto& [theme, t] : d.themes) {
      ThemeTally& s = w.themes[theme];
      s.positive += t.positive;
      s.negative += t.negative;
      s.positive_score_sum += t.positive_score_sum;
      s.positive_scored += t.positive_scored;
    }
  }
  return w;
}

inline std::string Header(std::string_view title, std::string_view line) {
  return fmt::format("# {}\n> {}\n", title, line);
}

inline std::string Day(int64_t ms) { return model::FormatDay(ms); }

}  // namespace kaizen::render::internal
