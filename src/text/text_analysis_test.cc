// The promise of text_analysis.h for all three enrichments at once: no input crashes them and
// none takes more than linear time.
#include "text/text_analysis.h"
#include "text/text_test_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace kaizen::text {
namespace {

using namespace test_helpers;

using namespace std::string_literals;

// ---- Robustness ----------------------------------------------------------------------------

TEST(Robustness, InvalidUtf8NeverCrashes) {
  const std::string garbage[] = {
      "\xFF\xFE\xFD retry logic \xC3"s,
      "\xE2\x80"s,  // truncated typographic separator
      "\xE2"s,
      "please add\xC2"s,
      "\x80\x80\x80\x80.\xE2\x80\xA6\xC2\xA0\xC2 should"s,
      "\0\0should\0fix\0"s,
      "\xED\xA0\x80 surrogate; \xF4\x90\x80\x80 too large; \xC0\xAF overlong"s,
  };
  for (const std::string& g : garbage) {
    (void)Themes(g);
    const double s = Sentiment(g);
    EXPECT_GE(s, -1.0);
    EXPECT_LE(s, 1.0);
    (void)ActionableItems(g);
  }
  EXPECT_TRUE(HasTheme(Themes(garbage[0]), "retries"));
}

TEST(Robustness, AllByteValuesAndLongInputsFinishQuickly) {
  std::string all_bytes;
  for (int round = 0; round < 256; ++round) {
    for (int b = 0; b < 256; ++b) all_bytes.push_back(static_cast<char>((b * 7 + round) & 0xFF));
  }
  ASSERT_EQ(all_bytes.size(), 64u * 1024u);
  const std::string dots(64 * 1024, '.');
  std::string sentences;
  while (sentences.size() < 64 * 1024) sentences += "Please add retry logic number x. ";
  std::string many_distinct;
  for (int i = 0; many_distinct.size() < 64 * 1024; ++i) {
    many_distinct += "add item " + std::to_string(i) + ". ";
  }

  const auto start = std::chrono::steady_clock::now();
  for (const std::string* text :
       std::vector<const std::string*>{&all_bytes, &dots, &sentences, &many_distinct}) {
    (void)Themes(*text);
    const double s = Sentiment(*text);
    EXPECT_GE(s, -1.0);
    EXPECT_LE(s, 1.0);
    (void)ActionableItems(*text);
  }
  EXPECT_EQ(ActionableItems(sentences), (Strings{"Please add retry logic number x"}));
  EXPECT_GT(ActionableItems(many_distinct).size(), 1000u);
  // Generous so sanitizer builds pass; a quadratic blow-up would take far longer.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

}  // namespace
}  // namespace kaizen::text
