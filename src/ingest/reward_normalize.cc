#include "ingest/reward_normalize.h"

#include <cmath>
#include <string>

namespace kaizen::ingest {
namespace {

std::optional<double> AsNumber(simdjson::dom::element v) {
  double d;
  if (v.is_int64()) return static_cast<double>(v.get_int64().value());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64().value());
  if (v.get_double().get(d) == simdjson::SUCCESS) return d;
  return std::nullopt;
}

// A yes/no raw value: JSON booleans or one of the given words.
std::optional<bool> AsBinary(simdjson::dom::element v, std::initializer_list<std::string_view> yes,
                             std::initializer_list<std::string_view> no) {
  bool b;
  if (v.get_bool().get(b) == simdjson::SUCCESS) return b;
  std::string_view s;
  if (v.get_string().get(s) != simdjson::SUCCESS) return std::nullopt;
  for (auto w : yes)
    if (s == w) return true;
  for (auto w : no)
    if (s == w) return false;
  return std::nullopt;
}

}  // namespace

bool HasNormalization(std::string_view t) {
  return t == "ci_result" || t == "coverage_delta" || t == "merge_outcome" || t == "satisfaction" ||
         t == "session_productivity" || t == "handoff_clarity" || t == "approach_correctness" ||
         t == "iteration_count" || t == "time_efficiency";
}

Result<double> NormalizeReward(std::string_view t, simdjson::dom::element raw,
                               std::optional<double> baseline_seconds) {
  if (t == "ci_result") {
    auto b = AsBinary(raw, {"pass", "passed", "success"}, {"fail", "failed", "failure"});
    if (!b) return InvalidArgument("must be pass or fail for signal_type ci_result");
    return *b ? 1.0 : 0.0;
  }
  if (t == "approach_correctness") {
    auto b = AsBinary(raw, {"yes", "y"}, {"no", "n"});
    if (!b) return InvalidArgument("must be yes or no for signal_type approach_correctness");
    return *b ? 1.0 : 0.0;
  }
  if (t == "merge_outcome") {
    std::string_view s;
    if (raw.get_string().get(s) == simdjson::SUCCESS) {
      if (s == "merged") return 1.0;
      if (s == "closed") return 0.5;
      if (s == "reverted") return 0.0;
    }
    return InvalidArgument("must be merged, closed or reverted for signal_type merge_outcome");
  }
  auto n = AsNumber(raw);
  if (t == "coverage_delta") {
    if (!n || *n < -100 || *n > 100) {
      return InvalidArgument(
          "must be a number in -100..100 (percentage points) for coverage_delta");
    }
    return 0.5 + *n / 200.0;
  }
  if (t == "satisfaction" || t == "session_productivity" || t == "handoff_clarity") {
    if (!n || *n < 1 || *n > 5 || std::floor(*n) != *n) {
      return InvalidArgument("must be an integer rating 1..5 for signal_type " + std::string(t));
    }
    return (*n - 1) / 4.0;
  }
  if (t == "iteration_count") {
    if (!n || *n < 1 || std::floor(*n) != *n) {
      return InvalidArgument("must be an integer >= 1 for signal_type iteration_count");
    }
    return 1.0 / *n;
  }
  if (t == "time_efficiency") {
    if (!n || *n <= 0)
      return InvalidArgument("must be a number of seconds > 0 for time_efficiency");
    if (!baseline_seconds || *baseline_seconds <= 0) {
      return InvalidArgument("time_efficiency needs baseline_seconds > 0 to normalize against");
    }
    return std::min(1.0, *baseline_seconds / *n);
  }
  return InvalidArgument("has no normalization rule; give signal_value in 0..1");
}

}  // namespace kaizen::ingest
