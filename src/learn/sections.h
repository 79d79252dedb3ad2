// What a Learner folds, and which of it each section of `kaizen analyze` reads. A verb that
// answers from a few rules folds only those, and reads in full only the event kinds they take:
// `kaizen analyze --only gates` does not build the memory files' state or read outcomes.
#pragma once

#include <bitset>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "model/event_kind.h"

namespace kaizen::learn {

// One rule's folded state in the Learner.
enum class Part : uint8_t {
  kApproval,
  kGates,
  kCalibration,
  kSpeed,
  kAutonomy,
  kPreferences,
  kCommunication,
  kOutcomes,
  kErrors,
  kLoops,
  kEvidence,  // theme evidence: contradictions, rule candidates
  kRules,     // the rule book of the memory files
  kScoreBands,
  kBias,
  kKpis,
  kCorrections,
  kProfiles,
  kRecent,
  kQueue,
  // seed 001 automatic and low-friction signals (rewards): read by autonomy, calibration and
  // outcomes too, which it feeds
  kSignals,
  kAgreement,  // reviewers' agreement on the items several of them judged
};
inline constexpr size_t kPartCount = 21;

// A set of the values of an enum numbered 0..N-1. `Self` is the set deriving from it, so that
// All() and |= give a Self.
template <typename Self, typename E, size_t N>
class EnumSet {
 public:
  static Self All() {
    Self all;
    static_cast<EnumSet&>(all).bits_.set();
    return all;
  }
  EnumSet() = default;
  EnumSet(std::initializer_list<E> values) {
    for (E v : values) Add(v);
  }
  void Add(E v) { bits_.set(static_cast<size_t>(v)); }
  bool Has(E v) const { return bits_.test(static_cast<size_t>(v)); }
  Self& operator|=(const Self& other) {
    bits_ |= static_cast<const EnumSet&>(other).bits_;
    return static_cast<Self&>(*this);
  }
  bool operator==(const EnumSet&) const = default;

 private:
  std::bitset<N> bits_;
};

class KindSet : public EnumSet<KindSet, model::EventKind, model::kEventKindCount> {
 public:
  using EnumSet::EnumSet;
};

// The costly, optional fields of a review. Its ids, reviewer, stage, server type, work product,
// decision, confidence, override and `_predictionDelta` are always read; a field outside the set
// a reader is given is skipped, not parsed. Reading `meta` whole is most of a review's cost.
enum class ReviewField : uint8_t {
  kScores,
  kFreeText,
  kComparison,
  kAnnotations,
  kMeta,     // the whole `meta` object
  kFatigue,  // `meta.sessionFatigue` alone (kMeta reads it too)
};
inline constexpr size_t kReviewFieldCount = 6;

class ReviewFields : public EnumSet<ReviewFields, ReviewField, kReviewFieldCount> {
 public:
  using EnumSet::EnumSet;
};

// What a reader reads of each line: events of `kinds` whole (the others up to their timestamp)
// and, of a review, the optional `review` fields.
struct ReadScope {
  KindSet kinds = KindSet::All();
  ReviewFields review = ReviewFields::All();

  ReadScope& operator|=(const ReadScope& other) {
    kinds |= other.kinds;
    review |= other.review;
    return *this;
  }
};

class Parts : public EnumSet<Parts, Part, kPartCount> {
 public:
  using EnumSet::EnumSet;
  // The kinds these parts read. A review names its work product by reference, so any part that
  // reads reviews reads `work` events too.
  KindSet Kinds() const;
  // The optional review fields these parts read (every one for a part not narrowed down here).
  ReviewFields FieldsOfReviews() const;
  // Whether Learner::Prepare has work for them: a review's themes, a correction's change.
  bool NeedsThemes() const;
  bool NeedsCorrectionChange() const { return Has(Part::kCorrections); }
  bool NeedsStrategies() const { return Has(Part::kOutcomes); }
};

// The top-level keys of `kaizen analyze --json` after `now` and `events`, in output order
// (docs/analysis.md). `regressions` also writes `regressionsTotal`.
enum class Section : uint8_t {
  kApproval,
  kGates,
  kCalibration,
  kDecisionSpeed,
  kPreferences,
  kAutonomy,
  kCommunication,
  kCriteria,
  kPatterns,
  kAntiPatterns,
  kErrors,
  kLoops,
  kContradictions,
  kKpis,
  kAlerts,
  kRegressions,
  kStrategies,
  kRuleCandidates,
  kBiasWatch,
  kSignals,
  kAgreement,
};
inline constexpr size_t kSectionCount = 21;

std::string_view SectionName(Section s);
std::optional<Section> ParseSection(std::string_view name);
// "approval, gates, ..." for error messages.
std::string SectionList();

class Sections : public EnumSet<Sections, Section, kSectionCount> {
 public:
  using EnumSet::EnumSet;
  // "approval,gates": a comma-separated list of section names. nullopt, with *error naming the
  // value and the known sections, when a name is unknown or empty.
  static std::optional<Sections> Parse(std::string_view list, std::string* error);
  // What a Learner must fold to write these sections.
  Parts Needs() const;
};

}  // namespace kaizen::learn
