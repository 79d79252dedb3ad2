// seed 004 pattern learning (MNEMIS) and enforcement (WARDEN): corrections folded in log order,
// grouped by their type and by what changed; a group that 3+ corrections share is a pattern with
// a confidence, the projects it applies to and the people who produced it. People approve or
// reject a pattern with `admin` rule_audit events; 5+ approvals promote it. FindViolations checks
// a text against the patterns that are confident (or promoted) enough.
//
// What changed, per correction (AnalyzeChange), the first that applies:
//   opener  a passive opener ("Responsible for") removed from a line start; key = the opener
//   jargon  listed jargon words removed (and not kept elsewhere)
//   section a heading added; key = the heading
//   metric  numbers added and none removed (the vague words removed are kept)
//   length  trimmed to <= 80% of the words, or typed excessive_detail
//   phrase  anything else; the removed phrases (1-5 words) are kept
// The pattern id is "<correction_type>-<kind>[-<key slug>]", so the same log gives the same ids
// and an audit can name a pattern before it forms.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "learn/config_field.h"
#include "learn/inputs.h"
#include "learn/json_out.h"

namespace kaizen::learn {

struct CorrectionPatternConfig {
  double min_instances = 3;             // seed 004: a pattern forms from "3+" corrections
  double count_half = 3.5;              // n / (n + count_half): 20 corrections -> 0.85 (seed 004)
  double promote_approvals = 5;         // seed 004 "Patterns with 5+ approvals auto-promoted"
  double enforce_min_confidence = 0.5;  // `kaizen validate` default: "high-confidence patterns"
  double max_examples = 3;              // examples kept per pattern

  ConfigFields Fields();
};

enum class CorrectionPatternKind : uint8_t {
  kOpener,
  kJargon,
  kSection,
  kMetric,
  kLength,
  kPhrase
};
std::string_view KindName(CorrectionPatternKind kind);

enum class CorrectionPatternStatus : uint8_t {
  kCandidate,  // formed, below the enforcement confidence
  kActive,     // confidence >= enforce_min_confidence: enforced
  kPromoted,   // approved by promote_approvals+ people: enforced whatever its confidence
  kRejected,   // more people rejected it than approved it: never enforced
};
std::string_view StatusName(CorrectionPatternStatus status);

// What one correction changed (pure; also the unit the learner folds).
struct CorrectionChange {
  CorrectionPatternKind kind = CorrectionPatternKind::kPhrase;
  std::string key;                 // opener or heading; empty for the other kinds
  std::vector<std::string> words;  // jargon / vague words / removed phrases, lowercase
  std::string verb;                // opener: first word of the corrected line that replaced it
  size_t original_words = 0, corrected_words = 0;
  size_t longest_corrected_line = 0;  // words in the corrected text's longest line
  // The reverse changes: they count against the patterns going the other way.
  std::vector<std::string> openers_added, headings_removed;
  bool jargon_added = false, lengthened = false, numbers_only_removed = false;
};
CorrectionChange AnalyzeChange(std::string_view correction_type, std::string_view original,
                               std::string_view corrected);
// The type a correction's pattern is grouped under: its correction_type, or, for a line stored
// before ingest proposed types (none, or "auto"), the one ClassifyCorrection proposes.
std::string_view CorrectionGroupType(const CorrectionView& correction);

struct CorrectionExample {
  std::string original, corrected, user, project;
  int64_t at_ms = 0;
};

struct WordCount {
  std::string word;
  int64_t count = 0;
};

struct CorrectionPattern {
  std::string id;
  std::string correction_type;
  CorrectionPatternKind kind = CorrectionPatternKind::kPhrase;
  std::string key;
  int64_t occurrences = 0;  // corrections that made this change
  int64_t against = 0;      // corrections that made the reverse change
  // occurrences / (occurrences + against): how consistently people correct this way.
  double consistency = 1;
  // consistency * n / (n + count_half), n = occurrences (see CorrectionPatternConfig).
  double confidence = 0;
  std::vector<std::string> applicable_to;  // context.project values, sorted
  std::vector<std::string> users;          // user_id values, sorted
  int64_t first_ms = 0, last_ms = 0;
  // jargon: the jargon words removed; metric: the vague words removed; phrase: phrases removed
  // by min_instances+ corrections. Most frequent first, then alphabetical.
  std::vector<WordCount> words;
  std::string verb;                         // opener: the action verb people used most
  double length_ratio = 1;                  // length: mean corrected / original words
  int64_t max_line_words = 0;               // length: the longest corrected line people kept
  std::vector<CorrectionExample> examples;  // the first max_examples, in log order
  // Audits (admin rule_audit with rule_id = id): each person's latest verdict counts once.
  std::vector<std::string> approved_by, rejected_by;  // sorted
  // seed 004: users_confirmed / (users_confirmed + users_rejected); nullopt without verdicts.
  std::optional<double> consensus;
  CorrectionPatternStatus status = CorrectionPatternStatus::kCandidate;

  // Whether `kaizen validate` checks it at this confidence threshold.
  bool Enforced(double min_confidence) const;
};

class CorrectionPatternLearner {
 public:
  explicit CorrectionPatternLearner(const CorrectionPatternConfig& config);

  // REQUIRES: log order.
  void Add(const CorrectionView& correction);
  // The same with its grouping type (CorrectionGroupType) and AnalyzeChange of it computed
  // beforehand (off the folding thread); `change` is consumed.
  void Add(const CorrectionView& correction, std::string_view type, CorrectionChange* change);
  // Only rule_audit events with a rule_id and a confirm/retire verdict count; the person is
  // `reviewerId`, else `user_id`, else "(anonymous)".
  void Add(const AdminView& admin);

  // Formed patterns (occurrences >= min_instances), by confidence (highest first), then id.
  std::vector<CorrectionPattern> Patterns() const;
  int64_t corrections() const { return corrections_; }
  const CorrectionPatternConfig& config() const { return config_; }

 private:
  struct Group {
    std::string type, key;
    CorrectionPatternKind kind = CorrectionPatternKind::kPhrase;
    int64_t n = 0, first_ms = 0, last_ms = 0;
    std::set<std::string> projects, users;
    std::map<std::string, int64_t> words, verbs;
    double ratio_sum = 0;
    int64_t max_line_words = 0;
    std::vector<CorrectionExample> examples;
  };

  CorrectionPattern Build(const std::string& id, const Group& g) const;

  CorrectionPatternConfig config_;
  int64_t corrections_ = 0;
  std::map<std::string, Group> groups_;
  // The reverse changes, over the whole log.
  std::map<std::string, int64_t> openers_added_, headings_removed_;
  int64_t jargon_added_ = 0, lengthened_ = 0, numbers_only_removed_ = 0;
  // rule_id -> person -> confirmed (latest verdict).
  std::map<std::string, std::map<std::string, bool>> audits_;
};

// One place in a text that goes against an enforced pattern.
struct PatternViolation {
  size_t line = 0, column = 0;  // 1-based; column in bytes
  std::string pattern_id;
  std::string what;  // e.g. "passive opener 'Responsible for'"
};

// The violations of `text` against the patterns Enforced(min_confidence), in text order (line,
// column, then pattern id). Each kind has a detector: opener at a line start, jargon words,
// vague words on a line without numbers, lines longer than the longest the corrections kept,
// a learned section heading missing from a text that has headings, phrases removed 3+ times.
std::vector<PatternViolation> FindViolations(const std::vector<CorrectionPattern>& patterns,
                                             std::string_view text, double min_confidence);

// `kaizen corrections --json`: one object; WriteJsonFields writes its keys into an object the
// caller opened (so a caller can add its own).
void WriteJson(JsonWriter& w, const CorrectionPattern& pattern);
void WriteJsonFields(JsonWriter& w, const CorrectionPattern& pattern);

}  // namespace kaizen::learn
