// Building a word table (filter bits, lanes, cuckoo placement), done once per table so that the
// lookups in word_table.h stay short.
#include "text/word_table.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "text/tokenizer.h"

namespace kaizen::text {

WordTable::WordTable(const std::vector<std::string>& words) {
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

}  // namespace kaizen::text
