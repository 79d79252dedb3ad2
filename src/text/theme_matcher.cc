// Compiling a taxonomy's keywords into a phrase index and a literal index, and matching them
// against a text. Also what the taxonomy's validation asks of a keyword (theme_keywords.h), so
// that it judges keywords exactly as the matcher will read them.
#include "text/theme_matcher.h"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/literal_index.h"
#include "text/phrase_index.h"
#include "text/theme_keywords.h"
#include "text/tokenizer.h"

namespace kaizen::text {

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

}  // namespace kaizen::text
