// The word scan that theme matching, sentiment and actionable items share (byte classes, the word
// hash, ScanWords), internal to src/text. It is a header so that each caller's callbacks inline
// into the scan, which runs over the free text of every event.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

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

// ---------------------------------------------------------------------------------------------
// Tokenizing. Theme matching, sentiment and actionable items see text as a sequence of lowercase
// words with "break" markers where a sentence or clause ends, so that phrases and negation do not
// reach across "Looks good. Not sure about retries". The text is scanned once, in place: a word is
// reported as its byte range and looked up by its ASCII-lowercased bytes without being copied, so
// nothing is allocated per word.

inline bool IsAsciiSpace(unsigned char c) {
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

inline constexpr std::array<uint8_t, 256> kByteKind = [] {
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

inline constexpr std::array<unsigned char, 256> kLower = [] {
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
inline size_t LeadSeparatorLength(const unsigned char* p, size_t i, size_t n) {
  if (p[i] == 0xE2) {
    return (i + 2 < n && p[i + 1] == 0x80 && (p[i + 2] & 0xC0) == 0x80) ? 3 : 0;
  }
  return (i + 1 < n && (p[i + 1] == 0xA0 || p[i + 1] == 0xAB || p[i + 1] == 0xBB)) ? 2 : 0;
}

inline bool IsWordAt(const unsigned char* p, size_t i, size_t n) {
  const uint8_t k = kByteKind[p[i]];
  return k == kWordByte || (k == kLead && LeadSeparatorLength(p, i, n) == 0);
}

// A terminator only ends a sentence before a non-word byte or the end, which keeps "foo.bar()",
// "1.5" and "node.js" whole.
inline bool EndsSentenceAt(const unsigned char* p, size_t i, size_t n) {
  return i + 1 >= n || !IsWordAt(p, i + 1, n);
}

inline const unsigned char* Bytes(std::string_view s) {
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

inline constexpr uint64_t kHashSeed = 0x243F6A8885A308D3ull;

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
alignas(16) inline constexpr unsigned char kPrefixMask[32] = {
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

inline uint64_t HashWord(const WordRef& w) {
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

inline WordRef WholeWord(std::string_view s) { return {Bytes(s), s.size(), 0, s.size()}; }

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
std::vector<std::string> SplitWords(std::string_view phrase);

bool HasWord(std::string_view s);

}  // namespace kaizen::text
