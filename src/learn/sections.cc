#include "learn/sections.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kaizen::learn {
namespace {

using model::EventKind;

constexpr std::array<std::string_view, kSectionCount> kSectionNames = {
    "approval",       "gates",    "calibration", "decisionSpeed", "preferences", "autonomy",
    "communication",  "criteria", "patterns",    "antiPatterns",  "errors",      "loops",
    "contradictions", "kpis",     "alerts",      "regressions",   "strategies",  "ruleCandidates",
    "biasWatch",      "signals",  "agreement"};

Parts PartsOf(Section s) {
  switch (s) {
    case Section::kApproval:
      return {Part::kApproval};
    case Section::kGates:
      return {Part::kGates};
    case Section::kCalibration:
      return {Part::kCalibration};
    case Section::kDecisionSpeed:
      return {Part::kSpeed};
    case Section::kPreferences:
      return {Part::kPreferences};
    case Section::kAutonomy:
    case Section::kRegressions:
      return {Part::kAutonomy};
    case Section::kCommunication:
      return {Part::kCommunication};
    case Section::kCriteria:
    case Section::kPatterns:
    case Section::kAntiPatterns:
    case Section::kStrategies:
      return {Part::kOutcomes};
    case Section::kErrors:
      return {Part::kErrors};
    case Section::kLoops:
      return {Part::kLoops};
    case Section::kContradictions:
    case Section::kRuleCandidates:
      return {Part::kEvidence};
    case Section::kKpis:
    case Section::kAlerts:
      // The delegation KPIs read the autonomy levels by day; rule effectiveness, the candidates;
      // the alerts, the revert and rewrite rates too.
      return {Part::kKpis, Part::kAutonomy, Part::kEvidence, Part::kSignals};
    case Section::kBiasWatch:
      return {Part::kBias};
    case Section::kSignals:
      return {Part::kSignals};
    case Section::kAgreement:
      return {Part::kAgreement};
  }
  return {};
}

}  // namespace

KindSet Parts::Kinds() const {
  KindSet kinds;
  for (Part p :
       {Part::kApproval, Part::kGates, Part::kCalibration, Part::kSpeed, Part::kAutonomy,
        Part::kPreferences, Part::kCommunication, Part::kEvidence, Part::kRules, Part::kScoreBands,
        Part::kBias, Part::kKpis, Part::kProfiles, Part::kRecent, Part::kQueue, Part::kAgreement}) {
    if (Has(p)) {
      kinds.Add(EventKind::kFeedback);
      kinds.Add(EventKind::kWork);
    }
  }
  if (Has(Part::kOutcomes)) kinds.Add(EventKind::kOutcome);
  if (Has(Part::kSignals)) {
    // A reward judges recorded work (found through its commit or task), and a successful
    // task's duration is a completion time.
    kinds.Add(EventKind::kReward);
    kinds.Add(EventKind::kWork);
    kinds.Add(EventKind::kOutcome);
    kinds.Add(EventKind::kAdmin);  // skipped ratings: the feedback response rate
  }
  if (Has(Part::kErrors)) kinds.Add(EventKind::kError);
  if (Has(Part::kLoops)) kinds.Add(EventKind::kLoop);
  if (Has(Part::kRules)) kinds.Add(EventKind::kAdmin);  // rule audits
  if (Has(Part::kQueue)) kinds.Add(EventKind::kAdmin);  // dismissals
  if (Has(Part::kProfiles)) {
    // The question bank (seed 001 tier 3): asks and answers, and what went wrong since.
    kinds.Add(EventKind::kAdmin);
    kinds.Add(EventKind::kReward);
    kinds.Add(EventKind::kOutcome);
  }
  // What people told agents in their sessions: theme evidence, and what the agent is reminded of.
  if (Has(Part::kEvidence) || Has(Part::kRules)) kinds.Add(EventKind::kPrompt);
  if (Has(Part::kCorrections)) {
    kinds.Add(EventKind::kCorrection);
    kinds.Add(EventKind::kAdmin);  // pattern audits
  }
  return kinds;
}

ReviewFields Parts::FieldsOfReviews() const {
  using F = ReviewField;
  ReviewFields fields;
  for (size_t i = 0; i < kPartCount; ++i) {
    const auto p = static_cast<Part>(i);
    if (!Has(p)) continue;
    switch (p) {
      case Part::kApproval:     // decision, reviewer, stage, server type
      case Part::kCalibration:  // decision, the work's confidence, _predictionDelta
        break;
      case Part::kGates:  // scores, weighted by confidence, fatigue and override
        fields |= {F::kScores, F::kFatigue};
        break;
      case Part::kSpeed:     // meta.timeToDecisionMs, blockers
      case Part::kAutonomy:  // meta.timeToDecisionMs
        fields |= {F::kMeta};
        break;
      case Part::kBias:
      case Part::kAgreement:  // decisions, reviewers, scores
        fields |= {F::kScores};
        break;
      case Part::kOutcomes:
      case Part::kErrors:
      case Part::kLoops:
      case Part::kCorrections:
      case Part::kSignals:
        break;           // no reviews
      case Part::kKpis:  // folded only beside kEvidence, which reads every field
      case Part::kPreferences:
      case Part::kCommunication:
      case Part::kEvidence:
      case Part::kRules:
      case Part::kScoreBands:
      case Part::kProfiles:
      case Part::kRecent:
      case Part::kQueue:
        return ReviewFields::All();
    }
  }
  return fields;
}

bool Parts::NeedsThemes() const {
  return Has(Part::kEvidence) || Has(Part::kRules) || Has(Part::kScoreBands) ||
         Has(Part::kProfiles) || Has(Part::kRecent);
}

std::string_view SectionName(Section s) { return kSectionNames[static_cast<size_t>(s)]; }

std::optional<Section> ParseSection(std::string_view name) {
  for (size_t i = 0; i < kSectionCount; ++i) {
    if (kSectionNames[i] == name) return static_cast<Section>(i);
  }
  return std::nullopt;
}

std::string SectionList() {
  std::string out;
  for (std::string_view name : kSectionNames) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

std::optional<Sections> Sections::Parse(std::string_view list, std::string* error) {
  Sections out;
  size_t start = 0;
  while (true) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::string_view name = list.substr(start, comma - start);
    std::optional<Section> s = ParseSection(name);
    if (!s) {
      *error = name.empty() ? fmt::format(
                                  "{:?} has an empty section name (give a comma-separated "
                                  "list of: {})",
                                  std::string(list), SectionList())
                            : fmt::format("{:?} is not a section of the analysis (known: {})",
                                          std::string(name), SectionList());
      return std::nullopt;
    }
    out.Add(*s);
    if (comma == list.size()) return out;
    start = comma + 1;
  }
}

Parts Sections::Needs() const {
  Parts parts;
  for (size_t i = 0; i < kSectionCount; ++i) {
    if (Has(static_cast<Section>(i))) parts |= PartsOf(static_cast<Section>(i));
  }
  return parts;
}

}  // namespace kaizen::learn
