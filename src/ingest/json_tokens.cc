#include "ingest/json_tokens.h"

namespace kaizen::ingest {
namespace {

bool IsJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

}  // namespace

JsonTokens::JsonTokens(std::string_view text, std::span<const uint32_t> offsets)
    : text_(text), offsets_(offsets) {
  // simdjson's offsets rise strictly, so the last one bounds them all.
  ok_ = !offsets.empty() && offsets.back() < text.size();
  if (!ok_) return;
  minified_ = true;
  for (size_t i = 1; i < offsets.size() && minified_; ++i) {
    minified_ = !IsJsonSpace(text[offsets[i] - 1]);
  }
}

JsonTokens JsonTokens::Of(const simdjson::dom::parser& parser, std::string_view text) {
  if (!parser.implementation || !parser.implementation->structural_indexes) return JsonTokens();
  return JsonTokens(text, std::span<const uint32_t>(parser.implementation->structural_indexes.get(),
                                                    parser.implementation->n_structural_indexes));
}

size_t JsonTokens::SkipValue(size_t i) const {
  const char first = First(i);
  if (first != '{' && first != '[') return i + 1;
  // Tokens inside strings are not tokens: brackets can be counted as they come.
  size_t depth = 0;
  for (; i < offsets_.size(); ++i) {
    const char c = First(i);
    if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return offsets_.size();  // unbalanced: not what simdjson accepts
}

size_t JsonTokens::TokenEnd(size_t i) const {
  size_t end = i + 1 < offsets_.size() ? offsets_[i + 1] : text_.size();
  while (end > offsets_[i] + 1 && IsJsonSpace(text_[end - 1])) --end;
  return end;
}

std::string_view JsonTokens::StringAt(size_t i) const {
  const size_t begin = offsets_[i] + 1, end = TokenEnd(i) - 1;  // inside the quotes
  return end > begin ? text_.substr(begin, end - begin) : std::string_view();
}

void JsonTokens::AppendMinified(size_t first, size_t last, std::string* out) const {
  if (first >= last) return;
  if (minified_) {
    out->append(text_.substr(offsets_[first], TokenEnd(last - 1) - offsets_[first]));
    return;
  }
  for (size_t i = first; i < last; ++i) {
    out->append(text_.substr(offsets_[i], TokenEnd(i) - offsets_[i]));
  }
}

}  // namespace kaizen::ingest
