#include "render/signal_lines.h"

#include <fmt/format.h>

#include <cmath>

#include "model/timestamp.h"
#include "render/safe_text.h"

namespace kaizen::render {
namespace {

constexpr size_t kLabelBytes = 64;

std::string Pct(double x) { return fmt::format("{:.0f}%", x * 100); }

std::string Commits(int64_t n) { return fmt::format("{} agent commit{}", n, n == 1 ? "" : "s"); }

}  // namespace

std::vector<std::string> SignalLines(const learn::SignalsResult& s) {
  std::vector<std::string> out;
  if (s.rewards == 0) return out;
  if (s.revert_rate.value && s.revert_rate.n > 0) {
    const auto reverted = static_cast<int64_t>(std::lround(*s.revert_rate.value * s.revert_rate.n));
    out.push_back(fmt::format("{} of {} were reverted ({}).", reverted, Commits(s.revert_rate.n),
                              Pct(*s.revert_rate.value)));
  }
  if (s.human_edit_rate.value && s.human_edit_rate.n > 0) {
    const auto edited =
        static_cast<int64_t>(std::lround(*s.human_edit_rate.value * s.human_edit_rate.n));
    out.push_back(fmt::format(
        "People rewrote lines of {} of {} within the next commits ({}): read their corrections "
        "(`kaizen corrections`) and do it their way first.",
        edited, Commits(s.human_edit_rate.n), Pct(*s.human_edit_rate.value)));
  }
  if (s.ci_pass_rate.value) {
    out.push_back(fmt::format("CI passed {} of {} runs ({}).",
                              std::lround(*s.ci_pass_rate.value * s.ci_pass_rate.n),
                              s.ci_pass_rate.n, Pct(*s.ci_pass_rate.value)));
  }
  if (s.ratings.value) {
    out.push_back(fmt::format("Rated {:.1f}/5 on average ({} rating{}).", *s.ratings.value,
                              s.ratings.n, s.ratings.n == 1 ? "" : "s"));
  }
  for (const learn::SignalFailure& f : s.recent_failures) {
    out.push_back(fmt::format("{} {} ({}): {}.", model::FormatDay(f.at_ms),
                              SanitizeReviewerText(f.commit.substr(0, 12), kLabelBytes),
                              SanitizeReviewerText(f.task_type, kLabelBytes), f.what));
  }
  return out;
}

}  // namespace kaizen::render
