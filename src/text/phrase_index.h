// The phrase index: theme keywords or actionable cues as an Aho-Corasick automaton over word ids,
// shared by theme matching and actionable items. Matching is inline (once per word of every text);
// building the index is in phrase_index.cc.
#pragma once

#include <absl/container/flat_hash_set.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "text/tokenizer.h"
#include "text/word_table.h"

namespace kaizen::text {

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
    void Add(const std::vector<std::string>& words, uint32_t target);

    PhraseIndex Build() &&;

   private:
    uint32_t Intern(const std::string& word);

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
    explicit EdgeTable(const std::unordered_map<uint64_t, uint32_t>& edges);
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

}  // namespace kaizen::text
