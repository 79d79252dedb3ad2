#include "ingest/json_tokens.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>
#include <vector>

namespace kaizen::ingest {
namespace {

struct Member {
  std::string key, value, text;  // value and "key":value, minified
};

class JsonTokensTest : public ::testing::Test {
 protected:
  // The members of `object` (one JSON object), as the tokens of its parse give them.
  std::vector<Member> Members(std::string_view object) {
    simdjson::dom::element doc;
    EXPECT_EQ(parser_.parse(object).get(doc), simdjson::SUCCESS) << object;
    const JsonTokens tokens = JsonTokens::Of(parser_, object);
    EXPECT_TRUE(tokens.ok());
    std::vector<Member> out;
    if (!tokens.ok()) return out;
    EXPECT_EQ(tokens.First(0), '{');
    tokens.ForEachMember(0, [&](const TokenMember& m) {
      Member member;
      member.key = tokens.StringAt(m.key);
      tokens.AppendMinified(m.value, m.end, &member.value);
      tokens.AppendMinified(m.key, m.end, &member.text);
      out.push_back(member);
    });
    return out;
  }

  simdjson::dom::parser parser_;
};

TEST_F(JsonTokensTest, SplitsEveryKindOfValue) {
  const std::string object =
      R"({"s":"a,b}c","n":-1.5e3,"t":true,"z":null,"o":{"x":[1,{"y":"]"}]},"a":[],"e":{}})";
  auto m = Members(object);
  ASSERT_EQ(m.size(), 7u);
  EXPECT_EQ(m[0].key, "s");
  EXPECT_EQ(m[0].value, R"("a,b}c")");
  EXPECT_EQ(m[0].text, R"("s":"a,b}c")");
  EXPECT_EQ(m[1].value, "-1.5e3");
  EXPECT_EQ(m[2].value, "true");
  EXPECT_EQ(m[3].value, "null");
  EXPECT_EQ(m[4].value, R"({"x":[1,{"y":"]"}]})");
  EXPECT_EQ(m[5].value, "[]");
  EXPECT_EQ(m[6].value, "{}");
}

TEST_F(JsonTokensTest, EscapedQuotesAndBackslashesDoNotEndAString) {
  const std::string object = R"({"a\"b":"x\\","c":"\"}\\\"","d":1})";
  auto m = Members(object);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].key, R"(a\"b)");
  EXPECT_EQ(m[0].value, R"("x\\")");
  EXPECT_EQ(m[1].value, R"("\"}\\\"")");
  EXPECT_EQ(m[2].value, "1");
}

TEST_F(JsonTokensTest, WhitespaceBetweenTokensIsLeftOutAndInsideStringsKept) {
  const std::string pretty =
      "{ \"a\" : [ 1 , 2 ]\t,\r\n \"b\" : { \"c\" : \"d  e \" } , \"f\" : \"\\u00e9\\n\" ,"
      "\"g\":-2.5e+3 ,\"h\" :true}";
  auto m = Members(pretty);
  ASSERT_EQ(m.size(), 5u);
  EXPECT_EQ(m[0].text, R"("a":[1,2])");
  EXPECT_EQ(m[1].text, R"("b":{"c":"d  e "})");
  EXPECT_EQ(m[2].key, "f");
  EXPECT_EQ(m[2].value, R"("\u00e9\n")");
  EXPECT_EQ(m[3].value, "-2.5e+3");
  EXPECT_EQ(m[4].text, R"("h":true)");
}

TEST_F(JsonTokensTest, MembersRejoinedAreTheMinifiedObject) {
  // Split and joined again, the text is what simdjson minifies it to: nothing lost or added.
  for (const std::string& object :
       {std::string(R"({ "a" : [ 1 , 2 ], "b" : { "c" : "d e" }, "f" : "\u00e9\n" })"),
        std::string(R"({"x":{"y":[1,[2,{"z":"}"}]]},"w":[[],{},[{}],""],"v":"a}b]c{d[e"})")}) {
    std::string minified(object.size(), '\0');
    size_t size = 0;
    ASSERT_EQ(simdjson::minify(object.data(), object.size(), minified.data(), size),
              simdjson::SUCCESS);
    minified.resize(size);
    std::string joined = "{";
    for (const auto& m : Members(object)) {
      if (joined.size() > 1) joined += ',';
      joined += m.text;
    }
    joined += '}';
    EXPECT_EQ(joined, minified);
  }
}

TEST_F(JsonTokensTest, NestedObjectsAreWalkedFromTheirOpeningBrace) {
  const std::string object = R"({"meta":{"a":1,"b":{"c":[2]},"d":"e"},"z":0})";
  simdjson::dom::element doc;
  ASSERT_EQ(parser_.parse(object).get(doc), simdjson::SUCCESS);
  const JsonTokens tokens = JsonTokens::Of(parser_, object);
  ASSERT_TRUE(tokens.ok());
  std::vector<std::string> keys;
  tokens.ForEachMember(0, [&](const TokenMember& top) {
    if (tokens.StringAt(top.key) != "meta") return;
    ASSERT_EQ(tokens.First(top.value), '{');
    tokens.ForEachMember(top.value, [&](const TokenMember& m) {
      std::string text;
      tokens.AppendMinified(m.key, m.end, &text);
      keys.push_back(text);
    });
  });
  EXPECT_EQ(keys, (std::vector<std::string>{R"("a":1)", R"("b":{"c":[2]})", R"("d":"e")"}));
}

TEST_F(JsonTokensTest, EmptyObjectHasNoMembers) { EXPECT_TRUE(Members("{}").empty()); }

TEST_F(JsonTokensTest, TheTokensOfAPartObjectEndTheWalkWithinThem) {
  // Outside the REQUIRES (simdjson hands over whole values only), but it must not read past the
  // last token: every prefix of the tokens of an object with nested values.
  const std::string object = R"({"a":[1,{"b":2}],"c":{"d":[]},"e":"f"})";
  simdjson::dom::element doc;
  ASSERT_EQ(parser_.parse(object).get(doc), simdjson::SUCCESS);
  const JsonTokens whole = JsonTokens::Of(parser_, object);
  ASSERT_TRUE(whole.ok());
  const std::vector<uint32_t> offsets(
      parser_.implementation->structural_indexes.get(),
      parser_.implementation->structural_indexes.get() + whole.size());
  for (size_t n = 1; n <= offsets.size(); ++n) {
    const JsonTokens part(object, std::span<const uint32_t>(offsets.data(), n));
    size_t members = 0;
    part.ForEachMember(0, [&](const TokenMember& m) {
      EXPECT_LT(m.end, n);
      ++members;
    });
    EXPECT_LE(members, 3u) << n;
    if (n == offsets.size()) EXPECT_EQ(members, 3u);
  }
}

TEST(JsonTokens, OffsetsPastTheTextAreNotOk) {
  const std::vector<uint32_t> offsets = {0, 1, 4, 5, 6};  // { "a" : 1 }
  EXPECT_TRUE(JsonTokens(R"({"a":1})", offsets).ok());
  EXPECT_FALSE(JsonTokens(R"({"a":)", offsets).ok());
  EXPECT_FALSE(JsonTokens(R"({"a":1})", {}).ok());
  EXPECT_FALSE(JsonTokens::Of(simdjson::dom::parser(), R"({"a":1})").ok());
}

}  // namespace
}  // namespace kaizen::ingest
