#include "render/context.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>
#include <vector>

#include "learn/event_reader.h"

namespace kaizen::render {
namespace {

constexpr int64_t kNow = 1753056000000;  // 2025-07-21T00:00:00Z

// Review i of server `server` on 2025-07-(10 + i), scored on `dimension`.
std::string Review(int i, std::string_view server, std::string_view stage,
                   std::string_view dimension, std::string_view decision) {
  return fmt::format(
      R"({{"kind":"feedback","id":"fb-{}","timestamp":"2025-07-{:02}T09:00:00.000Z",)"
      R"("sessionId":"s{}","modalId":"m","workProduct":{{"type":"mcp-server","id":"art-{}",)"
      R"("version":"v1","summary":"s","bubaConfidence":0.9,"generationContext":{{)"
      R"("promptHash":"h","memorySnapshot":[],"modelUsed":"opus","generationTimeMs":1,)"
      R"("iterationCount":1}}}},"mcpServerType":"{}","pipelineStage":"{}","reviewerId":"jake",)"
      R"("decision":{{"decision":"{}","reason":"reason {}"}},)"
      R"("scores":[{{"dimension":"{}","score":5}}],"meta":{{"timeToDecisionMs":30000}}}})",
      i, 1 + i, i, i, server, stage, decision, i, dimension);
}

std::unique_ptr<learn::Learner> Learn() {
  auto learner = std::make_unique<learn::Learner>(learn::LearnConfig{});
  learn::EventReader reader;
  learn::EventViews views;
  for (int i = 0; i < 12; ++i) {
    const std::string line = Review(i, i % 3 == 2 ? "stripe" : "shopify",
                                    i % 2 ? "build" : "review", "security", "rejected");
    EXPECT_TRUE(reader.ReadJson(line, &views)) << line;
    learner->Add(views);
  }
  return learner;
}

TEST(ParseDimensions, AcceptsValidNamesOnceEach) {
  std::vector<std::string> dims;
  ASSERT_TRUE(ParseDimensions("security, naming,security", &dims).ok());
  EXPECT_EQ(dims, (std::vector<std::string>{"security", "naming"}));
}

TEST(ParseDimensions, RejectsAnUnknownNameNamingItAndTheValidOnes) {
  std::vector<std::string> dims;
  Status s = ParseDimensions("security,speed", &dims);
  ASSERT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("\"speed\" is not a quality dimension"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("code-quality, design-aesthetics"), std::string::npos);
  EXPECT_NE(s.message().find("naming, dx)"), std::string::npos) << s.message();
  EXPECT_EQ(ParseDimensions("", &dims).code(), StatusCode::kInvalidArgument);
}

TEST(Context, RecentSimilarAreTheNewestFiveOfTheServerTypeNewestFirst) {
  auto learner = Learn();
  ContextResult r = Context(*learner, {"shopify", "mcp-server", "review", {"security"}}, kNow);
  // shopify reviews: i = 0,1,3,4,6,7,9,10. Those at stage build (odd i) score 0.8, the rest 1.
  ASSERT_EQ(r.recent_similar.size(), 5u);
  EXPECT_EQ(r.recent_similar[0].id, "fb-10");
  EXPECT_DOUBLE_EQ(r.recent_similar[0].similarity, 1.0);
  EXPECT_EQ(r.recent_similar[1].id, "fb-9");
  EXPECT_NEAR(r.recent_similar[1].similarity, 0.8, 1e-9);
  EXPECT_EQ(r.recent_similar[4].id, "fb-4");
  EXPECT_EQ(r.recent_similar[0].words, "“reason 10”");
  for (const ContextReview& v : r.recent_similar) EXPECT_EQ(v.server_type, "shopify");
}

TEST(Context, IgnoresReviewsAfterNow) {
  auto learner = Learn();
  const int64_t before_fb6 = kNow - 14 * model::kMsPerDay;  // 2025-07-07T00:00Z
  ContextResult r = Context(*learner, {"shopify", "", "", {}}, before_fb6);
  ASSERT_FALSE(r.recent_similar.empty());
  EXPECT_EQ(r.recent_similar[0].id, "fb-4");
}

TEST(RenderContext, StaysWithinTheBudgetAndReportsWhatItTrimmed) {
  auto learner = Learn();
  ContextResult full = Context(*learner, {"shopify", "", "", {}}, kNow);
  const std::string all = RenderContext(&full, ContextFormat::kMarkdown, 100000);
  EXPECT_TRUE(full.trimmed.empty());
  ContextResult r = Context(*learner, {"shopify", "", "", {}}, kNow);
  const size_t budget = EstimateTokens(all.size()) - 40;
  const std::string text = RenderContext(&r, ContextFormat::kMarkdown, budget);
  EXPECT_LE(EstimateTokens(text.size()), budget);
  ASSERT_TRUE(r.trimmed.count("recentSimilar")) << text;
  EXPECT_NE(text.find("| trimmed: recentSimilar "), std::string::npos) << text;
  // The oldest similar reviews went first.
  ASSERT_FALSE(r.recent_similar.empty());
  EXPECT_EQ(r.recent_similar[0].id, "fb-10");
}

TEST(RenderContext, JsonIsOneValidObjectWithinTheBudget) {
  auto learner = Learn();
  ContextResult r = Context(*learner, {"shopify", "", "review", {"security"}}, kNow);
  const std::string json = RenderContext(&r, ContextFormat::kJson, 150);
  EXPECT_LE(EstimateTokens(json.size()), 150u);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  int64_t budget = 0;
  ASSERT_EQ(doc["budgetTokens"].get(budget), simdjson::SUCCESS);
  EXPECT_EQ(budget, 150);
  simdjson::dom::object trimmed;
  ASSERT_EQ(doc["trimmed"].get(trimmed), simdjson::SUCCESS);
  EXPECT_GT(trimmed.size(), 0u);
}

TEST(Context, SameLearnerQueryAndNowGiveTheSameBytes) {
  auto a = Learn(), b = Learn();
  ContextQuery q{"shopify", "mcp-server", "review", {"security"}};
  ContextResult x = Context(*a, q, kNow), y = Context(*b, q, kNow);
  EXPECT_EQ(RenderContext(&x, ContextFormat::kJson, 2000),
            RenderContext(&y, ContextFormat::kJson, 2000));
  EXPECT_EQ(ContextMarkdown(x), ContextMarkdown(y));
}

}  // namespace
}  // namespace kaizen::render
