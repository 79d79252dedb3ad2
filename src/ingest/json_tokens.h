// Where the tokens of a JSON text are, as simdjson's stage 1 found them while parsing it: the
// offset of every structural character ({ } [ ] : ,) and of the first byte of every string,
// number and literal, in order. The DOM keeps no positions in the text it was parsed from; with
// these, the stored line copies an event's fields as the client wrote them without another pass
// over the event (it was minified, then parsed again with simdjson On-Demand to find its members:
// docs/performance.md, 2026-11-24).
#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace kaizen::ingest {

// One member of an object, by token index: `key` is the key's string token, `value` the first
// token of its value, `end` the token just after the value (the ',' or '}' that follows it).
struct TokenMember {
  size_t key = 0;
  size_t value = 0;
  size_t end = 0;
};

class JsonTokens {
 public:
  // The tokens of the text `parser` parsed last, which was `text` (at the same offsets: the parser
  // may have parsed a padded copy of it). Not ok() when they do not fit `text`, which a parser
  // that failed, or parsed something else, would give.
  // The offsets are read from the parser's `implementation` (public members that simdjson marks
  // as for benchmarking; Debian's 3.0.1 is the version built against).
  static JsonTokens Of(const simdjson::dom::parser& parser, std::string_view text);
  // From offsets given directly (tests).
  JsonTokens(std::string_view text, std::span<const uint32_t> offsets);

  bool ok() const { return ok_; }
  std::string_view text() const { return text_; }
  size_t size() const { return offsets_.size(); }
  // The first byte of token i: the structural character itself, '"' for a string, or the first
  // byte of a number or literal.
  char First(size_t i) const { return text_[offsets_[i]]; }
  // The token just past the value whose first token is i.
  size_t SkipValue(size_t i) const;
  // The text of string token i between its quotes, escapes as written.
  std::string_view StringAt(size_t i) const;
  // Appends tokens [first, last) as they are written, without whitespace between them.
  void AppendMinified(size_t first, size_t last, std::string* out) const;
  // Calls f(const TokenMember&) for each member of the object whose '{' is token `open`, in order.
  // REQUIRES: ok(), and First(open) == '{'. Tokens that are not a whole object (not what simdjson
  // accepted) end the walk early, never read past the last token.
  template <typename F>
  void ForEachMember(size_t open, F&& f) const {
    size_t i = open + 1;
    if (i >= size() || First(i) == '}') return;
    while (i + 2 < size()) {
      TokenMember m;
      m.key = i;
      m.value = i + 2;  // past the key and ':'
      m.end = SkipValue(m.value);
      if (m.end >= size()) return;
      f(m);
      if (First(m.end) != ',') return;
      i = m.end + 1;
    }
  }

 private:
  JsonTokens() = default;
  // Where token i ends, without the whitespace after it.
  size_t TokenEnd(size_t i) const;

  std::string_view text_;
  std::span<const uint32_t> offsets_;
  bool ok_ = false;
  bool minified_ = false;  // no whitespace between any two tokens: spans are copied whole
};

}  // namespace kaizen::ingest
