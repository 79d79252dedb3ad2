// Literal keywords of a theme taxonomy ("res.ok", "`any"), which the word scan cannot see, matched
// around their first word. Apart from the phrase index because they compare bytes of the text,
// under a budget that keeps any taxonomy linear in the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/tokenizer.h"
#include "text/word_table.h"

namespace kaizen::text {

// ---------------------------------------------------------------------------------------------
// Literal keywords: keywords with punctuation other than - _ / ' ("`any", "res.ok", "type:
// ignore", "o(n^2)"), which the word scan cannot see because it drops punctuation. Each is
// anchored on its first word (a run of word bytes, as the scan splits it); when the scan meets
// that word, the literal's bytes before and after the word are compared with the text around it.
// So a text costs nothing more than a failed table lookup per word unless it holds an anchor
// word, and nothing is allocated. A verification budget proportional to the text bounds the
// comparisons whatever the taxonomy (many literals on one anchor word, repeated in the text):
// once it is spent, literals are no longer checked in that text. The shipped taxonomy uses a
// small fraction of it on any text.

// A keyword with punctuation other than - _ / ' is matched as written.
bool IsLiteralKeyword(std::string_view keyword);

// Identifier bytes for the boundaries of a literal: word bytes and '_', so "res.ok" does not
// match inside "my_res.ok" or "res.okay".
inline bool IsIdentifierByte(unsigned char c) { return c == '_' || kByteKind[c] == kWordByte; }

inline bool IdentifierAt(const unsigned char* p, size_t i, size_t n) {
  return p[i] == '_' || IsWordAt(p, i, n);
}

// Whether the byte before p[i] ends an identifier: an ASCII letter, digit or '_', or a
// non-ASCII byte that does not end a typographic separator (LeadSeparatorLength).
inline bool IdentifierBefore(const unsigned char* p, size_t i) {
  const unsigned char c = p[i - 1];
  if (c < 0x80) return IsIdentifierByte(c);
  if (i >= 3 && p[i - 3] == 0xE2 && LeadSeparatorLength(p, i - 3, i) == 3) return false;
  if (i >= 2 && p[i - 2] == 0xC2 && LeadSeparatorLength(p, i - 2, i) == 2) return false;
  return true;
}

class LiteralIndex {
 public:
  // Comparisons allowed per byte of text, plus a fixed allowance for short texts.
  static constexpr size_t kBudgetPerByte = 16;
  static constexpr size_t kBudgetBase = 4096;

  LiteralIndex() = default;

  // `literals`: (keyword, target) with the keyword lowercased, trimmed, whitespace runs single
  // spaces, and holding a word (HasWord).
  explicit LiteralIndex(std::vector<std::pair<std::string, uint32_t>> literals);

  bool empty() const { return literals_.empty(); }

  // The targets below 64 that some literal reports.
  uint64_t all_targets() const { return all_targets_; }

  // Calls emit(target) for each literal anchored on the word `w` that the text holds around it,
  // except those whose target matched(target) says is already found. `budget`: comparisons left
  // for this text; nothing is checked once it is 0.
  template <typename Matched, typename Emit>
  void Match(const WordRef& w, Matched&& matched, Emit&& emit, size_t* budget) const {
    const uint32_t anchor = anchors_.Find(w);
    if (anchor == 0) [[likely]] {
      return;
    }
    for (uint32_t i = first_[anchor]; i < first_[anchor + 1] && *budget > 0; ++i) {
      const Literal& l = literals_[i];
      if (!matched(l.target) && Holds(l, w, budget)) emit(l.target);
    }
  }

 private:
  struct Literal {
    std::string text;
    size_t anchor_begin;  // the first word of `text`
    size_t anchor_len;
    uint32_t target;
  };

  // Takes `bytes` compared from the budget; false once it is spent. A whitespace run is charged
  // after it was skipped, so one skip may overrun the budget by at most the text's length.
  static bool Charge(size_t bytes, size_t* budget) {
    if (bytes > *budget) {
      *budget = 0;
      return false;
    }
    *budget -= bytes;
    return true;
  }

  // Whether the text holds `l` with its anchor word at `w` (equal to it: the table said so). A
  // space of the literal matches a run of whitespace; the literal may not begin or end inside an
  // identifier of the text. Every byte compared or skipped is charged to `budget`.
  static bool Holds(const Literal& l, const WordRef& w, size_t* budget) {
    const unsigned char* p = w.text;
    const size_t n = w.text_size;
    const auto* lit = Bytes(l.text);
    size_t end = w.begin + w.len;
    for (size_t k = l.anchor_begin + l.anchor_len; k < l.text.size(); ++k) {
      if (*budget == 0) return false;
      --*budget;
      if (lit[k] == ' ') {
        if (end >= n || !IsAsciiSpace(p[end])) return false;
        const size_t from = end;
        while (end < n && IsAsciiSpace(p[end])) ++end;
        if (!Charge(end - from, budget)) return false;
      } else {
        if (end >= n || kLower[p[end]] != lit[k]) return false;
        ++end;
      }
    }
    size_t begin = w.begin;
    for (size_t k = l.anchor_begin; k-- > 0;) {
      if (*budget == 0) return false;
      --*budget;
      if (lit[k] == ' ') {
        if (begin == 0 || !IsAsciiSpace(p[begin - 1])) return false;
        const size_t from = begin;
        while (begin > 0 && IsAsciiSpace(p[begin - 1])) --begin;
        if (!Charge(from - begin, budget)) return false;
      } else {
        if (begin == 0 || kLower[p[begin - 1]] != lit[k]) return false;
        --begin;
      }
    }
    if (IsIdentifierByte(lit[0]) && begin > 0 && IdentifierBefore(p, begin)) return false;
    if (IsIdentifierByte(lit[l.text.size() - 1]) && end < n && IdentifierAt(p, end, n)) {
      return false;
    }
    return true;
  }

  WordTable anchors_;
  std::vector<uint32_t> first_ = {0, 0};  // by anchor id: literals_[first_[id], first_[id + 1])
  std::vector<Literal> literals_;         // grouped by anchor id
  uint64_t all_targets_ = 0;
};

}  // namespace kaizen::text
