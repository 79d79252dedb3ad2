// Which keywords are literal, and building a literal index (grouping literals by anchor word),
// done once per taxonomy rather than per text.
#include "text/literal_index.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "text/tokenizer.h"
#include "text/word_table.h"

namespace kaizen::text {

bool IsLiteralKeyword(std::string_view keyword) {
  return std::any_of(keyword.begin(), keyword.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c < 0x80 && kByteKind[c] != kWordByte && !IsAsciiSpace(c) && c != '-' && c != '_' &&
           c != '/' && c != '\'';
  });
}

LiteralIndex::LiteralIndex(std::vector<std::pair<std::string, uint32_t>> literals) {
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

}  // namespace kaizen::text
