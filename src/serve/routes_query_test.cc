#include "serve/routes_query.h"

#include <gtest/gtest.h>

namespace kaizen::serve {
namespace {

TEST(QueryStringTest, DecodesPercentEscapesAndPlusOnlyInQueries) {
  EXPECT_EQ(DecodeUrl("/v1/work/a%2Fb+c", false), "/v1/work/a/b+c");
  EXPECT_EQ(DecodeUrl("x+y%20z%e2%82%AC", true), "x y z\xe2\x82\xac");
  // A '%' without two hex digits after it stays as it is.
  EXPECT_EQ(DecodeUrl("100%", true), "100%");
  EXPECT_EQ(DecodeUrl("%g1%4", true), "%g1%4");
}

TEST(QueryStringTest, SplitsPairsKeepsRepeatsAndDropsEmptyOnes) {
  const QueryParams p = ParseQueryString("a=1&&b=x%20y&a=2&flag&=v&c=d=e");
  const QueryParams want{{"a", "1"},   {"b", "x y"}, {"a", "2"},
                         {"flag", ""}, {"", "v"},    {"c", "d=e"}};
  EXPECT_EQ(p, want);
  EXPECT_TRUE(ParseQueryString("").empty());
  EXPECT_TRUE(ParseQueryString("&&").empty());
}

TEST(ContextParamsTest, ReadsEveryParameter) {
  QueryParams p{{"server_type", "shopify"}, {"type", "mcp-server"},
                {"stage", "build"},         {"dimensions", "error-handling,security"},
                {"budget", "800"},          {"format", "md"}};
  ContextRequest r;
  ASSERT_TRUE(ParseContextParams(p, &r).empty());
  EXPECT_EQ(r.query.server_type, "shopify");
  EXPECT_EQ(r.query.work_type, "mcp-server");
  EXPECT_EQ(r.query.stage, "build");
  EXPECT_EQ(r.query.dimensions, (std::vector<std::string>{"error-handling", "security"}));
  EXPECT_EQ(r.budget, 800);
  EXPECT_TRUE(r.markdown);
}

TEST(ContextParamsTest, NoParametersMeanEverythingAndTheConfiguredBudget) {
  ContextRequest r;
  ASSERT_TRUE(ParseContextParams({}, &r).empty());
  EXPECT_TRUE(r.query.dimensions.empty());
  EXPECT_EQ(r.budget, 0);
  EXPECT_FALSE(r.markdown);
}

TEST(ContextParamsTest, UnknownParameterIsNamedWithTheKnownOnes) {
  ContextRequest r;
  auto errors = ParseContextParams({{"serverType", "shopify"}}, &r);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "query.serverType");
  EXPECT_NE(errors[0].message.find("server_type"), std::string::npos);
}

TEST(ContextParamsTest, RepeatedParameterIsRefused) {
  ContextRequest r;
  auto errors = ParseContextParams({{"stage", "a"}, {"stage", "b"}}, &r);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "query.stage");
}

TEST(ContextParamsTest, BadBudgetsAreRefusedWithTheRange) {
  for (const char* bad : {"0", "-1", "12x", "", "10000001", "99999999999999999999"}) {
    ContextRequest r;
    auto errors = ParseContextParams({{"budget", bad}}, &r);
    ASSERT_EQ(errors.size(), 1u) << bad;
    EXPECT_EQ(errors[0].path, "query.budget");
    EXPECT_NE(errors[0].message.find("1..10000000"), std::string::npos);
  }
}

TEST(ContextParamsTest, UnknownDimensionAndFormatAreBothReported) {
  ContextRequest r;
  auto errors = ParseContextParams({{"dimensions", "speed"}, {"format", "xml"}}, &r);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].path, "query.dimensions");
  EXPECT_EQ(errors[1].path, "query.format");
}

TEST(CheckParamsTest, RouteWithoutParametersRefusesAny) {
  auto errors = CheckParams({{"x", "1"}}, {});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "query.x");
  EXPECT_NE(errors[0].message.find("no query parameters"), std::string::npos);
}

}  // namespace
}  // namespace kaizen::serve
