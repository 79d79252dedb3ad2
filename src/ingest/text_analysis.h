// Enrichment of a feedback event's freeText {liked, disliked, generalNotes} at ingest: the seed's
// `_extractedThemes`, `_sentiment` (-1..1) and `_actionableItems`. Runs on every event that has
// free text, so each function is a single tokenizing pass over the text with at most one table
// lookup per word and no allocation per word (no regex, no lowercase copy), linear in the input,
// and no input (invalid UTF-8, 64 KiB, empty) can crash or hang it.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kaizen/status.h"  // kaizen::Status, kaizen::Result<T>, kaizen::InvalidArgument(...)

namespace kaizen::ingest {

struct Theme {
  std::string name;                   // e.g. "error-handling"
  std::vector<std::string> keywords;  // lowercase words or phrases; a phrase matches on word
                                      // boundaries
};

namespace detail {

struct CompiledThemes;  // text_analysis.cc: the keywords as a word table and a phrase automaton

// The keyword index of a ThemeTaxonomy (see ThemeTaxonomy::compiled). Moving a taxonomy moves its
// index; a copy starts without one.
class CompiledThemesHandle {
 public:
  CompiledThemesHandle() = default;
  CompiledThemesHandle(const CompiledThemesHandle&) noexcept {}
  CompiledThemesHandle& operator=(const CompiledThemesHandle& other) noexcept {
    if (this != &other) {
      precompiled.reset();
      cache.reset();
    }
    return *this;
  }
  CompiledThemesHandle(CompiledThemesHandle&& other) noexcept
      : precompiled(std::move(other.precompiled)), cache(std::move(other.cache)) {}
  CompiledThemesHandle& operator=(CompiledThemesHandle&& other) noexcept {
    precompiled = std::move(other.precompiled);
    cache = std::move(other.cache);
    return *this;
  }
  ~CompiledThemesHandle() = default;

  std::shared_ptr<const CompiledThemes> precompiled;    // by Default() and FromJson(); immutable
  mutable std::mutex mutex;                             // guards `cache`
  mutable std::shared_ptr<const CompiledThemes> cache;  // compiled on first use otherwise
};

}  // namespace detail

struct ThemeTaxonomy {
  std::vector<Theme> themes;  // order is the output order

  // The shipped default: error-handling, input-validation, naming, tests-and-edge-cases,
  // documentation, rate-limiting, retries, security, performance, types, architecture,
  // readability, logging, concurrency. Each with 8-25 keywords/phrases drawn from how reviewers
  // write.
  static const ThemeTaxonomy& Default();

  // Parses a JSON document {"themes":[{"name":"...","keywords":["..."]}, ...]}. Errors name the
  // field path, the value and the rule, e.g. `themes[2].keywords[0]: "" must be a non-empty
  // string`. Names must be lowercase slugs ([a-z0-9][a-z0-9_-]*, at most 64 bytes) and unique;
  // keywords are stored ASCII-lowercased and trimmed.
  static Result<ThemeTaxonomy> FromJson(std::string_view json);

  // Implementation detail, not part of the interface: the keywords compiled into an index, so
  // ExtractThemes costs one lookup per word of text whatever the number of keywords. Default()
  // and FromJson() build it up front, and it serves as long as `themes` and its `keywords`
  // vectors keep the storage it was built from (moving the taxonomy keeps it). Any other
  // taxonomy (filled by hand, copied, or edited so that a vector is resized or reallocated) is
  // compiled on first use and kept here, checked against the keywords on every call, which is
  // exact but costs a comparison of all keywords per call and a mutex. Not detected: overwriting
  // keyword strings of a Default()/FromJson() taxonomy in place, leaving every vector as it was;
  // edit a copy instead.
  detail::CompiledThemesHandle compiled;
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
