// Approval rates (seed 000 §3.1 "Approval Rate by Server Type"): what share of the decided
// reviews approved, overall and by server type, pipeline stage and reviewer.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "base/json_writer.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"  // StringHash
#include "model/inputs.h"

namespace kaizen::learn {

// A verdict is approved, rejected or needs-work. Deferred (and no decision at all) is not one:
// every rate in seed 000 §3.1 and §6.3 is approved / decided.
inline bool IsDecided(model::Decision d) {
  return d == model::Decision::kApproved || d == model::Decision::kRejected ||
         d == model::Decision::kNeedsWork;
}

// The name a review is grouped under when the grouping field is absent.
inline constexpr std::string_view kUnspecified = "unspecified";
inline std::string_view OrUnspecified(std::string_view s) { return s.empty() ? kUnspecified : s; }

struct ApprovalCounts {
  int64_t approved = 0, rejected = 0, needs_work = 0, deferred = 0;
  int64_t total = 0;  // every review, including deferred and those without a decision

  int64_t decided() const { return approved + rejected + needs_work; }
  template <class Archive>
  void serialize(Archive& ar);
  // approved / decided; nullopt when nothing was decided.
  std::optional<double> rate() const;
  void Add(model::Decision d);
};

struct ApprovalResult {
  ApprovalCounts overall;
  std::map<std::string, ApprovalCounts> by_server_type, by_stage, by_reviewer;  // sorted
};

class ApprovalLearner {
 public:
  // Folds one review. Allocates only when a new server type, stage or reviewer appears.
  void Add(const model::ReviewView& review);
  ApprovalResult Result() const;

 private:
  using Table = std::unordered_map<std::string, ApprovalCounts, StringHash, std::equal_to<>>;
  static void AddTo(Table& table, std::string_view key, model::Decision d);
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  ApprovalCounts overall_;
  Table by_server_type_, by_stage_, by_reviewer_;
};

// Key `approval`: {overall: {approved, rejected, needsWork, deferred, total, rate},
// byServerType: {name: {...}}, byStage: {...}, byReviewer: {...}}.
void WriteJson(base::JsonWriter& w, const ApprovalResult& result);
void WriteJson(base::JsonWriter& w, const ApprovalCounts& counts);

}  // namespace kaizen::learn
