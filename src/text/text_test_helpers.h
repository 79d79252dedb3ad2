// What the tests of src/text share: the default taxonomy's themes of a text, a taxonomy built by
// hand (failing the test when it is refused), and a small one of two themes.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/theme_matcher.h"
#include "text/theme_taxonomy.h"

namespace kaizen::text::test_helpers {

using Strings = std::vector<std::string>;

inline bool HasTheme(const std::vector<std::string>& themes, const std::string& name) {
  return std::find(themes.begin(), themes.end(), name) != themes.end();
}

inline std::vector<std::string> Themes(std::string_view text) {
  return ExtractThemes(text, ThemeTaxonomy::Default());
}

inline ThemeTaxonomy Taxonomy(std::vector<Theme> themes) {
  auto t = ThemeTaxonomy::FromThemes(std::move(themes));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return std::move(t).value();
}

inline ThemeTaxonomy TestTaxonomy() {
  return Taxonomy(
      {{"tests", {"test", "tests", "testing"}}, {"retries", {"exponential backoff", "retry"}}});
}

}  // namespace kaizen::text::test_helpers
