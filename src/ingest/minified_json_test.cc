#include "ingest/minified_json.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>
#include <vector>

namespace kaizen::ingest {
namespace {

std::vector<MinifiedMember> Members(std::string_view object) {
  std::vector<MinifiedMember> out;
  ForEachMinifiedMember(object, [&](const MinifiedMember& m) { out.push_back(m); });
  return out;
}

TEST(MinifiedJson, SplitsEveryKindOfValue) {
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

TEST(MinifiedJson, EscapedQuotesAndBackslashesDoNotEndAString) {
  const std::string object = R"({"a\"b":"x\\","c":"\"}\\\"","d":1})";
  auto m = Members(object);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].key, R"(a\"b)");
  EXPECT_EQ(m[0].value, R"("x\\")");
  EXPECT_EQ(m[1].value, R"("\"}\\\"")");
  EXPECT_EQ(m[2].value, "1");
}

TEST(MinifiedJson, EscapesAndBracketsAtEveryOffsetOfA16ByteBlock) {
  // The scan reads 16 bytes at a time: put the escaped quote, the escaped backslash and the
  // closing bracket before, inside and after each block.
  for (size_t pad = 0; pad <= 40; ++pad) {
    const std::string filler(pad, 'x');
    const std::string value = "[\"" + filler + "\\\"]\\\\\",{\"k\":\"" + filler + "}\"}]";
    const std::string object = "{\"a\":" + value + ",\"b\":" + std::to_string(pad) + "}";
    auto m = Members(object);
    ASSERT_EQ(m.size(), 2u) << object;
    EXPECT_EQ(m[0].value, value) << object;
    EXPECT_EQ(m[1].value, std::to_string(pad));
  }
}

TEST(MinifiedJson, EmptyObjectHasNoMembers) { EXPECT_TRUE(Members("{}").empty()); }

TEST(MinifiedJson, MembersRejoinedAreTheObject) {
  // What simdjson minifies, split and joined again, is the same text: nothing is lost or added.
  const std::string pretty = R"({ "a" : [ 1 , 2 ], "b" : { "c" : "d e" }, "f" : "\u00e9\n" })";
  std::string minified(pretty.size(), '\0');
  size_t size = 0;
  ASSERT_EQ(simdjson::minify(pretty.data(), pretty.size(), minified.data(), size),
            simdjson::SUCCESS);
  minified.resize(size);
  std::string joined = "{";
  for (const auto& m : Members(minified)) {
    if (joined.size() > 1) joined += ',';
    joined += m.text;
  }
  joined += '}';
  EXPECT_EQ(joined, minified);
}

TEST(MinifiedJson, TruncatedInputStopsWithoutReadingPastTheEnd) {
  // Outside the REQUIRES, but it must not crash: every prefix of a valid object.
  const std::string object = R"({"a":"x\"y","b":{"c":[1,2]},"d":true})";
  for (size_t n = 0; n <= object.size(); ++n) {
    size_t count = 0;
    ForEachMinifiedMember(std::string_view(object).substr(0, n), [&](const MinifiedMember& m) {
      ++count;
      EXPECT_LE(m.text.data() + m.text.size(), object.data() + n);
    });
    EXPECT_LE(count, 3u);
  }
}

}  // namespace
}  // namespace kaizen::ingest
