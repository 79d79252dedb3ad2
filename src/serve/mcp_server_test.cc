#include "serve/mcp_server.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>

#include "base/test_files.h"

namespace kaizen::serve {
namespace {

constexpr int64_t kNow = 1767225600000;  // 2026-01-01T00:00:00Z

class McpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = base::test_files::MakeTempDir("kaizen-mcp-test");
    ASSERT_FALSE(home_.empty());
    McpOptions options;
    options.live.home = home_;
    options.live.fixed_now_ms = kNow;
    server_ = std::make_unique<McpServer>(options);
  }
  void TearDown() override {
    server_.reset();
    std::filesystem::remove_all(home_);
  }
  std::string Init(std::string_view version = "2025-06-18") {
    return server_->HandleLine(
        std::string(
            R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")") +
        std::string(version) + R"(","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  }
  std::string Call(std::string_view tool, std::string_view args) {
    return server_->HandleLine(
        std::string(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":")") +
        std::string(tool) + R"(","arguments":)" + std::string(args) + "}}");
  }

  std::string home_;
  std::unique_ptr<McpServer> server_;
};

bool Has(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

TEST_F(McpServerTest, OnlyPingIsServedBeforeInitialize) {
  EXPECT_EQ(server_->HandleLine(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"),
            R"({"jsonrpc":"2.0","id":1,"result":{}})");
  const std::string r = server_->HandleLine(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
  EXPECT_TRUE(Has(r, R"("id":2,"error":{"code":-32600,)")) << r;
  EXPECT_TRUE(Has(r, "before initialize")) << r;
}

TEST_F(McpServerTest, InitializeAnswersTheClientsSupportedVersion) {
  const std::string r = Init("2025-03-26");
  EXPECT_TRUE(Has(r, R"("protocolVersion":"2025-03-26")")) << r;
  EXPECT_TRUE(Has(r, R"("tools":{"listChanged":false})")) << r;
  EXPECT_TRUE(Has(r, R"("serverInfo":{"name":"kaizen")")) << r;
}

TEST_F(McpServerTest, InitializeAnswersTheLatestForAnUnknownVersion) {
  EXPECT_TRUE(Has(Init("1999-01-01"), R"("protocolVersion":"2025-11-25")"));
}

TEST_F(McpServerTest, InitializeWithoutProtocolVersionIsInvalidParams) {
  const std::string r =
      server_->HandleLine(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  EXPECT_TRUE(Has(r, R"("code":-32602)")) << r;
  EXPECT_TRUE(Has(Init(), "protocolVersion"));  // the session can still start
}

TEST_F(McpServerTest, UnknownMethodIsMethodNotFoundAndNotificationsGetNoReply) {
  Init();
  EXPECT_TRUE(Has(server_->HandleLine(R"({"jsonrpc":"2.0","id":3,"method":"nope"})"),
                  R"("id":3,"error":{"code":-32601,)"));
  EXPECT_EQ(server_->HandleLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), "");
  EXPECT_EQ(server_->HandleLine(R"({"jsonrpc":"2.0","method":"no/such/notification"})"), "");
}

TEST_F(McpServerTest, BatchesOnlyIn20250326) {
  Init("2025-06-18");
  const std::string refused = server_->HandleLine(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  EXPECT_TRUE(Has(refused, R"("id":null,"error":{"code":-32600,)")) << refused;
  server_.reset();
  McpOptions options;
  options.live.home = home_;
  server_ = std::make_unique<McpServer>(options);
  Init("2025-03-26");
  EXPECT_EQ(
      server_->HandleLine(
          R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","id":2,"method":"ping"}])"),
      R"([{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}])");
}

TEST_F(McpServerTest, ToolsListHasSeventeenToolsEachWithAnObjectSchema) {
  Init();
  const std::string r = server_->HandleLine(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  simdjson::dom::parser parser;
  simdjson::dom::array tools = parser.parse(r)["result"]["tools"].get_array().value();
  EXPECT_EQ(tools.size(), 17u);
  for (simdjson::dom::element t : tools) {
    std::string_view type;
    EXPECT_EQ(t["inputSchema"]["type"].get_string().get(type), simdjson::SUCCESS);
    EXPECT_EQ(type, "object");
    std::string_view description;
    EXPECT_EQ(t["description"].get_string().get(description), simdjson::SUCCESS);
    EXPECT_GT(description.size(), 40u);
  }
}

TEST_F(McpServerTest, UnknownToolIsInvalidParamsNamingTheTools) {
  Init();
  const std::string r = Call("record_everything", "{}");
  EXPECT_TRUE(Has(r, R"("id":9,"error":{"code":-32602,)")) << r;
  EXPECT_TRUE(Has(r, "record_feedback")) << r;
}

TEST_F(McpServerTest, BadArgumentsAreAToolErrorWithThePath) {
  Init();
  const std::string r = Call("should_review", R"({"task_type":"api","artifact_id":5,"x":1})");
  EXPECT_TRUE(Has(r, R"("isError":true)")) << r;
  EXPECT_TRUE(Has(r, R"({"path":"artifact_id","message":"5 is not a non-empty string"})")) << r;
  EXPECT_TRUE(
      Has(r, R"x({"path":"x","message":"unknown field (not part of should_review arguments)"})x"))
      << r;
}

TEST_F(McpServerTest, ARefusedFeedbackCarriesIngestsFieldPath) {
  Init();
  const std::string work = Call("record_work", R"({"workProduct":{"type":"code-module","id":"w1",
      "version":"v1","summary":"s","bubaConfidence":0.7,"generationContext":{"promptHash":"h",
      "memorySnapshot":[],"modelUsed":"m","generationTimeMs":1,"iterationCount":1}}})");
  ASSERT_TRUE(Has(work, R"("isError":false)")) << work;
  ASSERT_TRUE(Has(work, R"(\"stored\":true)")) << work;
  const std::string fb = Call("record_feedback", R"({"sessionId":"s","modalId":"m",
      "workProduct":{"id":"w1"},"pipelineStage":"impl","scores":[{"dimension":"naming","score":11}],
      "meta":{"timeToDecisionMs":10}})");
  EXPECT_TRUE(Has(fb, R"("isError":true)")) << fb;
  EXPECT_TRUE(Has(fb, R"({"path":"scores[0].score","message":"11 is out of range 1..10"})")) << fb;
}

TEST_F(McpServerTest, ShouldReviewIsStable) {
  Init();
  const std::string a = Call("should_review", R"({"task_type":"api","artifact_id":"a-1"})");
  EXPECT_TRUE(Has(a, R"("isError":false)")) << a;
  EXPECT_TRUE(Has(a, R"(\"level\":0)")) << a;
  EXPECT_TRUE(Has(a, R"(\"should_review\":true)")) << a;  // level 0 reviews everything
  EXPECT_EQ(a, Call("should_review", R"({"task_type":"api","artifact_id":"a-1"})"));
}

TEST_F(McpServerTest, LoopDecideHaltsAtGoodQuality) {
  Init();
  const std::string r = Call("loop_decide", R"({"iterations":[{"iteration":1,"metrics":{
      "test_coverage":1,"tests_passing":true,"security_score":1,"code_quality_score":1,
      "doc_coverage":1,"type_coverage":1}}]})");
  EXPECT_TRUE(Has(r, R"(\"action\":\"HALT\")")) << r;
  EXPECT_TRUE(Has(r, R"(\"reason\":\"quality_sufficient\")")) << r;
}

TEST_F(McpServerTest, LoopDecideRenormalizesOverTheMeasuredMetrics) {
  Init();
  // A passing suite at 80% coverage: 0.500 when the four unmeasured metrics counted as 0.
  const std::string r = Call("loop_decide", R"({"iterations":[{"iteration":1,"metrics":{
      "test_coverage":0.8,"tests_passing":true}}]})");
  EXPECT_TRUE(Has(r, R"(\"action\":\"HALT\")")) << r;
  EXPECT_TRUE(Has(r, R"(\"q_halt\":0.909091)")) << r;
  EXPECT_TRUE(Has(r, R"(\"measured\":[\"test_coverage\",\"tests_passing\"])")) << r;
  EXPECT_TRUE(Has(r, R"(\"missing\":[\"security_score\",\"code_quality_score\",)")) << r;
}

TEST_F(McpServerTest, LoopDecideRefusesAnIterationWithNoQHaltMetricNamingThem) {
  Init();
  const std::string r = Call("loop_decide", R"({"iterations":[
      {"iteration":1,"metrics":{"test_coverage":0.5}},
      {"iteration":2,"metrics":{"test_count":12}}]})");
  EXPECT_TRUE(Has(r, R"("isError":true)")) << r;
  EXPECT_TRUE(Has(r, "iterations[1].metrics")) << r;
  EXPECT_TRUE(Has(r,
                  "no metric Q(HALT) weighs; missing: test_coverage, tests_passing, "
                  "security_score, code_quality_score, doc_coverage, type_coverage"))
      << r;
  EXPECT_FALSE(Has(r, "iterations[0]")) << r;
}

TEST_F(McpServerTest, UnknownResourceIsInvalidParamsWithTheUri) {
  Init();
  const std::string r = server_->HandleLine(
      R"({"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"kaizen://nope.md"}})");
  EXPECT_TRUE(Has(r, R"("code":-32602)")) << r;
  EXPECT_TRUE(Has(r, R"("data":{"uri":"kaizen://nope.md"})")) << r;
}

TEST_F(McpServerTest, OversizedLineIsAnInvalidRequestNamingTheLimit) {
  const std::string r = server_->Oversized(5 << 20);
  EXPECT_TRUE(Has(r, R"("id":null,"error":{"code":-32600,)")) << r;
  EXPECT_TRUE(Has(r, "4194304")) << r;
}

}  // namespace
}  // namespace kaizen::serve
