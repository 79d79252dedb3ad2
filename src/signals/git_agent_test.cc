#include "signals/git_agent.h"

#include <gtest/gtest.h>

namespace kaizen::signals {
namespace {

AgentMatcher Default() { return AgentMatcher::Create(kDefaultAgentPattern).value(); }

TEST(GitAgentTest, DefaultPatternMatchesCommonAgentAuthors) {
  AgentMatcher m = Default();
  EXPECT_EQ(m.Match("Claude", "noreply@anthropic.com", "fix"), "Claude <noreply@anthropic.com>");
  EXPECT_TRUE(m.Match("Copilot", "198982749+Copilot@users.noreply.github.com", ""));
  EXPECT_TRUE(m.Match("copilot-swe-agent[bot]", "x@users.noreply.github.com", ""));
  EXPECT_TRUE(m.Match("dependabot[bot]", "support@github.com", ""));
  EXPECT_TRUE(m.Match("Cursor Agent", "cursoragent@cursor.com", ""));
  EXPECT_TRUE(m.Match("Jo (aider)", "jo@example.com", ""));
  EXPECT_TRUE(m.Match("chatgpt-codex-connector", "codex@openai.com", ""));
}

TEST(GitAgentTest, DefaultPatternLeavesPeopleAndLookalikeWordsAlone) {
  AgentMatcher m = Default();
  EXPECT_FALSE(m.Match("Alice Example", "alice@example.com", "Add a cursory check"));
  EXPECT_FALSE(m.Match("Claudette Colbert", "claudette@example.com", "docs"));
  EXPECT_FALSE(m.Match("Bob", "bob@robotics.example", "recursor"));
}

TEST(GitAgentTest, CoAuthoredByTrailerMakesAHumanCommitAnAgents) {
  AgentMatcher m = Default();
  auto who = m.Match("Alice", "alice@example.com",
                     "Add parser\n\nco-authored-by: Bob <bob@example.com>\n"
                     "Co-Authored-By: Claude <noreply@anthropic.com>\n");
  EXPECT_EQ(who, "Claude <noreply@anthropic.com>");
}

TEST(GitAgentTest, CoAuthorsReadsEveryTrailerCaseInsensitively) {
  auto co =
      CoAuthors("x\n\nCo-authored-by:  A <a@x>  \r\nCO-AUTHORED-BY: B <b@x>\nSigned-off-by: C\n");
  ASSERT_EQ(co.size(), 2u);
  EXPECT_EQ(co[0], "A <a@x>");
  EXPECT_EQ(co[1], "B <b@x>");
}

TEST(GitAgentTest, CustomPatternIsCaseInsensitive) {
  auto m = AgentMatcher::Create("robo-dev");
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->Match("ROBO-DEV", "r@example.com", ""));
  EXPECT_FALSE(m->Match("Claude", "noreply@anthropic.com", ""));
}

TEST(GitAgentTest, BadRegexNamesTheFlagAndTheReason) {
  auto m = AgentMatcher::Create("(claude");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(m.status().message().find("--agent \"(claude\""), std::string::npos)
      << m.status().message();
  EXPECT_NE(m.status().message().find("missing )"), std::string::npos) << m.status().message();
}

}  // namespace
}  // namespace kaizen::signals
