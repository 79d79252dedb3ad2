// The actionable cues, sentence trimming and duplicate detection behind ActionableItems. The
// items stay views into the text until the end, so a text allocates only for its output.
#include "text/actionable_items.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/utf8.h"
#include "text/phrase_index.h"
#include "text/tokenizer.h"

namespace kaizen::text {
namespace {

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
