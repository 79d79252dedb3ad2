// Enrichment of a feedback event's freeText {liked, disliked, generalNotes} at ingest: the seed's
// `_extractedThemes`, `_sentiment` (-1..1) and `_actionableItems`. Runs on every event that has
// free text, so each function is a single tokenizing pass over the text with at most one table
// lookup per word and no allocation per word (no regex, no lowercase copy), linear in the input,
// and no input (invalid UTF-8, 64 KiB, empty) can crash or hang it.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"  // kaizen::Status, kaizen::Result<T>, kaizen::InvalidArgument(...)

namespace kaizen::ingest {

struct Theme {
  std::string name;                   // e.g. "error-handling"
  std::vector<std::string> keywords;  // lowercase words or phrases; a phrase matches on word
                                      // boundaries
};

// A taxonomy of themes, immutable once built: the keywords are compiled into an index when it is
// made, so ExtractThemes costs one lookup per word of text whatever the number of keywords.
// Copies share that index (it is never modified, so no lock is needed); a moved-from taxonomy
// has no themes.
class ThemeTaxonomy {
 public:
  // The shipped default: error-handling, input-validation, naming, tests-and-edge-cases,
  // documentation, rate-limiting, retries, security, performance, types, architecture,
  // readability, logging, concurrency. Each with 8-25 keywords/phrases drawn from how reviewers
  // write.
  static const ThemeTaxonomy& Default();

  // Validates and compiles `themes` (their order is the output order). Errors name the field
  // path, the value and the rule, e.g. `themes[2].keywords[0]: "" must be a non-empty string`.
  // There must be 1-256 themes; names must be lowercase slugs ([a-z0-9][a-z0-9_-]*, at most 64
  // bytes) and unique; each theme needs 1-256 keywords, each containing a letter or digit and at
  // most 200 bytes once trimmed. Keywords are stored ASCII-lowercased and trimmed.
  static Result<ThemeTaxonomy> FromThemes(std::vector<Theme> themes);

  // Parses a JSON document {"themes":[{"name":"...","keywords":["..."]}, ...]} and passes the
  // themes to FromThemes. Errors are worded the same way, e.g.
  // `themes[0].keywords[1]: null must be a non-empty string`.
  static Result<ThemeTaxonomy> FromJson(std::string_view json);

  const std::vector<Theme>& themes() const { return themes_; }

 private:
  struct CompiledThemes;  // text_analysis.cc: the keywords as a word table and a phrase automaton

  ThemeTaxonomy() = default;

  friend std::vector<std::string> ExtractThemes(std::string_view text,
                                                const ThemeTaxonomy& taxonomy);

  std::vector<Theme> themes_;
  std::shared_ptr<const CompiledThemes> compiled_;
};

// Themes whose keywords occur in the text (case-insensitive, word-boundary match, ASCII lowercase
// folding). Words are runs of ASCII letters/digits and non-ASCII bytes; '-', '_', '/' and spaces
// all separate words, so "retry-logic", "retry_logic" and "retry logic" match the same keyword. A
// phrase does not match across a sentence or clause break (. ! ? ; : , newline). Each theme name at
// most once, in taxonomy order.
std::vector<std::string> ExtractThemes(std::string_view text, const ThemeTaxonomy& taxonomy);

// Lexicon sentiment in [-1, 1] (see the formula in the .cc file): a small built-in lexicon of
// positive and negative review words, negation within 3 words, intensifiers and downtoners.
// 0 for no sentiment words. Deterministic.
double Sentiment(std::string_view text);

// Actionable items: the sentences (split on . ! ? ; newline) that ask for a change, found by cues
// such as should, must, need to, needs, please, add, remove, use, avoid, consider, missing, wish,
// instead, make sure, don't. Returned trimmed (also of list bullets), in order, without duplicates
// (compared case- and whitespace-insensitively), each capped at 280 bytes on a UTF-8 boundary.
// . ! ? ; end a sentence only when followed by a non-word character or the end, so "foo.bar()",
// "1.5" and "node.js" stay whole.
std::vector<std::string> ActionableItems(std::string_view text);

}  // namespace kaizen::ingest
