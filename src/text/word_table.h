// The word table: lowercase words looked up by a word of the text as it stands, for the phrase
// index, the literal keywords' anchors and the sentiment lexicon. Lookups are inline, one per word
// of every text; building a table is in word_table.cc.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "text/tokenizer.h"

namespace kaizen::text {

// ---------------------------------------------------------------------------------------------
// Word table: lowercase words -> ids 1..n (0: not a word of the table). A filter on (length,
// first byte, last byte) turns most words of a text away in a few instructions; the rest are
// hashed and looked up with cuckoo hashing, which reads two slots and two entries and decides
// without further branches (a branch on the outcome would be mispredicted on every hit).

class WordTable {
 public:
  WordTable() = default;
  explicit WordTable(const std::vector<std::string>& words);

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

}  // namespace kaizen::text
