// seed 004: what kind of correction a person made, proposed from the diff of original -> corrected
// when the event does not say (`correction_type` absent or "auto"). Pure and bounded: each side is
// cut to kMaxClassifiedBytes and kMaxDiffTokens before the diff, the diff (Hirschberg's LCS) needs
// memory linear in the token counts, and no input (invalid UTF-8, empty, 64 KiB) can crash or hang.
//
// The word lists (passive openers, jargon, formality markers, vague quantifiers) live here because
// the pattern learner (learn/correction_patterns) and `kaizen validate` detect the same things
// (correction_words.cc); so do the filler phrases (filler.h) and the code rules
// (code_correction.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kaizen::text {

inline constexpr size_t kMaxClassifiedBytes = 16 * 1024;
inline constexpr size_t kMaxDiffTokens = 1000;  // the diff is O(n * m) time: <= 1M cells

// A word or a number; punctuation, markdown and whitespace separate tokens and are not diffed.
struct Token {
  std::string_view text;
  uint32_t line = 0;            // 0-based line of the text the token is on
  bool number = false;          // starts with a digit (10, 40%, 2.5x, 10-person)
  bool capitalized = false;     // starts with an ASCII capital letter
  bool sentence_start = false;  // first token of a line or after . ! ?
};

// Tokens of `text` (at most kMaxDiffTokens, from its first kMaxClassifiedBytes).
std::vector<Token> Tokenize(std::string_view text);

// A run of changed tokens: original[orig_begin, orig_end) became corrected[corr_begin, corr_end).
struct DiffHunk {
  size_t orig_begin = 0, orig_end = 0, corr_begin = 0, corr_end = 0;
};

struct TokenDiff {
  std::vector<Token> original, corrected;
  std::vector<DiffHunk> hunks;  // in order; between them the tokens are equal
  size_t kept = 0;              // tokens common to both (the LCS length)
};

// The token-level diff (a longest common subsequence of tokens compared ignoring ASCII case),
// in memory linear in the token counts.
TokenDiff DiffTokens(std::string_view original, std::string_view corrected);

struct CorrectionClass {
  std::string_view type;             // a seed 004 taxonomy type
  double confidence = 0;             // 0..1, per rule (see the table in correction_classifier.cc)
  std::vector<std::string> reasons;  // what in the diff led to it, for people
};

// The proposed `correction_type` for original -> corrected. The same words: formatting /
// bullet_structure. Code (IsCodeCorrection, with `file` = context.file), or `any` narrowed to
// `unknown` anywhere: the code categories of code_correction.h. Prose: the first rule that matches
// wins, in this order: section_order, missing_section, passive_to_active, factual_error,
// tone_mismatch (filler or pleasantries removed, filler.h), metric_vague, jargon_overuse,
// tone_mismatch (register), excessive_detail, missing_detail; when none matches, a weak guess from
// the length change.
CorrectionClass ClassifyCorrection(std::string_view original, std::string_view corrected,
                                   std::string_view file = {});

// ---- the detectors shared with the pattern learner and `kaizen validate` ----------------------

// The passive opener `line` starts with (after a bullet marker and spaces), lowercase as listed
// ("responsible for", "in charge of", "tasked with", ...), or empty. Matched on word boundaries,
// case-insensitively; the longest listed opener wins.
std::string_view PassiveOpener(std::string_view line);
// The byte offset in `line` where PassiveOpener's match begins (after the bullet marker).
size_t OpenerOffset(std::string_view line);

// The listed jargon word `word` is (lowercase), or empty: "leverage", "synergy", "utilize", ...
std::string_view JargonWord(std::string_view word);
// A marker of formal or informal register ("hereby", "gonna", contractions), or empty.
std::string_view FormalityMarker(std::string_view word);
// A vague quantifier that a metric usually replaces ("significantly", "various"), or empty.
std::string_view VagueWord(std::string_view word);
// True for a word that reads as a past-tense action verb ("Led", "Built", "Reduced").
bool IsActionVerb(std::string_view word);

// A markdown heading line ("# Skills", "**Skills**"), normalized: lowercase words joined by
// spaces; empty when `line` is not a heading.
std::string HeadingOf(std::string_view line);

// The byte length of the list marker `s` starts with ("- ", "* ", "+ ", "• ", "12. ", "3) "),
// or 0.
size_t BulletMarkerLength(std::string_view s);

// The lines of `text`, without their '\n' (and '\r').
std::vector<std::string_view> SplitLines(std::string_view text);

}  // namespace kaizen::text
