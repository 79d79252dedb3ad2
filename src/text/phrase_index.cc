// Building a phrase index: the trie of word-id paths, its failure links and its outputs, computed
// once per taxonomy or cue list so that matching a text is one transition per word.
#include "text/phrase_index.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "text/word_table.h"

namespace kaizen::text {

void PhraseIndex::Builder::Add(const std::vector<std::string>& words, uint32_t target) {
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

PhraseIndex PhraseIndex::Builder::Build() && {
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

uint32_t PhraseIndex::Builder::Intern(const std::string& word) {
  const auto [it, inserted] = word_ids_.emplace(word, static_cast<uint32_t>(words_.size() + 1));
  if (inserted) words_.push_back(word);
  return it->second;
}

PhraseIndex::EdgeTable::EdgeTable(const std::unordered_map<uint64_t, uint32_t>& edges) {
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

}  // namespace kaizen::text
