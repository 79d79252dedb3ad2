#include "text/text_analysis.h"

#include <simdjson.h>

#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/utf8.h"
#include "text/ascii_case.h"
#include "text/theme_keywords.h"

// The tokenizer classifies 64 bytes at a time with SSE2 (baseline on x86-64); elsewhere, or with
// KAIZEN_TEXT_ANALYSIS_PORTABLE defined, it walks the bytes one by one. Both give the same tokens
// and hashes.
#if defined(__SSE2__) && !defined(KAIZEN_TEXT_ANALYSIS_PORTABLE)
#include <emmintrin.h>
#define KAIZEN_TEXT_ANALYSIS_SSE2 1
#else
#define KAIZEN_TEXT_ANALYSIS_SSE2 0
#endif

namespace kaizen::text {
namespace {

// ---------------------------------------------------------------------------------------------
// Tokenizing. Every function below sees text as a sequence of lowercase words with "break"
// markers where a sentence or clause ends, so that phrases and negation do not reach across
// "Looks good. Not sure about retries". The text is scanned once, in place: a word is reported as
// its byte range and looked up by its ASCII-lowercased bytes without being copied, so nothing is
// allocated per word.

bool IsAsciiSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// What a byte is on its own. kLead bytes (0xC2, 0xE2) start the typographic separators below and
// need a look at the following bytes; every other non-ASCII byte is a word byte.
enum ByteKind : uint8_t {
  kWordByte,   // ASCII letter or digit, or non-ASCII
  kSeparator,  // any other ASCII byte
  kLineBreak,  // \n \r: always a break and a sentence end
  kStop,       // . ! ? ;  a break and a sentence end before a non-word byte or the end
  kPause,      // : ,      a break (but no sentence end) before a non-word byte or the end
  kLead,       // 0xC2, 0xE2
};

constexpr std::array<uint8_t, 256> kByteKind = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    uint8_t k = kSeparator;
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80) {
      k = kWordByte;
    }
    if (c == 0xC2 || c == 0xE2) k = kLead;
    if (c == '\n' || c == '\r') k = kLineBreak;
    if (c == '.' || c == '!' || c == '?' || c == ';') k = kStop;
    if (c == ':' || c == ',') k = kPause;
    t[c] = k;
  }
  return t;
}();

constexpr std::array<unsigned char, 256> kLower = [] {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) {
    t[c] = static_cast<unsigned char>((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
  }
  return t;
}();

// Non-ASCII bytes count as word bytes so "café" stays one word and invalid UTF-8 needs no special
// case; the exceptions are the common typographic separators reviewers paste from editors
// (curly quotes, dashes, bullets, ellipsis in U+2000..U+203F; no-break space; guillemets), which
// would otherwise glue `“tests”` into one word. Returns 0 when the lead byte p[i] is a word byte,
// else the length of the separator it starts.
size_t LeadSeparatorLength(const unsigned char* p, size_t i, size_t n) {
  if (p[i] == 0xE2) {
    return (i + 2 < n && p[i + 1] == 0x80 && (p[i + 2] & 0xC0) == 0x80) ? 3 : 0;
  }
  return (i + 1 < n && (p[i + 1] == 0xA0 || p[i + 1] == 0xAB || p[i + 1] == 0xBB)) ? 2 : 0;
}

bool IsWordAt(const unsigned char* p, size_t i, size_t n) {
  const uint8_t k = kByteKind[p[i]];
  return k == kWordByte || (k == kLead && LeadSeparatorLength(p, i, n) == 0);
}

// A terminator only ends a sentence before a non-word byte or the end, which keeps "foo.bar()",
// "1.5" and "node.js" whole.
bool EndsSentenceAt(const unsigned char* p, size_t i, size_t n) {
  return i + 1 >= n || !IsWordAt(p, i + 1, n);
}

const unsigned char* Bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

// A word of a text: text[begin, begin + len), len >= 1.
struct WordRef {
  const unsigned char* text;
  size_t text_size;
  size_t begin;
  size_t len;
};

// ---------------------------------------------------------------------------------------------
// Word hash over the ASCII-lowercased bytes, taken 16 at a time as two little-endian 64-bit lanes
// (zero-padded), so the SSE2 path and the portable path compute the same value. Words never
// contain NUL bytes (NUL separates words), so the lanes of a word of up to 16 bytes identify it.

constexpr uint64_t kHashSeed = 0x243F6A8885A308D3ull;

inline uint64_t MixLanes(uint64_t h, uint64_t lo, uint64_t hi) {
  h ^= lo * 0x9E3779B97F4A7C15ull;
  h = ((h << 31) | (h >> 33)) ^ (hi * 0xC2B2AE3D27D4EB4Full);
  return h * 0x165667B19E3779F9ull;
}

inline uint64_t FinishHash(uint64_t h, size_t len) {
  h ^= len;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return h;
}

// The lanes of p[0, r), r <= 16, lowercased.
inline void LoadLanesPortable(const unsigned char* p, size_t r, uint64_t* lo, uint64_t* hi) {
  uint64_t a = 0;
  uint64_t b = 0;
  for (size_t k = 0; k < r && k < 8; ++k) a |= uint64_t{kLower[p[k]]} << (8 * k);
  for (size_t k = 8; k < r; ++k) b |= uint64_t{kLower[p[k]]} << (8 * (k - 8));
  *lo = a;
  *hi = b;
}

#if KAIZEN_TEXT_ANALYSIS_SSE2
alignas(16) constexpr unsigned char kPrefixMask[32] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
};

// Same as LoadLanesPortable; needs 16 readable bytes at p.
inline void LoadLanesSse2(const unsigned char* p, size_t r, uint64_t* lo, uint64_t* hi) {
  __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i upper = _mm_cmpgt_epi8(  // v in ['A', 'Z'], as in ClassifyBlock
      _mm_set1_epi8(-128 + 26), _mm_add_epi8(v, _mm_set1_epi8(static_cast<char>(128 - 'A'))));
  v = _mm_or_si128(v, _mm_and_si128(upper, _mm_set1_epi8(0x20)));
  v = _mm_and_si128(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kPrefixMask + 16 - r)));
  *lo = static_cast<uint64_t>(_mm_cvtsi128_si64(v));
  *hi = static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)));
}
#endif

// The lanes of text[at, at + r), r <= 16, of a text of n bytes.
inline void LoadLanes(const unsigned char* text, size_t at, size_t r, size_t n, uint64_t* lo,
                      uint64_t* hi) {
#if KAIZEN_TEXT_ANALYSIS_SSE2
  if (at + 16 <= n) return LoadLanesSse2(text + at, r, lo, hi);
#else
  (void)n;
#endif
  LoadLanesPortable(text + at, r, lo, hi);
}

// The hash of a word of up to 16 bytes from its lanes: two independent multiplies, so it is
// cheap on the critical path of a lookup; the folds bring the bits that depend on every byte of a
// lane into both halves.
inline uint64_t HashShortWord(uint64_t lo, uint64_t hi, size_t len) {
  const uint64_t a = (lo ^ kHashSeed) * 0x9E3779B97F4A7C15ull;
  const uint64_t b = (hi ^ len) * 0xC2B2AE3D27D4EB4Full;
  const uint64_t h = a ^ ((b << 32) | (b >> 32));
  return h ^ (h >> 32);
}

uint64_t HashWord(const WordRef& w) {
  if (w.len <= 16) {
    uint64_t lo;
    uint64_t hi;
    LoadLanes(w.text, w.begin, w.len, w.text_size, &lo, &hi);
    return HashShortWord(lo, hi, w.len);
  }
  uint64_t h = kHashSeed;
  for (size_t o = 0; o < w.len; o += 16) {
    uint64_t lo;
    uint64_t hi;
    LoadLanes(w.text, w.begin + o, std::min<size_t>(16, w.len - o), w.text_size, &lo, &hi);
    h = MixLanes(h, lo, hi);
  }
  return FinishHash(h, w.len);
}

WordRef WholeWord(std::string_view s) { return {Bytes(s), s.size(), 0, s.size()}; }

// ---------------------------------------------------------------------------------------------
// The scan. Calls on_word(const WordRef& word, bool break_before) for each word, in order, where
// break_before says whether a break lies between the previous word and this one (a false return
// stops the scan). With kSentenceEnds it also calls on_sentence_end(position) for each break byte
// that ends a sentence (. ! ? ; before a non-word byte, \n, \r), in order with the words.

template <bool kSentenceEnds, typename OnWord, typename OnSentenceEnd>
void ScanWordsPortable(std::string_view text, OnWord&& on_word, OnSentenceEnd&& on_sentence_end) {
  const unsigned char* p = Bytes(text);
  const size_t n = text.size();
  bool break_before = false;
  size_t i = 0;
  while (i < n) {
    const uint8_t k = kByteKind[p[i]];
    if (k == kWordByte || (k == kLead && LeadSeparatorLength(p, i, n) == 0)) {
      const size_t begin = i;
      while (++i < n && IsWordAt(p, i, n)) {
      }
      if (!on_word(WordRef{p, n, begin, i - begin}, break_before)) return;
      break_before = false;
      continue;
    }
    switch (k) {
      case kLineBreak:
        break_before = true;
        if constexpr (kSentenceEnds) on_sentence_end(i);
        ++i;
        break;
      case kStop:
        if (EndsSentenceAt(p, i, n)) {
          break_before = true;
          if constexpr (kSentenceEnds) on_sentence_end(i);
        }
        ++i;
        break;
      case kPause:
        if (EndsSentenceAt(p, i, n)) break_before = true;
        ++i;
        break;
      case kLead: {
        const size_t len = LeadSeparatorLength(p, i, n);  // non-zero: words were handled above
        if (len == 3 && p[i + 2] == 0xA6) break_before = true;  // U+2026 ellipsis
        i += len;
        break;
      }
      default:
        ++i;
        break;
    }
  }
}

#if KAIZEN_TEXT_ANALYSIS_SSE2
// Bit j of each mask describes byte j of a 64-byte block.
struct BlockClass {
  uint64_t word;        // word byte on its own: ASCII letter or digit, or non-ASCII
  uint64_t lead;        // 0xC2 or 0xE2
  uint64_t line_break;  // \n \r
  uint64_t stop;        // . ! ? ;
  uint64_t pause;       // : ,
};

inline uint64_t Movemask(__m128i v) { return static_cast<uint16_t>(_mm_movemask_epi8(v)); }

inline __m128i Eq(__m128i v, char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); }

inline BlockClass ClassifyBlock(const unsigned char* b) {
  BlockClass c{0, 0, 0, 0, 0};
  for (int q = 0; q < 4; ++q) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 16 * q));
    // c in [lo, lo + n) as one signed compare: c + (128 - lo) wraps to [-128, -128 + n).
    const __m128i digit = _mm_cmpgt_epi8(
        _mm_set1_epi8(-128 + 10), _mm_add_epi8(v, _mm_set1_epi8(static_cast<char>(128 - '0'))));
    const __m128i letter = _mm_cmpgt_epi8(
        _mm_set1_epi8(-128 + 26), _mm_add_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)),
                                               _mm_set1_epi8(static_cast<char>(128 - 'a'))));
    const __m128i word = _mm_or_si128(_mm_or_si128(digit, letter), v);  // v: sign = non-ASCII
    const __m128i lead =
        _mm_or_si128(Eq(v, static_cast<char>(0xC2)), Eq(v, static_cast<char>(0xE2)));
    const __m128i line_break = _mm_or_si128(Eq(v, '\n'), Eq(v, '\r'));
    const __m128i stop =
        _mm_or_si128(_mm_or_si128(Eq(v, '.'), Eq(v, '!')), _mm_or_si128(Eq(v, '?'), Eq(v, ';')));
    const __m128i pause = _mm_or_si128(Eq(v, ':'), Eq(v, ','));
    c.word |= Movemask(word) << (16 * q);
    c.lead |= Movemask(lead) << (16 * q);
    c.line_break |= Movemask(line_break) << (16 * q);
    c.stop |= Movemask(stop) << (16 * q);
    c.pause |= Movemask(pause) << (16 * q);
  }
  return c;
}

// ScanWordsPortable, 64 bytes at a time: classify the block with SSE2, fix up the rare typographic
// separators, derive the breaks from the masks, then pair up word starts and ends. Branches
// depend on the text once per block or sentence rather than per byte or word, and the block's
// tokens are collected first so the callbacks have a single call site each (and get inlined).
template <bool kSentenceEnds, typename OnWord, typename OnSentenceEnd>
void ScanWordsSse2(std::string_view text, OnWord&& on_word, OnSentenceEnd&& on_sentence_end) {
  const unsigned char* p = Bytes(text);
  const size_t n = text.size();
  struct Token {
    size_t begin;
    size_t len;  // 0: a sentence end at `begin`
    bool break_before;
  };
  Token tokens[32 + 1 + 64];  // a block's words (at most 32, plus one carried in) and sentence ends
  alignas(16) unsigned char tail[64];
  uint64_t carried_clear = 0;  // word bits cleared by a separator begun in the previous block
  uint64_t prev_word = 0;      // 1 when the byte before the block is a word byte
  size_t open_begin = 0;       // the word open at the end of the previous block
  bool open_break_before = false;
  bool break_pending = false;  // a break after the last word start seen
  for (size_t base = 0; base < n; base += 64) {
    const unsigned char* b = p + base;
    if (n - base < 64) {  // the last partial block, padded with NULs (non-word, non-break)
      std::memset(tail, 0, sizeof(tail));
      std::memcpy(tail, b, n - base);
      b = tail;
    }
    const BlockClass c = ClassifyBlock(b);
    uint64_t word = c.word & ~carried_clear;
    carried_clear = 0;
    uint64_t breaks = c.line_break;
    for (uint64_t lead = c.lead; lead != 0; lead &= lead - 1) {
      const int j = std::countr_zero(lead);
      const size_t len = LeadSeparatorLength(p, base + j, n);
      if (len == 0) continue;
      const uint64_t bits = (uint64_t{1} << len) - 1;
      word &= ~(bits << j);
      if (j + len > 64) carried_clear |= bits >> (64 - j);
      if (len == 3 && p[base + j + 2] == 0xA6) breaks |= uint64_t{1} << j;  // U+2026 ellipsis
    }
    // Punctuation breaks only before a non-word byte or the end.
    uint64_t next_is_word = word >> 1;
    if (((c.stop | c.pause) >> 63) != 0 && !EndsSentenceAt(p, base + 63, n)) {
      next_is_word |= uint64_t{1} << 63;
    }
    breaks |= (c.stop | c.pause) & ~next_is_word;
    uint64_t sentence_ends = c.line_break | (c.stop & ~next_is_word);

    size_t count = 0;
    const uint64_t shifted = (word << 1) | prev_word;
    uint64_t starts = word & ~shifted;
    uint64_t ends = ~word & shifted;    // the byte after a word's last byte
    if (prev_word != 0 && ends != 0) {  // the word carried in ends here
      const size_t end = base + std::countr_zero(ends);
      ends &= ends - 1;
      tokens[count++] = {open_begin, end - open_begin, open_break_before};
    }
    prev_word = word >> 63;
    while (starts != 0) {
      const int j = std::countr_zero(starts);
      starts &= starts - 1;
      const uint64_t before = (uint64_t{1} << j) - 1;
      const bool break_before = break_pending || (breaks & before) != 0;
      breaks &= ~before;
      break_pending = false;
      if constexpr (kSentenceEnds) {
        for (uint64_t here = sentence_ends & before; here != 0; here &= here - 1) {
          tokens[count++] = {base + std::countr_zero(here), 0, false};
        }
        sentence_ends &= ~before;
      }
      if (ends == 0) {  // open at the end of the block
        open_begin = base + j;
        open_break_before = break_before;
        break;
      }
      const int k = std::countr_zero(ends);
      ends &= ends - 1;
      tokens[count++] = {base + j, static_cast<size_t>(k - j), break_before};
    }
    break_pending = break_pending || breaks != 0;
    if constexpr (kSentenceEnds) {
      for (; sentence_ends != 0; sentence_ends &= sentence_ends - 1) {
        tokens[count++] = {base + std::countr_zero(sentence_ends), 0, false};
      }
    }
    if (prev_word != 0 && base + 64 >= n) {  // a word open at the end of the text
      tokens[count++] = {open_begin, n - open_begin, open_break_before};
    }

    for (size_t t = 0; t < count; ++t) {
      if constexpr (kSentenceEnds) {
        if (tokens[t].len == 0) {
          on_sentence_end(tokens[t].begin);
          continue;
        }
      }
      if (!on_word(WordRef{p, n, tokens[t].begin, tokens[t].len}, tokens[t].break_before)) {
        return;
      }
    }
  }
}
#endif

template <bool kSentenceEnds = false, typename OnWord, typename OnSentenceEnd>
void ScanWords(std::string_view text, OnWord&& on_word, OnSentenceEnd&& on_sentence_end) {
#if KAIZEN_TEXT_ANALYSIS_SSE2
  ScanWordsSse2<kSentenceEnds>(text, on_word, on_sentence_end);
#else
  ScanWordsPortable<kSentenceEnds>(text, on_word, on_sentence_end);
#endif
}

template <typename OnWord>
void ScanWords(std::string_view text, OnWord&& on_word) {
  ScanWords<false>(text, on_word, [](size_t) {});
}

// The lowercase words of a keyword or cue, breaks dropped: "Retry-Logic" is {"retry", "logic"}.
std::vector<std::string> SplitWords(std::string_view phrase) {
  std::vector<std::string> words;
  ScanWords(phrase, [&](const WordRef& w, bool) {
    words.push_back(ToLowerAscii(phrase.substr(w.begin, w.len)));
    return true;
  });
  return words;
}

bool HasWord(std::string_view s) {
  bool found = false;
  ScanWords(s, [&](const WordRef&, bool) {
    found = true;
    return false;
  });
  return found;
}

// ---------------------------------------------------------------------------------------------
// Word table: lowercase words -> ids 1..n (0: not a word of the table). A filter on (length,
// first byte, last byte) turns most words of a text away in a few instructions; the rest are
// hashed and looked up with cuckoo hashing, which reads two slots and two entries and decides
// without further branches (a branch on the outcome would be mispredicted on every hit).

class WordTable {
 public:
  WordTable() = default;
  explicit WordTable(const std::vector<std::string>& words) {
    std::vector<uint64_t> hashes(1, 0);
    for (const std::string& word : words) {
      Entry e{0, 0, static_cast<uint32_t>(word.size()), static_cast<uint32_t>(arena_.size())};
      if (word.size() <= 16) LoadLanesPortable(Bytes(word), word.size(), &e.lo, &e.hi);
      entries_.push_back(e);
      arena_ += word;
      const size_t bit = FilterBit(word.size(), Bytes(word)[0], Bytes(word)[word.size() - 1]);
      filter_[bit / 64] |= uint64_t{1} << (bit % 64);
      hashes.push_back(HashWord(WholeWord(word)));
    }
    // At most 1/4 full: cuckoo insertion then practically never fails; what does fails goes to
    // the stash, which lookups scan only when it is not empty.
    size_t capacity = 16;
    while (capacity < 4 * words.size()) capacity *= 2;
    slots_.assign(capacity, 0);
    mask_ = capacity - 1;
    for (uint32_t id = 1; id < entries_.size(); ++id) {
      uint32_t item = id;
      size_t at = hashes[item] & mask_;
      for (int kicks = 0; item != 0 && kicks < 64; ++kicks) {
        if (slots_[at] != 0) {
          const size_t other = (hashes[item] >> 32) & mask_;
          if (slots_[other] == 0) at = other;
        }
        std::swap(item, slots_[at]);
        if (item != 0) {  // evicted: to its other slot
          const size_t first = hashes[item] & mask_;
          at = at == first ? (hashes[item] >> 32) & mask_ : first;
        }
      }
      if (item != 0) stash_.push_back(item);
    }
  }

  // The id of the word (compared ASCII-case-insensitively), or 0.
  uint32_t Find(const WordRef& w) const {
    const size_t bit = FilterBit(w.len, w.text[w.begin], w.text[w.begin + w.len - 1]);
    if (((filter_[bit / 64] >> (bit % 64)) & 1) == 0) return 0;
    if (w.len > 16) return FindLong(w);
    uint64_t lo;
    uint64_t hi;
    LoadLanes(w.text, w.begin, w.len, w.text_size, &lo, &hi);
    const uint64_t h = HashShortWord(lo, hi, w.len);
    const uint32_t a = slots_[h & mask_];
    const uint32_t b = slots_[(h >> 32) & mask_];
    const Entry& ea = entries_[a];
    const Entry& eb = entries_[b];
    // Lanes identify a word of up to 16 bytes (no NULs); a longer entry has zero lanes.
    const bool in_a = (ea.lo == lo) & (ea.hi == hi);
    const bool in_b = (eb.lo == lo) & (eb.hi == hi);
    uint32_t id = in_a ? a : 0;
    id = in_b ? b : id;
    if (!stash_.empty()) [[unlikely]] {
      for (uint32_t s : stash_) {
        const Entry& e = entries_[s];
        if (e.lo == lo && e.hi == hi) id = s;
      }
    }
    return id;
  }

 private:
  struct Entry {
    uint64_t lo;  // lanes, for words of up to 16 bytes
    uint64_t hi;
    uint32_t len;
    uint32_t offset;  // in arena_
  };

  bool LongEquals(uint32_t id, const WordRef& w) const {
    const Entry& e = entries_[id];
    return e.len == w.len &&
           std::equal(w.text + w.begin, w.text + w.begin + w.len, arena_.data() + e.offset,
                      [](unsigned char a, char b) { return static_cast<char>(kLower[a]) == b; });
  }

  [[gnu::noinline]] uint32_t FindLong(const WordRef& w) const {
    const uint64_t h = HashWord(w);
    for (const uint32_t id : {slots_[h & mask_], slots_[(h >> 32) & mask_]}) {
      if (id != 0 && LongEquals(id, w)) return id;
    }
    for (const uint32_t id : stash_) {
      if (LongEquals(id, w)) return id;
    }
    return 0;
  }

  // The filter: one bit per (length, first byte, last byte) of the table's words, lengths from 31
  // on together, bytes by their low 5 bits (the same for both cases of a letter).
  static constexpr size_t kFilterWords = 32 * 32 * 32 / 64;
  static size_t FilterBit(size_t len, unsigned char first, unsigned char last) {
    return (std::min<size_t>(len, 31) << 10) | ((first & 31u) << 5) | (last & 31u);
  }
  std::array<uint64_t, kFilterWords> filter_{};

  std::vector<uint32_t> slots_ = {0};  // ids; 0: empty
  size_t mask_ = 0;
  std::vector<Entry> entries_ = {Entry{0, 0, 0, 0}};  // by id; id 0 matches no word (len 0)
  std::vector<uint32_t> stash_;
  std::string arena_;
};

// ---------------------------------------------------------------------------------------------
// Phrase index: the phrases (keywords or cues) as word-id paths in a trie with Aho-Corasick
// failure links, so matching a text is one state transition per word whatever the number of
// phrases; from the root (where the scan is most of the time) a transition is an array read. A
// phrase matches on consecutive words of the text with no break between them, exactly like
// scanning the token list for it. Targets (theme indices) of up to 64 are reported as a bit mask
// per state; with more, as lists.

class PhraseIndex {
 public:
  class Builder {
   public:
    // Adds a phrase (its words, non-empty) reporting `target` when matched.
    void Add(const std::vector<std::string>& words, uint32_t target) {
      uint32_t node = 0;
      for (const std::string& word : words) {
        const uint64_t key = EdgeKey(node, Intern(word));
        const auto [it, inserted] = edges_.emplace(key, static_cast<uint32_t>(outputs_.size()));
        if (inserted) outputs_.emplace_back();
        node = it->second;
      }
      auto& out = outputs_[node];
      if (std::find(out.begin(), out.end(), target) == out.end()) out.push_back(target);
      target_count_ = std::max<size_t>(target_count_, target + 1);
    }

    PhraseIndex Build() && {
      PhraseIndex index;
      const size_t node_count = outputs_.size();
      index.words_ = WordTable(words_);
      index.root_next_.assign(words_.size() + 1, 0);
      std::vector<std::vector<std::pair<uint32_t, uint32_t>>> children(node_count);  // (wid, node)
      for (const auto& [key, child] : edges_) {
        const auto parent = static_cast<uint32_t>(key >> 32);
        const auto wid = static_cast<uint32_t>(key);
        if (parent == 0) index.root_next_[wid] = child;
        children[parent].emplace_back(wid, child);
      }
      index.edges_ = EdgeTable(edges_);
      // Failure links in breadth-first order: fail(v) is the longest proper suffix of v's path
      // that is also a path of the trie.
      index.fail_.assign(node_count, 0);
      index.masks_ = target_count_ <= 64;
      if (index.masks_) index.out_mask_.assign(node_count, 0);
      index.out_link_.assign(node_count, 0);
      std::vector<uint32_t> queue = {0};
      for (size_t q = 0; q < queue.size(); ++q) {
        const uint32_t u = queue[q];
        for (const auto& [wid, v] : children[u]) {
          uint32_t f = 0;
          if (u != 0) {
            for (uint32_t g = index.fail_[u];; g = index.fail_[g]) {
              if (const uint32_t c = index.Goto(g, wid); c != 0) {
                f = c;
                break;
              }
              if (g == 0) break;
            }
          }
          index.fail_[v] = f;
          // The nearest state on the failure chain with outputs of its own.
          index.out_link_[v] = outputs_[f].empty() ? index.out_link_[f] : f;
          queue.push_back(v);
        }
      }
      index.from_.assign(node_count, 0);
      for (const uint32_t v : queue) {  // failure states come first
        // A state from which neither it nor its failure chain continues a phrase moves like the
        // root; marking it so keeps the common transition an array read.
        if (v != 0 && (!children[v].empty() || index.from_[index.fail_[v]] != 0)) {
          index.from_[v] = v;
        }
        if (index.masks_) {
          uint64_t mask = index.out_mask_[index.fail_[v]];
          for (const uint32_t t : outputs_[v]) mask |= uint64_t{1} << t;
          index.out_mask_[v] = v == 0 ? 0 : mask;
          index.all_targets_ |= index.out_mask_[v];
        }
      }
      index.out_begin_.assign(1, 0);
      for (const auto& out : outputs_) {
        index.outputs_.insert(index.outputs_.end(), out.begin(), out.end());
        index.out_begin_.push_back(static_cast<uint32_t>(index.outputs_.size()));
      }
      return index;
    }

   private:
    uint32_t Intern(const std::string& word) {
      const auto [it, inserted] = word_ids_.emplace(word, static_cast<uint32_t>(words_.size() + 1));
      if (inserted) words_.push_back(word);
      return it->second;
    }

    std::unordered_map<std::string, uint32_t> word_ids_;  // 1-based, as in the WordTable
    std::vector<std::string> words_;
    std::unordered_map<uint64_t, uint32_t> edges_;       // (parent, word id) -> child
    std::vector<std::vector<uint32_t>> outputs_ = {{}};  // by node; node 0 is the root
    size_t target_count_ = 0;
  };

  // Whether targets are reported as masks (at most 64 targets), and the mask of all targets.
  bool masks() const { return masks_; }
  uint64_t all_targets() const { return all_targets_; }

  // Matching state for one text.
  class Matcher {
   public:
    explicit Matcher(const PhraseIndex& index) : index_(index) {}

    // Advances over the word `w`, after a break when `break_before`, and returns the mask of the
    // targets of the phrases that end on it. Requires masks().
    uint64_t WordMask(const WordRef& w, bool break_before) {
      Advance(w, break_before);
      return index_.out_mask_[state_];
    }

    // Same for any number of targets: calls emit(target) for each target of the phrases that end
    // on the word, the first time the text reaches the word's state (possibly repeatedly for the
    // same target). Once per state: walking a state's whole output chain at every word made a
    // taxonomy of many nested phrases ("a", "a a", ... in 255 themes) cost 5 s per 64 KiB text.
    template <typename Emit>
    void Word(const WordRef& w, bool break_before, Emit&& emit) {
      Advance(w, break_before);
      if (state_ == 0 || !emitted_.insert(state_).second) return;
      for (uint32_t s = state_; s != 0; s = index_.out_link_[s]) {
        for (uint32_t o = index_.out_begin_[s]; o < index_.out_begin_[s + 1]; ++o) {
          emit(index_.outputs_[o]);
        }
      }
    }

    void Break() { state_ = 0; }

   private:
    void Advance(const WordRef& w, bool break_before) {
      const uint32_t wid = index_.words_.Find(w);
      const uint32_t state = break_before ? 0 : index_.from_[state_];
      state_ = state == 0 ? index_.root_next_[wid] : index_.Next(state, wid);
    }

    const PhraseIndex& index_;
    uint32_t state_ = 0;
    absl::flat_hash_set<uint32_t> emitted_;  // states whose targets Word emitted; never iterated
  };

 private:
  // Non-root edges: open addressing on (node, word id).
  class EdgeTable {
   public:
    EdgeTable() = default;
    explicit EdgeTable(const std::unordered_map<uint64_t, uint32_t>& edges) {
      size_t capacity = 16;
      while (capacity < 2 * edges.size()) capacity *= 2;
      slots_.assign(capacity, Slot{0, 0});
      mask_ = capacity - 1;
      for (const auto& [key, child] : edges) {
        if ((key >> 32) == 0) continue;  // root edges live in root_next_
        size_t at = Hash(key) & mask_;
        while (slots_[at].child != 0) at = (at + 1) & mask_;
        slots_[at] = {key, child};
      }
    }
    uint32_t Find(uint64_t key) const {
      for (size_t at = Hash(key) & mask_;; at = (at + 1) & mask_) {
        const Slot& s = slots_[at];
        if (s.child == 0 || s.key == key) return s.child;
      }
    }

   private:
    struct Slot {
      uint64_t key;
      uint32_t child;  // 0: empty (the root is nobody's child)
    };
    static uint64_t Hash(uint64_t key) { return (key * 0x9E3779B97F4A7C15ull) >> 24; }
    std::vector<Slot> slots_ = {Slot{0, 0}};
    size_t mask_ = 0;
  };

  static uint64_t EdgeKey(uint32_t node, uint32_t wid) {
    return (static_cast<uint64_t>(node) << 32) | wid;
  }

  // The child of `node` by word `wid`, or 0.
  uint32_t Goto(uint32_t node, uint32_t wid) const {
    return node == 0 ? root_next_[wid] : edges_.Find(EdgeKey(node, wid));
  }

  // The Aho-Corasick transition from a non-root state.
  [[gnu::noinline]] uint32_t Next(uint32_t state, uint32_t wid) const {
    if (wid == 0) return 0;  // a word in no phrase
    for (; state != 0; state = fail_[state]) {
      if (const uint32_t c = edges_.Find(EdgeKey(state, wid)); c != 0) return c;
    }
    return root_next_[wid];
  }

  WordTable words_;
  std::vector<uint32_t> root_next_ = {0};  // by word id: the root's child, or 0
  EdgeTable edges_;
  std::vector<uint32_t> fail_ = {0};
  std::vector<uint32_t> from_ = {0};  // by state: itself, or 0 when it moves like the root
  bool masks_ = true;
  uint64_t all_targets_ = 0;
  std::vector<uint64_t> out_mask_ = {0};      // by state, when masks_: targets ending here or on
                                              // the failure chain
  std::vector<uint32_t> out_link_ = {0};      // by state: next failure state with own outputs
  std::vector<uint32_t> out_begin_ = {0, 0};  // by state: own outputs in outputs_
  std::vector<uint32_t> outputs_;
};

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
bool IsLiteralKeyword(std::string_view keyword) {
  return std::any_of(keyword.begin(), keyword.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c < 0x80 && kByteKind[c] != kWordByte && !IsAsciiSpace(c) && c != '-' && c != '_' &&
           c != '/' && c != '\'';
  });
}

// Identifier bytes for the boundaries of a literal: word bytes and '_', so "res.ok" does not
// match inside "my_res.ok" or "res.okay".
bool IsIdentifierByte(unsigned char c) { return c == '_' || kByteKind[c] == kWordByte; }

bool IdentifierAt(const unsigned char* p, size_t i, size_t n) {
  return p[i] == '_' || IsWordAt(p, i, n);
}

// Whether the byte before p[i] ends an identifier: an ASCII letter, digit or '_', or a
// non-ASCII byte that does not end a typographic separator (LeadSeparatorLength).
bool IdentifierBefore(const unsigned char* p, size_t i) {
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
  explicit LiteralIndex(std::vector<std::pair<std::string, uint32_t>> literals) {
    std::vector<std::string> anchors;
    std::unordered_map<std::string, uint32_t> anchor_ids;  // 0-based
    std::vector<std::vector<Literal>> by_anchor;
    for (auto& [text, target] : literals) {
      Literal l{std::move(text), 0, 0, target};
      bool first = true;
      ScanWords(l.text, [&](const WordRef& w, bool) {
        if (first) l.anchor_begin = w.begin, l.anchor_len = w.len;
        first = false;
        return false;
      });
      const std::string anchor = l.text.substr(l.anchor_begin, l.anchor_len);
      const auto [it, inserted] = anchor_ids.emplace(anchor, static_cast<uint32_t>(anchors.size()));
      if (inserted) {
        anchors.push_back(anchor);
        by_anchor.emplace_back();
      }
      by_anchor[it->second].push_back(std::move(l));
      if (target < 64) all_targets_ |= uint64_t{1} << target;
    }
    anchors_ = WordTable(anchors);
    first_ = {0, 0};  // anchor id 0: no anchor
    for (auto& group : by_anchor) {
      for (Literal& l : group) literals_.push_back(std::move(l));
      first_.push_back(static_cast<uint32_t>(literals_.size()));
    }
  }

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

// ---------------------------------------------------------------------------------------------
// Sentiment lexicon, kept alphabetical for review. Merged into one word table on first use so each
// word costs one lookup.

constexpr std::string_view kPositiveWords[] = {
    "appreciate", "appreciated", "awesome",  "beautiful",  "best",      "careful",
    "clean",      "cleaner",     "cleanly",  "clear",      "clearer",   "comprehensive",
    "concise",    "consistent",  "correct",  "easy",       "efficient", "elegant",
    "excellent",  "fantastic",   "good",     "great",      "helpful",   "idiomatic",
    "impressive", "intuitive",   "lgtm",     "love",       "loved",     "maintainable",
    "neat",       "nice",        "nicely",   "perfect",    "pleasant",  "readable",
    "reliable",   "robust",      "simple",   "smart",      "solid",     "straightforward",
    "thank",      "thanks",      "thorough", "thoughtful", "tidy",      "useful",
    "wonderful",  "worked",      "works",
};

constexpr std::string_view kNegativeWords[] = {
    "annoying",       "awful",        "bad",       "bloated",      "brittle",
    "broken",         "bug",          "buggy",     "bugs",         "careless",
    "clunky",         "complicated",  "confused",  "confusing",    "convoluted",
    "crash",          "crashed",      "crashes",   "cryptic",      "difficult",
    "duplicated",     "fail",         "failed",    "failing",      "fails",
    "failure",        "flaky",        "forgot",    "forgotten",    "fragile",
    "hacky",          "hard",         "horrible",  "ignored",      "ignores",
    "incomplete",     "inconsistent", "incorrect", "inefficient",  "insecure",
    "issue",          "issues",       "lack",      "lacking",      "lacks",
    "leak",           "leaks",        "leaky",     "mess",         "messy",
    "misleading",     "missing",      "noisy",     "obscure",      "overcomplicated",
    "overengineered", "poor",         "poorly",    "problem",      "problematic",
    "problems",       "prone",        "redundant", "sloppy",       "slow",
    "terrible",       "ugly",         "unclear",   "undocumented", "unhandled",
    "unnecessary",    "unreadable",   "unsafe",    "untested",     "useless",
    "verbose",        "vulnerable",   "weird",     "worse",        "worst",
    "wrong",
};

// Also every word ending in "n't" (tokenized as "...n" + "t"), handled in IsNegator.
constexpr std::string_view kNegators[] = {
    "aint",    "arent",    "barely", "cannot", "cant",    "couldnt", "didnt",
    "doesnt",  "dont",     "hadnt",  "hardly", "hasnt",   "havent",  "isnt",
    "neither", "never",    "no",     "none",   "nor",     "not",     "nothing",
    "nowhere", "shouldnt", "wasnt",  "werent", "without", "wont",    "wouldnt",
};

constexpr std::string_view kIntensifiers[] = {
    "absolutely", "completely", "especially", "extremely", "highly", "incredibly", "really",
    "seriously",  "so",         "super",      "totally",   "truly",  "very",
};

constexpr std::string_view kDowntoners[] = {
    "bit", "fairly", "kinda", "marginally", "slightly", "somewhat",
};

// Words that start a new clause: "not great, but solid" must not negate "solid".
constexpr std::string_view kClauseWords[] = {
    "although", "but", "except", "however", "though", "whereas",
};

enum class WordKind : uint8_t {
  kNone,
  kPositive,
  kNegative,
  kNegator,
  kIntensifier,
  kDowntoner,
  kClause
};

int Polarity(WordKind kind) {
  return kind == WordKind::kPositive ? 1 : kind == WordKind::kNegative ? -1 : 0;
}

// The lexicon merged into one word table, plus the two words the rules look at by spelling: "t"
// (the tail of "n't") and "too".
class Lexicon {
 public:
  struct Entry {
    WordKind kind = WordKind::kNone;
    bool is_t = false;
    bool is_too = false;
  };

  static const Lexicon& Get() {
    static const Lexicon kLexicon;
    return kLexicon;
  }

  Entry Find(const WordRef& w) const { return entries_[table_.Find(w)]; }

 private:
  Lexicon() {
    std::vector<std::string> words;
    const auto add = [&](std::string_view word, WordKind kind) {
      // The first list a word appears in decides its kind.
      if (std::find(words.begin(), words.end(), word) != words.end()) return;
      words.emplace_back(word);
      entries_.push_back({kind, false, false});
    };
    for (std::string_view w : kPositiveWords) add(w, WordKind::kPositive);
    for (std::string_view w : kNegativeWords) add(w, WordKind::kNegative);
    for (std::string_view w : kNegators) add(w, WordKind::kNegator);
    for (std::string_view w : kIntensifiers) add(w, WordKind::kIntensifier);
    for (std::string_view w : kDowntoners) add(w, WordKind::kDowntoner);
    for (std::string_view w : kClauseWords) add(w, WordKind::kClause);
    add("t", WordKind::kNone);
    add("too", WordKind::kNone);
    for (size_t i = 0; i < words.size(); ++i) {
      entries_[i + 1].is_t = words[i] == "t";
      entries_[i + 1].is_too = words[i] == "too";
    }
    table_ = WordTable(words);
  }

  WordTable table_;
  std::vector<Entry> entries_ = {Entry{}};  // by word id; 0: not in the lexicon
};

constexpr int kNegationWindow = 3;
constexpr double kIntensifierScale = 1.5;
constexpr double kDowntonerScale = 0.5;
// "not bad" is faint praise, not the opposite of "bad": a negated negative word counts for half.
constexpr double kNegatedNegativeScale = 0.5;

// ---------------------------------------------------------------------------------------------
// Actionable cues, as phrases matched on word boundaries like theme keywords.

constexpr std::string_view kActionCues[] = {
    "should",   "shouldn't", "must",    "mustn't",   "need to",  "needs",     "need",
    "needed",   "please",    "add",     "remove",    "use",      "avoid",     "consider",
    "missing",  "wish",      "instead", "make sure", "don't",    "dont",      "do not",
    "ensure",   "prefer",    "replace", "rename",    "extract",  "split",     "refactor",
    "simplify", "fix",       "handle",  "could",     "would be", "better to", "why not",
    "lacks",    "lacking",   "forgot",  "todo",      "move",     "drop",      "document",
};

constexpr size_t kMaxActionableBytes = 280;

std::string_view TrimAscii(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string_view TrimItem(std::string_view s) {
  while (true) {
    while (!s.empty() && IsAsciiSpace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && IsAsciiSpace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    // List bullets: "- add tests", "* add tests", "> quoted", "• add tests".
    if (s.size() >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+' || s[0] == '>') &&
        IsAsciiSpace(static_cast<unsigned char>(s[1]))) {
      s.remove_prefix(2);
      continue;
    }
    if (s.starts_with("\xE2\x80\xA2")) {
      s.remove_prefix(3);
      continue;
    }
    return s;
  }
}

const PhraseIndex& ActionCues() {
  static const PhraseIndex kCues = [] {
    PhraseIndex::Builder builder;
    for (std::string_view cue : kActionCues) builder.Add(SplitWords(cue), 0);
    return std::move(builder).Build();
  }();
  return kCues;
}

// Duplicate detection compares items ASCII-lowercased with whitespace runs collapsed, so
// "Add tests" and "add  tests" count once. DedupChars yields that normalized form byte by byte
// without building it.
class DedupChars {
 public:
  explicit DedupChars(std::string_view s) : s_(s) {}
  // The next byte of the normalized form, or -1 at its end.
  int Next() {
    bool space = false;
    while (i_ < s_.size() && IsAsciiSpace(static_cast<unsigned char>(s_[i_]))) {
      space = true;
      ++i_;
    }
    if (i_ == s_.size()) return -1;
    if (space && emitted_) return ' ';  // the byte at i_ comes next call
    emitted_ = true;
    return kLower[static_cast<unsigned char>(s_[i_++])];
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
  bool emitted_ = false;
};

uint64_t DedupHash(std::string_view s) {
  // Usually the normalized form is just the lowercased item (single spaces, no tabs): hash it
  // like a word. Otherwise build the normalized form first.
  bool plain = true;
  for (size_t i = 0; i < s.size() && plain; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c <= ' ' && IsAsciiSpace(c)) {
      plain = c == ' ' && i > 0 && i + 1 < s.size() && s[i + 1] != ' ' &&
              !IsAsciiSpace(static_cast<unsigned char>(s[i + 1]));
    }
  }
  if (plain) return HashWord(WholeWord(s));
  std::string normalized;
  DedupChars chars(s);
  for (int c = chars.Next(); c >= 0; c = chars.Next()) normalized.push_back(static_cast<char>(c));
  return HashWord(WholeWord(normalized));
}

bool DedupEqual(std::string_view a, std::string_view b) {
  DedupChars x(a);
  DedupChars y(b);
  while (true) {
    const int c = x.Next();
    if (c != y.Next()) return false;
    if (c < 0) return true;
  }
}

// The actionable items found so far, as views into the text; the output strings are made at the
// end, at once. The first 16 need no allocation.
class ItemViews {
 public:
  size_t size() const { return size_; }
  std::string_view operator[](size_t i) const {
    return i < kInline ? inline_[i] : heap_[i - kInline];
  }
  void push_back(std::string_view item) {
    if (size_ < kInline) {
      inline_[size_] = item;
    } else {
      heap_.push_back(item);
    }
    ++size_;
  }

 private:
  static constexpr size_t kInline = 16;
  std::string_view inline_[kInline];
  std::vector<std::string_view> heap_;
  size_t size_ = 0;
};

// Whether `item` duplicates one of `items` (the output so far). A few items are compared
// directly (a mismatch shows within a few bytes); from 8 on they are hashed into an open
// addressing table (the first 8 slots need no allocation), so many items stay linear.
class SeenItems {
 public:
  SeenItems() = default;
  SeenItems(const SeenItems&) = delete;
  SeenItems& operator=(const SeenItems&) = delete;

  // Whether `item` is new; if so the caller appends it to `items`.
  bool Insert(std::string_view item, const ItemViews& items) {
    if (items.size() < kCompareDirectly) {
      for (size_t i = 0; i < items.size(); ++i) {
        if (DedupEqual(item, items[i])) return false;
      }
      return true;
    }
    for (; size_ < items.size(); ++size_) Add(DedupHash(items[size_]), size_);
    const uint64_t h = DedupHash(item);
    size_t at = h & (capacity_ - 1);
    for (;; at = (at + 1) & (capacity_ - 1)) {
      const Slot& s = slots_[at];
      if (s.index_plus_1 == 0) break;
      if (s.hash == h && DedupEqual(item, items[s.index_plus_1 - 1])) return false;
    }
    return true;
  }

 private:
  static constexpr size_t kCompareDirectly = 8;

  void Add(uint64_t hash, size_t index) {
    if (2 * (index + 1) > capacity_) Grow();
    size_t at = hash & (capacity_ - 1);
    while (slots_[at].index_plus_1 != 0) at = (at + 1) & (capacity_ - 1);
    slots_[at] = {hash, static_cast<uint32_t>(index + 1)};
  }

  struct Slot {
    uint64_t hash = 0;
    uint32_t index_plus_1 = 0;  // 0: empty
  };

  void Grow() {
    std::vector<Slot> bigger(2 * capacity_);
    for (size_t k = 0; k < capacity_; ++k) {
      const Slot s = slots_[k];
      if (s.index_plus_1 == 0) continue;
      size_t at = s.hash & (bigger.size() - 1);
      while (bigger[at].index_plus_1 != 0) at = (at + 1) & (bigger.size() - 1);
      bigger[at] = s;
    }
    heap_ = std::move(bigger);
    slots_ = heap_.data();
    capacity_ = heap_.size();
  }

  static constexpr size_t kInline = 16;
  Slot inline_[kInline];
  std::vector<Slot> heap_;
  Slot* slots_ = inline_;
  size_t capacity_ = kInline;
  size_t size_ = 0;
};

}  // namespace

// The taxonomy's keywords as a phrase index whose targets are theme indices.
struct ThemeTaxonomy::CompiledThemes {
  explicit CompiledThemes(const std::vector<Theme>& themes) {
    PhraseIndex::Builder builder;
    std::vector<std::pair<std::string, uint32_t>> literal_keywords;
    for (size_t t = 0; t < themes.size(); ++t) {
      for (const std::string& keyword : themes[t].keywords) {
        if (IsLiteralKeyword(keyword)) {
          literal_keywords.emplace_back(keyword, static_cast<uint32_t>(t));
        } else {
          builder.Add(SplitWords(keyword), static_cast<uint32_t>(t));  // never empty: HasWord
        }
      }
    }
    phrases = std::move(builder).Build();
    literals = LiteralIndex(std::move(literal_keywords));
  }

  PhraseIndex phrases;
  LiteralIndex literals;
};

std::shared_ptr<const ThemeTaxonomy::CompiledThemes> ThemeTaxonomy::Compile(
    const std::vector<Theme>& themes) {
  return std::make_shared<const CompiledThemes>(themes);
}

namespace internal {

bool KeywordHasWord(std::string_view keyword) { return HasWord(keyword); }

bool IsLiteralKeyword(std::string_view keyword) { return text::IsLiteralKeyword(keyword); }

}  // namespace internal

std::vector<std::string> ExtractThemes(std::string_view text, const ThemeTaxonomy& taxonomy) {
  std::vector<std::string> found;
  if (text.empty() || taxonomy.compiled_ == nullptr) return found;  // null: moved from

  const size_t theme_count = taxonomy.themes_.size();
  constexpr size_t kInlineWords = 4;  // all 256 themes without allocating
  static_assert(kInlineWords * 64 >= ThemeTaxonomy::kMaxThemes);
  uint64_t matched[kInlineWords] = {};

  const PhraseIndex& phrases = taxonomy.compiled_->phrases;
  const LiteralIndex& literals = taxonomy.compiled_->literals;
  size_t budget = LiteralIndex::kBudgetPerByte * text.size() + LiteralIndex::kBudgetBase;
  PhraseIndex::Matcher matcher(phrases);
  if (theme_count <= 64) {  // no branch per word but the literals' anchor check
    const uint64_t all = phrases.all_targets() | literals.all_targets();
    uint64_t mask = 0;
    const auto found_theme = [&](uint32_t theme) { return (mask >> theme & 1) != 0; };
    const auto emit = [&](uint32_t theme) { mask |= uint64_t{1} << theme; };
    ScanWords(text, [&](const WordRef& w, bool break_before) {
      mask |= matcher.WordMask(w, break_before);
      if (!literals.empty()) literals.Match(w, found_theme, emit, &budget);
      return mask != all;  // every theme found: nothing left to learn
    });
    matched[0] = mask;
  } else {
    size_t matched_count = 0;
    const auto matched_theme = [&](uint32_t theme) {
      return (matched[theme / 64] >> (theme % 64) & 1) != 0;
    };
    const auto emit = [&](uint32_t theme) {
      uint64_t& word = matched[theme / 64];
      const uint64_t bit = uint64_t{1} << (theme % 64);
      matched_count += (word & bit) == 0;
      word |= bit;
    };
    ScanWords(text, [&](const WordRef& w, bool break_before) {
      matcher.Word(w, break_before, emit);
      if (!literals.empty()) literals.Match(w, matched_theme, emit, &budget);
      return matched_count < theme_count;
    });
  }

  size_t matched_count = 0;
  for (uint64_t word : matched) matched_count += std::popcount(word);
  found.reserve(matched_count);
  for (size_t t = 0; t < theme_count; ++t) {
    if ((matched[t / 64] >> (t % 64) & 1) != 0) found.push_back(taxonomy.themes_[t].name);
  }
  return found;
}

// Formula. Each lexicon word contributes a signed weight w = polarity (+1/-1) x scale, where
// scale is 1.5 after an intensifier ("very"), 0.5 after a downtoner ("slightly"), else 1. Within
// 3 words after a negator in the same clause the sign flips, and a flipped negative counts half
// ("not bad" = +0.5, "not good" = -1). "too" before a non-lexicon word ("too short") counts as -1.
// With P the sum of positive contributions and N the sum of magnitudes of negative ones:
//
//     sentiment = (P - N) / (P + N + 1)
//
// The +1 damps thin evidence ("nice" alone is 0.5, "nice, clean, solid" is 0.75) and keeps the
// result strictly inside (-1, 1); mixed feedback tends to 0 regardless of length.
double Sentiment(std::string_view text) {
  if (text.empty()) return 0.0;
  const Lexicon& lexicon = Lexicon::Get();

  double pos = 0.0;
  double neg = 0.0;
  int negation_left = 0;
  double scale = 1.0;
  bool prev_ends_with_n = false;  // the previous token is a word ending in 'n'
  // "too" depends on the token after it, so its effect waits for that token.
  bool pending_too = false;

  const auto add = [&](double v) {
    if (negation_left > 0) v = v > 0 ? -v : -v * kNegatedNegativeScale;
    if (v > 0) {
      pos += v;
    } else {
      neg -= v;
    }
  };
  // Finishes a pending "too" given the next token: a word's lexicon entry, or nullptr for a break
  // or the end of the text.
  const auto resolve_too = [&](const Lexicon::Entry* next) {
    pending_too = false;
    if (next != nullptr) {
      // "too slow" is just an intensified "slow"; "too short" has no lexicon word to carry it.
      if (Polarity(next->kind) != 0) {
        scale = kIntensifierScale;
      } else {
        add(-1.0 * scale);
        scale = 1.0;
      }
    } else {
      scale = 1.0;
    }
    if (negation_left > 0) --negation_left;
  };

  ScanWords(text, [&](const WordRef& w, bool break_before) {
    if (break_before) {
      if (pending_too) resolve_too(nullptr);
      negation_left = 0;
      scale = 1.0;
      prev_ends_with_n = false;
    }
    const Lexicon::Entry entry = lexicon.Find(w);
    if (pending_too) resolve_too(&entry);
    const bool prev_n = prev_ends_with_n;
    prev_ends_with_n = kLower[w.text[w.begin + w.len - 1]] == 'n';
    if (entry.kind == WordKind::kNone && !entry.is_t && !entry.is_too) [[likely]] {
      scale = 1.0;  // the common case, short of the chain of tests below
      if (negation_left > 0) --negation_left;
      return true;
    }
    const WordKind kind = entry.kind;
    if (kind == WordKind::kClause) {
      negation_left = 0;
      scale = 1.0;
      return true;
    }
    // "don't" / "isn't" arrive as "don" "t" / "isn" "t" because the apostrophe separates
    // words.
    if (kind == WordKind::kNegator || (entry.is_t && prev_n)) {
      negation_left = kNegationWindow;
      scale = 1.0;
      return true;
    }
    if (const int polarity = Polarity(kind); polarity != 0) {
      add(polarity * scale);
      scale = 1.0;
    } else if (kind == WordKind::kIntensifier) {
      scale = kIntensifierScale;
    } else if (kind == WordKind::kDowntoner) {
      scale = kDowntonerScale;
    } else if (entry.is_too) {
      pending_too = true;
      return true;
    } else {
      scale = 1.0;
    }
    if (negation_left > 0) --negation_left;
    return true;
  });
  if (pending_too) resolve_too(nullptr);

  const double score = (pos - neg) / (pos + neg + 1.0);
  return std::clamp(score, -1.0, 1.0);
}

std::vector<std::string> ActionableItems(std::string_view text) {
  std::vector<std::string> items;
  if (text.empty()) return items;

  // A sentence (split on . ! ? ; and line breaks) is actionable when a cue phrase occurs in its
  // words. The sentence terminators are exactly the scan's sentence-ending breaks, and trimming a
  // sentence only drops non-word bytes, so one scan of the whole text sees each sentence's words.
  ItemViews found;
  SeenItems seen;
  PhraseIndex::Matcher matcher(ActionCues());
  bool actionable = false;
  size_t start = 0;
  const auto flush = [&](size_t end) {
    if (!actionable) return;
    actionable = false;
    const std::string_view sentence = TrimItem(text.substr(start, end - start));
    if (sentence.empty()) return;
    const std::string_view item = TrimAscii(base::Utf8Prefix(sentence, kMaxActionableBytes));
    if (item.empty() || !seen.Insert(item, found)) return;
    found.push_back(item);
  };
  ScanWords<true>(
      text,
      [&](const WordRef& w, bool break_before) {
        actionable |= matcher.WordMask(w, break_before) != 0;
        return true;
      },
      [&](size_t at) {
        flush(at);
        start = at + 1;
        matcher.Break();
      });
  flush(text.size());
  items.reserve(found.size());
  for (size_t i = 0; i < found.size(); ++i) items.emplace_back(found[i]);
  return items;
}

}  // namespace kaizen::text
