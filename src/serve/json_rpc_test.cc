#include "serve/json_rpc.h"

#include <gtest/gtest.h>

namespace kaizen::serve::jsonrpc {
namespace {

TEST(JsonRpcTest, NotJsonIsAParseErrorWithNullId) {
  const Line line = ParseLine("{\"jsonrpc\":\"2.0\",");
  EXPECT_TRUE(line.messages.empty());
  EXPECT_NE(line.error.find(R"("id":null,"error":{"code":-32700,)"), std::string::npos)
      << line.error;
}

TEST(JsonRpcTest, ARequestKeepsItsIdMethodAndParams) {
  const Line line =
      ParseLine(R"({"jsonrpc":"2.0","id":"a\"b","method":"tools/call","params":{"name":"x"}})");
  ASSERT_EQ(line.messages.size(), 1u);
  ASSERT_TRUE(line.messages[0].request);
  const Request& r = *line.messages[0].request;
  EXPECT_EQ(r.id, R"("a\"b")");
  EXPECT_EQ(r.method, "tools/call");
  EXPECT_EQ(r.params, R"({"name":"x"})");
  EXPECT_FALSE(r.notification());
}

TEST(JsonRpcTest, WithoutIdItIsANotification) {
  const Line line = ParseLine(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  ASSERT_TRUE(line.messages.at(0).request);
  EXPECT_TRUE(line.messages[0].request->notification());
}

TEST(JsonRpcTest, NotAnObjectIsAnInvalidRequest) {
  const Line line = ParseLine("42");
  ASSERT_EQ(line.messages.size(), 1u);
  EXPECT_FALSE(line.messages[0].request);
  EXPECT_NE(line.messages[0].error.find(R"("id":null,"error":{"code":-32600,)"), std::string::npos);
}

TEST(JsonRpcTest, MissingJsonrpcIsAnInvalidRequestThatKeepsTheId) {
  const Line line = ParseLine(R"({"id":7,"method":"ping"})");
  EXPECT_NE(line.messages.at(0).error.find(R"("id":7,"error":{"code":-32600,)"), std::string::npos)
      << line.messages[0].error;
  EXPECT_NE(line.messages[0].error.find("jsonrpc"), std::string::npos);
}

TEST(JsonRpcTest, NullOrFractionalIdIsAnInvalidRequest) {
  for (const char* text : {R"({"jsonrpc":"2.0","id":null,"method":"ping"})",
                           R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})",
                           R"({"jsonrpc":"2.0","id":{},"method":"ping"})"}) {
    const Line line = ParseLine(text);
    EXPECT_FALSE(line.messages.at(0).request) << text;
    EXPECT_NE(line.messages[0].error.find("-32600"), std::string::npos) << text;
  }
}

TEST(JsonRpcTest, MethodMustBeAString) {
  const Line line = ParseLine(R"({"jsonrpc":"2.0","id":1,"method":3})");
  EXPECT_NE(line.messages.at(0).error.find(R"("id":1,"error":{"code":-32600,)"), std::string::npos);
}

TEST(JsonRpcTest, ScalarParamsAreAnInvalidRequest) {
  const Line line = ParseLine(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":"x"})");
  EXPECT_NE(line.messages.at(0).error.find("params"), std::string::npos);
}

TEST(JsonRpcTest, AClientResponseIsDroppedSilently) {
  const Line line = ParseLine(R"({"jsonrpc":"2.0","id":1,"result":{}})");
  ASSERT_EQ(line.messages.size(), 1u);
  EXPECT_FALSE(line.messages[0].request);
  EXPECT_TRUE(line.messages[0].error.empty());
}

TEST(JsonRpcTest, ABatchYieldsEachMessageInOrder) {
  const Line line = ParseLine(R"([{"jsonrpc":"2.0","id":1,"method":"ping"},5])");
  EXPECT_TRUE(line.batch);
  ASSERT_EQ(line.messages.size(), 2u);
  EXPECT_TRUE(line.messages[0].request);
  EXPECT_NE(line.messages[1].error.find("-32600"), std::string::npos);
}

TEST(JsonRpcTest, AnEmptyBatchIsOneInvalidRequest) {
  const Line line = ParseLine("[]");
  EXPECT_NE(line.error.find(R"("id":null,"error":{"code":-32600,)"), std::string::npos);
}

TEST(JsonRpcTest, ErrorResponseCarriesData) {
  EXPECT_EQ(
      ErrorResponse("3", kInvalidParams, "bad \"x\"", R"({"uri":"u"})"),
      R"({"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad \"x\"","data":{"uri":"u"}}})");
  EXPECT_EQ(ResultResponse("\"a\"", "{}"), R"({"jsonrpc":"2.0","id":"a","result":{}})");
}

}  // namespace
}  // namespace kaizen::serve::jsonrpc
