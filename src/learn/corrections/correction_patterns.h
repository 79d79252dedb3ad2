// seed 004 pattern learning (MNEMIS) and enforcement (WARDEN): corrections folded in log order,
// grouped by their type and by what changed; a group that 3+ corrections share is a pattern with
// a confidence, the projects it applies to and the people who produced it. People approve or
// reject a pattern with `admin` rule_audit events; 5+ approvals promote it. FindViolations checks
// a text against the patterns that are confident (or promoted) enough.
//
// What changed, per correction (AnalyzeChange), the first that applies. Code (a code category,
// context.file with a code extension, or a text that reads as code; text/code_correction.h):
//   unsafe_type  an unsafe type marker removed (`: any`, `@ts-ignore`); key = the marker
//   rename       identifiers renamed consistently; the renames ("usr -> user") are kept
//   code         anything else; grouped by its type alone (error_handling, null_handling, ...)
// Prose:
//   opener  a passive opener ("Responsible for") removed from a line start; key = the opener
//   filler  filler or pleasantry sentences removed (text/filler.h); the listed phrases are kept
//   jargon  listed jargon words removed (and not kept elsewhere)
//   section a heading added; key = the heading
//   metric  numbers added and none removed (the vague words removed are kept)
//   length  trimmed to <= 80% of the words, or typed excessive_detail
//   phrase  anything else; the removed phrases (1-5 words) are kept
// The pattern id is "<correction_type>-<kind>[-<key slug>]", so the same log gives the same ids
// and an audit can name a pattern before it forms.
//
// A pattern whose examples disagree enforces nothing (issue 27: a wrong lesson is worse than
// none). Each pattern's detector (ViolationsOf) is run over the corrections it learned from (the
// first kMaxCheckedExamples of them): when it flags a corrected text (people wrote what it
// forbids) or misses an original (it does not explain why people changed it), the pattern is
// kInconsistent and `kaizen validate` does not check it. The kinds without a detector (rename,
// code, a phrase pattern without phrases) are advisory: shown with their rule, never enforced.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/state_fwd.h"
#include "model/inputs.h"

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
  kPhrase,
  kFiller,
  kUnsafeType,
  kRename,
  kCode,
};
std::string_view KindName(CorrectionPatternKind kind);
// Whether `kaizen validate` has a detector for the kind (not rename, not code).
bool HasDetector(CorrectionPatternKind kind);

// The corrections a pattern's detector is checked against (its first ones, in log order), and the
// longest text checked: a longer correction is not checked (a cut text could mislead the check).
inline constexpr size_t kMaxCheckedExamples = 16;
inline constexpr size_t kMaxCheckedExampleBytes = 4096;

enum class CorrectionPatternStatus : uint8_t {
  kCandidate,  // formed, below the enforcement confidence
  kActive,     // confidence >= enforce_min_confidence: enforced
  kPromoted,   // approved by promote_approvals+ people: enforced whatever its confidence
  kRejected,   // more people rejected it than approved it: never enforced
  // its detector flags a corrected text of its own examples, or misses an original: never
  // enforced, whatever its confidence or approvals (a wrong lesson is worse than none)
  kInconsistent,
};
std::string_view StatusName(CorrectionPatternStatus status);

// What one correction changed (pure; also the unit the learner folds).
struct CorrectionChange {
  CorrectionPatternKind kind = CorrectionPatternKind::kPhrase;
  std::string key;  // opener, heading or unsafe type marker; empty for the others
  // jargon / vague words / removed phrases / filler phrases (lowercase), unsafe type markers,
  // renames ("old -> new")
  std::vector<std::string> words;
  std::string verb;  // opener: first word of the corrected line that replaced it
  size_t original_words = 0, corrected_words = 0;
  size_t longest_corrected_line = 0;  // words in the corrected text's longest line
  // The reverse changes: they count against the patterns going the other way.
  std::vector<std::string> openers_added, headings_removed, unsafe_added;
  bool jargon_added = false, lengthened = false, numbers_only_removed = false, filler_added = false;
};
// `file` is the correction's context.file (empty when it has none).
CorrectionChange AnalyzeChange(std::string_view correction_type, std::string_view original,
                               std::string_view corrected, std::string_view file = {});
// The type a correction's pattern is grouped under: its correction_type, or, for a line stored
// before ingest proposed types (none, or "auto"), the one ClassifyCorrection proposes.
std::string_view CorrectionGroupType(const model::CorrectionView& correction);

struct CorrectionExample {
  std::string original, corrected, user, project;
  int64_t at_ms = 0;

  template <class Archive>
  void serialize(Archive& ar);
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
  // consistency * n / (n + count_half) * consensus (when known), n = occurrences (see
  // CorrectionPatternConfig): a change one person makes and others undo is no team lesson.
  double confidence = 0;
  std::vector<std::string> applicable_to;  // context.project values, sorted
  std::vector<std::string> users;          // user_id values, sorted
  int64_t first_ms = 0, last_ms = 0;
  // jargon: the jargon words removed; metric: the vague words removed; phrase: phrases removed
  // by min_instances+ corrections; filler: the listed filler phrases removed; unsafe_type: the
  // markers removed; rename: the renames. Most frequent first, then alphabetical.
  std::vector<WordCount> words;
  std::string verb;                         // opener: the action verb people used most
  double length_ratio = 1;                  // length: mean corrected / original words
  int64_t max_line_words = 0;               // length: the longest corrected line people kept
  std::vector<CorrectionExample> examples;  // the first max_examples, in log order
  // Audits (admin rule_audit with rule_id = id): each person's latest verdict counts once.
  std::vector<std::string> approved_by, rejected_by;  // sorted
  // seed 004 "Multi-User Pattern Aggregation": each person's stance, once. Their latest audit
  // when they gave one; else their corrections: more of this change than of the reverse
  // confirms it, more of the reverse rejects it (a tie, or no user_id, is no stance). Sorted.
  std::vector<std::string> users_confirmed, users_rejected;
  // seed 004: users_confirmed / (users_confirmed + users_rejected); nullopt without a stance.
  std::optional<double> consensus;
  CorrectionPatternStatus status = CorrectionPatternStatus::kCandidate;
  // The self-consistency check: how many of its corrections were checked, how many corrected
  // texts its detector flags (contradicted) and how many originals it misses (unexplained), and
  // why it is kInconsistent in words (empty when it is not). Not run for advisory kinds.
  bool enforceable = true;  // HasDetector(kind), and a phrase pattern has phrases
  int64_t examples_checked = 0, contradicted = 0, unexplained = 0;
  std::string inconsistency;

  // Whether `kaizen validate` checks it at this confidence threshold.
  bool Enforced(double min_confidence) const;
};

// A correction kept whole for the self-consistency check.
struct CheckedExample {
  std::string original, corrected;

  template <class Archive>
  void serialize(Archive& ar);
};

class CorrectionPatternLearner {
 public:
  explicit CorrectionPatternLearner(const CorrectionPatternConfig& config);

  // REQUIRES: log order.
  void Add(const model::CorrectionView& correction);
  // The same with its grouping type (CorrectionGroupType) and AnalyzeChange of it computed
  // beforehand (off the folding thread); `change` is consumed.
  void Add(const model::CorrectionView& correction, std::string_view type,
           CorrectionChange* change);
  // Only rule_audit events with a rule_id and a confirm/retire verdict count; the person is
  // `reviewerId`, else `user_id`, else "(anonymous)".
  void Add(const model::AdminView& admin);

  // Formed patterns (occurrences >= min_instances), by confidence (highest first), then id.
  std::vector<CorrectionPattern> Patterns() const;
  int64_t corrections() const { return corrections_; }
  const CorrectionPatternConfig& config() const { return config_; }

 private:
  struct Group {
    std::string type, key;
    CorrectionPatternKind kind = CorrectionPatternKind::kPhrase;
    int64_t n = 0, first_ms = 0, last_ms = 0;
    std::set<std::string> projects;
    std::map<std::string, int64_t> users;  // user_id -> corrections of the group
    std::map<std::string, int64_t> words, verbs;
    double ratio_sum = 0;
    int64_t max_line_words = 0;
    std::vector<CorrectionExample> examples;
    std::vector<CheckedExample> checked;  // the first kMaxCheckedExamples short enough
    template <class Archive>
    void serialize(Archive& ar);
  };

  CorrectionPattern Build(const std::string& id, const Group& g) const;
  // Fills users_confirmed, users_rejected and consensus.
  void Stances(const std::string& id, const Group& g, CorrectionPattern* p) const;
  static std::string ReverseKey(CorrectionPatternKind kind, std::string_view key);
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  CorrectionPatternConfig config_;
  int64_t corrections_ = 0;
  std::map<std::string, Group> groups_;
  // The reverse changes, over the whole log.
  std::map<std::string, int64_t> openers_added_, headings_removed_, unsafe_added_;
  int64_t jargon_added_ = 0, lengthened_ = 0, numbers_only_removed_ = 0, filler_added_ = 0;
  // The same by person: ReverseKey(kind, key) -> user_id -> corrections that made it.
  std::map<std::string, std::map<std::string, int64_t>> reverse_by_user_;
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
// column, then pattern id). Each kind with a detector: opener at a line start, jargon words,
// vague words on a line without numbers, lines longer than the longest the corrections kept,
// a learned section heading missing from a text that has headings, phrases removed 3+ times,
// filler of the families of the phrases people removed (text/filler.h; never an ordinary
// sentence), the unsafe type markers people removed. Code and prose are told apart: the prose
// kinds skip code (lines in ``` fences, or every line when `file` has a code extension), the code
// kinds (unsafe_type) check every line.
std::vector<PatternViolation> FindViolations(const std::vector<CorrectionPattern>& patterns,
                                             std::string_view text, double min_confidence,
                                             std::string_view file = {});
// The violations of `text` against one pattern, whatever its status (its detector alone), in
// detection order; empty for a kind without a detector. The text is read as prose with fences.
std::vector<PatternViolation> ViolationsOf(const CorrectionPattern& pattern, std::string_view text);

// `kaizen corrections --json`: one object; WriteJsonFields writes its keys into an object the
// caller opened (so a caller can add its own).
void WriteJson(base::JsonWriter& w, const CorrectionPattern& pattern);
void WriteJsonFields(base::JsonWriter& w, const CorrectionPattern& pattern);

}  // namespace kaizen::learn
