// Agreement between reviewers (issue 30, item 4): when several people review the same work
// version, how far their judgements agree beyond chance. Krippendorff's alpha, per quality
// dimension with the interval metric (scores 1-10) and for decisions with the nominal metric
// (approved, rejected, needs-work), over the items two or more reviewers judged; each reviewer's
// agreement with the others; and the items where they split, for clarification (seed 000 §9.2).
// Pure: folded in log order.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "base/json_writer.h"
#include "learn/state_fwd.h"
#include "model/inputs.h"

namespace kaizen::learn {

// Below this many items judged by 2+ reviewers an alpha is not computed (left null).
inline constexpr int64_t kAgreementMinItems = 10;
// The newest split decisions listed for clarification.
inline constexpr size_t kMaxClarifications = 20;

struct Alpha {
  std::optional<double> alpha;  // null below kAgreementMinItems items, or with no variation
  int64_t items = 0;            // units with 2+ pairable values
  int64_t reviewers = 0;        // distinct reviewers among them
  int64_t values = 0;           // pairable values (n)
};

struct ReviewerAgreement {
  std::string reviewer;
  int64_t items = 0;  // items they decided that someone else decided too
  int64_t pairs = 0;  // (their decision, another's decision) pairs on those items
  std::optional<double> decision_agreement;  // share of those pairs that agree
};

struct Clarification {
  std::string artifact_id, version;
  std::map<std::string, std::string> decisions;  // reviewer -> decision
  int64_t at_ms = 0;                             // the newest of the decisions
};

struct AgreementResult {
  Alpha decisions;
  std::map<std::string, Alpha> dimensions;    // every dimension scored on 2+ reviews of one item
  std::vector<ReviewerAgreement> reviewers;   // by name
  std::vector<Clarification> clarifications;  // approved and rejected on one item, newest first
};

// Krippendorff's alpha of `units` (each the values one item got, one per reviewer): 1 - Do/De,
// with delta^2 (a - b)^2 (interval) or [a != b] (nominal). nullopt with no pairable value or no
// variation at all (De = 0). Exposed for its tests.
std::optional<double> KrippendorffAlpha(const std::vector<std::vector<double>>& units,
                                        bool interval);

class AgreementTracker {
 public:
  // A review with a reviewerId and a decision or scores, of a work version. A reviewer's later
  // review of the same version replaces their earlier one.
  void Add(const model::ReviewView& review);
  AgreementResult Result() const;

 private:
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  static constexpr int8_t kNoDecision = -1;
  struct Judgement {
    uint32_t reviewer = 0;
    int8_t decision = kNoDecision;     // 0 approved, 1 rejected, 2 needs-work
    uint16_t scored = 0;               // bit d: a score of QualityDimensions()[d]
    std::array<uint16_t, 13> centi{};  // each score x 100 (scores are 1..10, decimals allowed)
    int64_t at_ms = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct Item {
    uint64_t key = 0;  // ItemKey of (artifact id, version)
    // Kept once a second reviewer judged it: until then nothing is said of the item by name.
    std::string artifact_id, version;
    std::vector<Judgement> judgements;  // one per reviewer
    template <class Archive>
    void serialize(Archive& ar);
  };
  uint32_t ReviewerIndex(std::string_view name);

  std::vector<std::string> reviewers_;
  std::map<std::string, uint32_t, std::less<>> reviewer_index_;
  // Every reviewed item, most with one judgement (so not their names), in the order first
  // reviewed: the fold's sums run in one order, same bytes. Found through `index_`, by a 64-bit
  // FNV-1a of (artifact id, version): an ordered map of them was a visible share of the fold
  // (docs/performance.md, "Figures behind the source's choices").
  std::vector<Item> items_;
  absl::flat_hash_map<uint64_t, uint32_t> index_;  // never iterated
};

// The value of key `agreement`: {minItems, decisions: {alpha, items, reviewers, values},
// dimensions: {<dimension>: {...}},
// reviewers: {<name>: {items, pairs, decisionAgreement}}, clarifications: [{workProduct: {id,
// version}, decisions: {<reviewer>: <decision>}, at}]}.
void WriteJson(base::JsonWriter& w, const AgreementResult& r);

}  // namespace kaizen::learn
