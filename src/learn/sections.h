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
};
inline constexpr size_t kPartCount = 19;

// A set of event kinds.
class KindSet {
 public:
  static KindSet All() { return KindSet(std::bitset<model::kEventKindCount>().set()); }
  KindSet() = default;
  KindSet(std::initializer_list<model::EventKind> kinds) {
    for (model::EventKind k : kinds) Add(k);
  }
  void Add(model::EventKind k) { bits_.set(static_cast<size_t>(k)); }
  bool Has(model::EventKind k) const { return bits_.test(static_cast<size_t>(k)); }
  KindSet& operator|=(KindSet other) {
    bits_ |= other.bits_;
    return *this;
  }
  bool operator==(const KindSet&) const = default;

 private:
  explicit KindSet(std::bitset<model::kEventKindCount> bits) : bits_(bits) {}
  std::bitset<model::kEventKindCount> bits_;
};

class Parts {
 public:
  static Parts All() { return Parts(std::bitset<kPartCount>().set()); }
  Parts() = default;
  Parts(std::initializer_list<Part> parts) {
    for (Part p : parts) bits_.set(static_cast<size_t>(p));
  }
  bool Has(Part p) const { return bits_.test(static_cast<size_t>(p)); }
  Parts& operator|=(Parts other) {
    bits_ |= other.bits_;
    return *this;
  }
  bool operator==(const Parts&) const = default;
  // The kinds these parts read. A review names its work product by reference, so any part that
  // reads reviews reads `work` events too.
  KindSet Kinds() const;
  // Whether Learner::Prepare has work for them: a review's themes, a correction's change.
  bool NeedsThemes() const;
  bool NeedsCorrectionChange() const { return Has(Part::kCorrections); }
  bool NeedsStrategies() const { return Has(Part::kOutcomes); }

 private:
  explicit Parts(std::bitset<kPartCount> bits) : bits_(bits) {}
  std::bitset<kPartCount> bits_;
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
};
inline constexpr size_t kSectionCount = 19;

std::string_view SectionName(Section s);
std::optional<Section> ParseSection(std::string_view name);
// "approval, gates, ..." for error messages.
std::string SectionList();

class Sections {
 public:
  static Sections All() { return Sections(std::bitset<kSectionCount>().set()); }
  Sections() = default;
  Sections(std::initializer_list<Section> sections) {
    for (Section s : sections) Add(s);
  }
  // "approval,gates": a comma-separated list of section names. nullopt, with *error naming the
  // value and the known sections, when a name is unknown or empty.
  static std::optional<Sections> Parse(std::string_view list, std::string* error);
  void Add(Section s) { bits_.set(static_cast<size_t>(s)); }
  bool Has(Section s) const { return bits_.test(static_cast<size_t>(s)); }
  bool operator==(const Sections&) const = default;
  // What a Learner must fold to write these sections.
  Parts Needs() const;

 private:
  explicit Sections(std::bitset<kSectionCount> bits) : bits_(bits) {}
  std::bitset<kSectionCount> bits_;
};

}  // namespace kaizen::learn
