// Codex's config.toml as toml++ 3.3.0 reads it: in ASCII, the same values.
#include "agents/toml_text.h"

#include <gtest/gtest.h>

#include <string>

namespace kaizen::agents {
namespace {

std::string Message(std::string_view text) {
  Result<toml::table> r = ParseTomlText(text, "c.toml");
  return r.ok() ? "ok" : r.status().message();
}

TEST(TomlText, NonAsciiStringsKeepTheirValuesInEveryKindOfString) {
  Result<toml::table> r = ParseTomlText(
      "a = \"caf\xc3\xa9\"\n"
      "b = 'jos\xc3\xa9 \\ \"q\"'\n"
      "c = '''\nl\xc3\xa9\n\"\"\"'''\n"
      "d = \"\"\"\xf0\x9f\x99\x82 \\\" \"\"\"\n"
      "[projects.'/home/jos\xc3\xa9'] # caf\xc3\xa9\n"
      "trust_level = \"trusted\"\n",
      "c.toml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->at_path("a").value<std::string>(), "caf\xc3\xa9");
  EXPECT_EQ(r->at_path("b").value<std::string>(), "jos\xc3\xa9 \\ \"q\"");
  EXPECT_EQ(r->at_path("c").value<std::string>(), "l\xc3\xa9\n\"\"\"");
  EXPECT_EQ(r->at_path("d").value<std::string>(), "\xf0\x9f\x99\x82 \" ");
  const toml::table* projects = r->at_path("projects").as_table();
  ASSERT_NE(projects, nullptr);
  EXPECT_TRUE(projects->contains("/home/jos\xc3\xa9"));
}

TEST(TomlText, WhatToml100ForbidsIsRefusedWithItsLineAndColumn) {
  EXPECT_EQ(Message("a = 1\n\xc3\xa9 = 2\n"),
            "c.toml:2:1: not valid TOML: a non-ASCII character outside a string or comment");
  EXPECT_EQ(Message("a = \"x\x01\"\n"), "c.toml:1:7: not valid TOML: control character 0x01");
  EXPECT_EQ(Message("a = \"\xff\"\n"), "c.toml:1:6: not valid TOML: not UTF-8");
  EXPECT_EQ(Message("a = \"\\\xc3\xa9\"\n"),
            "c.toml:1:6: not valid TOML: an escape of a non-ASCII character");
  EXPECT_EQ(Message("a = \"x\nb = 1\n"),
            "c.toml:1:5: not valid TOML: a string that does not end on its line");
  EXPECT_EQ(Message("a = '''x\n"), "c.toml:1:5: not valid TOML: a string that does not end");
}

TEST(TomlText, InputsThatReachedTheBugOfTomlPlusPlusAreRefused) {
  // Found by fuzzing: a quote after a value, where toml++ 3.3.0 and a reading of where strings
  // are disagreed, then a non-ASCII character toml++ reached its TOML_UNREACHABLE on.
  EXPECT_EQ(Message("b =0'''\xc3\xa9''a\n\xc3\xa9"),
            "c.toml:1:5: not valid TOML: a quote where no string can begin");
  EXPECT_NE(Message("a = 7=['xP\xef\xbb\xbb a'\nb\tB="), "ok");
  EXPECT_NE(Message("a = \"\"\"x\"\"\"\"\xc3\xa9\n"), "ok");
}

}  // namespace
}  // namespace kaizen::agents
