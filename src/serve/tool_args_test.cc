#include "serve/tool_args.h"

#include <gtest/gtest.h>

namespace kaizen::serve {
namespace {

using model::FieldSpec;
using model::JsonType;

const model::ObjectSpec& Item() {
  static const model::ObjectSpec spec{
      "item", {ArgField("path", JsonType::kIdentifier).Req(), ArgField("n", JsonType::kInteger)}};
  return spec;
}

const model::ObjectSpec& Args() {
  static const model::ObjectSpec spec{
      "test arguments",
      {ArgField("name", JsonType::kIdentifier).Req(),
       ArgField("mode", JsonType::kIdentifier).OneOf({"fast", "slow"}),
       ArgField("ratio", JsonType::kNumber).Range(0, 1), ArgField("flag", JsonType::kBool), [] {
         FieldSpec f = ArgField("items", JsonType::kArray);
         f.element = JsonType::kObject;
         f.object = &Item();
         return f.NonEmpty();
       }()}};
  return spec;
}

std::vector<std::string> Check(const std::string& json) {
  simdjson::dom::parser parser;
  simdjson::dom::element e = parser.parse(json).value();
  std::vector<std::string> out;
  for (const auto& err : CheckArguments(e, Args())) out.push_back(err.ToString());
  return out;
}

TEST(ToolArgsTest, ValidArgumentsPass) {
  EXPECT_TRUE(Check(R"({"name":"a","mode":"fast","ratio":0.5,"flag":true,"items":[{"path":"p"}]})")
                  .empty());
}

TEST(ToolArgsTest, MissingRequiredNamesTheField) {
  EXPECT_EQ(Check("{}"), std::vector<std::string>{"name: missing (required non-empty string)"});
}

TEST(ToolArgsTest, UnknownPropertyIsRefused) {
  EXPECT_EQ(Check(R"({"name":"a","nmae":"b"})"),
            std::vector<std::string>{"nmae: unknown field (not part of test arguments)"});
}

TEST(ToolArgsTest, WrongTypeBadEnumAndRangeNameValueAndRule) {
  EXPECT_EQ(Check(R"({"name":3,"mode":"medium","ratio":2,"flag":"yes"})"),
            (std::vector<std::string>{
                "name: 3 is not a non-empty string", "mode: \"medium\" is not one of fast, slow",
                "ratio: 2 is out of range 0..1", "flag: \"yes\" is not a boolean"}));
}

TEST(ToolArgsTest, NestedErrorsCarryTheArrayIndex) {
  EXPECT_EQ(Check(R"({"name":"a","items":[{"path":"p"},{"n":1.5}]})"),
            (std::vector<std::string>{"items[1].path: missing (required non-empty string)",
                                      "items[1].n: 1.5 is not an integer"}));
  EXPECT_EQ(Check(R"({"name":"a","items":[]})"),
            std::vector<std::string>{"items: is empty (at least one element is required)"});
}

TEST(ToolArgsTest, ArgumentsMustBeAnObject) {
  simdjson::dom::parser parser;
  const auto errors = CheckArguments(parser.parse(std::string("[1]")).value(), Args());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].ToString(), "(arguments): an array is not an object");
}

TEST(ToolArgsTest, SchemaListsRequiredEnumRangeAndClosesObjects) {
  const std::string s = JsonSchemaOf(Args());
  EXPECT_NE(s.find(R"("required":["name"])"), std::string::npos) << s;
  EXPECT_NE(s.find(R"("enum":["fast","slow"])"), std::string::npos) << s;
  EXPECT_NE(s.find(R"("minimum":0.0,"maximum":1.0)"), std::string::npos) << s;
  EXPECT_NE(s.find(R"("additionalProperties":false)"), std::string::npos) << s;
  EXPECT_NE(s.find(R"("minItems":1)"), std::string::npos) << s;
  simdjson::dom::parser parser;
  EXPECT_EQ(parser.parse(s).error(), simdjson::SUCCESS);
}

TEST(ToolArgsTest, FeedbackSchemaAcceptsAWorkReferenceAndOmitsKindAndEnrichment) {
  SchemaOptions options;
  options.omit = {"kind"};
  options.work_reference = true;
  const std::string s = JsonSchemaOf(model::SchemaFor(model::EventKind::kFeedback), options);
  EXPECT_NE(s.find(R"("workProduct":{"anyOf":[)"), std::string::npos) << s;
  EXPECT_EQ(s.find(R"("kind":)"), std::string::npos);
  EXPECT_EQ(s.find("_predictionDelta"), std::string::npos);
  EXPECT_NE(s.find(R"("sessionId")"), std::string::npos);
}

}  // namespace
}  // namespace kaizen::serve
