#include "learn/rules/rule_catalog.h"

#include <gtest/gtest.h>

#include "text/text_analysis.h"

namespace kaizen::learn {
namespace {

TEST(RuleCatalog, EveryShippedThemeHasHandWrittenWording) {
  for (const text::Theme& theme : text::ThemeTaxonomy::Default().themes()) {
    const RuleWording w = WordingFor(theme.name);
    EXPECT_EQ(w.rule.find("Address \u201c"), std::string::npos) << theme.name;
    EXPECT_FALSE(w.instruction.empty()) << theme.name;
    EXPECT_FALSE(w.checklist_item.empty()) << theme.name;
  }
}

TEST(RuleCatalog, AUserThemeGetsGenericQuotedWording) {
  EXPECT_EQ(WordingFor("i18n").rule, "Address \u201ci18n\u201d before submitting");
}

}  // namespace
}  // namespace kaizen::learn
