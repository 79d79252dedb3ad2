#include "learn/rules/session_prompts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

model::PromptView Prompt(int64_t at_ms, std::string_view judgement, std::string_view text,
                         std::string_view instruction = {},
                         std::vector<std::string_view> themes = {}) {
  model::PromptView p;
  p.at_ms = at_ms;
  p.judgement = judgement;
  p.text = text;
  p.instruction = instruction;
  p.themes = std::move(themes);
  return p;
}

TEST(SessionPrompts, AThemeTakesThePolarityOfTheJudgementAndQuotesThePrompt) {
  auto themes = PromptThemes(Prompt(1, "correction", "no, handle the error", "handle the error",
                                    {"error-handling", "error-handling"}));
  ASSERT_EQ(themes.size(), 1u);  // a theme counts once per prompt
  EXPECT_EQ(themes[0].theme, "error-handling");
  EXPECT_EQ(themes[0].polarity, -1);
  EXPECT_EQ(themes[0].example, "no, handle the error");
  EXPECT_EQ(themes[0].source, kSourceSessionPrompt);
  EXPECT_EQ(PromptThemes(Prompt(1, "positive", "perfect", {}, {"tests"}))[0].polarity, 1);
  EXPECT_TRUE(PromptThemes(Prompt(1, "none", "add a test", {}, {"tests"})).empty());
}

TEST(SessionPrompts, TheSameInstructionSaidTwiceIsOneLineCountedTwiceNewestFirst) {
  SessionPrompts p;
  p.Add(Prompt(10, "correction", "no, use pnpm, not npm", "use pnpm, not npm"));
  p.Add(Prompt(20, "instruction", "always run the linter", "always run the linter"));
  p.Add(Prompt(30, "correction", "NO, use pnpm,  not npm.", "use pnpm,  not npm."));
  p.Add(Prompt(40, "positive", "perfect, thanks"));
  const std::vector<ToldInstruction> told = p.Told(8, "");
  ASSERT_EQ(told.size(), 2u);
  EXPECT_EQ(told[0].text, "use pnpm,  not npm.");  // the newest wording
  EXPECT_EQ(told[0].times, 2);
  EXPECT_EQ(told[0].last_ms, 30);
  EXPECT_EQ(told[1].text, "always run the linter");
  EXPECT_EQ(p.corrections(), 2);
  EXPECT_EQ(p.instructions(), 1);
  EXPECT_EQ(p.positives(), 1);
  EXPECT_EQ(p.Told(1, "").size(), 1u);
}

TEST(SessionPrompts, AVerdictWithoutAnInstructionIsCountedButNotTold) {
  SessionPrompts p;
  p.Add(Prompt(1, "correction", "that's wrong"));
  EXPECT_TRUE(p.Told(8, "").empty());
  EXPECT_EQ(p.corrections(), 1);
}

model::PromptView In(std::string_view project, int64_t at_ms, std::string_view instruction) {
  model::PromptView p = Prompt(at_ms, "correction", instruction, instruction);
  p.project = project;
  return p;
}

std::vector<std::string> Texts(const std::vector<ToldInstruction>& told) {
  std::vector<std::string> out;
  for (const ToldInstruction& t : told) out.push_back(t.text);
  return out;
}

TEST(SessionPrompts, WhileOneProjectIsNamedEveryInstructionHoldsEverywhere) {
  SessionPrompts p;
  p.Add(In("/home/ana/src/webapp", 1, "use pnpm"));
  EXPECT_EQ(Texts(p.Told(8, "")), std::vector<std::string>{"use pnpm"});
  EXPECT_EQ(Texts(p.Told(8, "api")), std::vector<std::string>{"use pnpm"});
  EXPECT_EQ(p.Told(8, "")[0].projects, std::vector<std::string>{"webapp"});
}

TEST(SessionPrompts, AnInstructionHoldsInTheProjectsItWasSaidInUntilSaidInTwo) {
  SessionPrompts p;
  p.Add(In("/home/ana/src/webapp", 1, "use pnpm"));
  p.Add(In("/home/ana/src/api", 2, "run cargo clippy"));
  p.Add(In("/srv/shared", 3, "write the changelog"));
  p.Add(In("", 4, "never force-push"));  // a prompt naming no project: everywhere
  EXPECT_EQ(Texts(p.Told(8, "/home/bo/webapp/")),
            (std::vector<std::string>{"never force-push", "use pnpm"}));
  EXPECT_EQ(Texts(p.Told(8, "api")),
            (std::vector<std::string>{"never force-push", "run cargo clippy"}));
  EXPECT_EQ(Texts(p.Told(8, "")), std::vector<std::string>{"never force-push"});
  p.Add(In("api", 5, "use pnpm"));  // said in a second project: everywhere
  EXPECT_EQ(Texts(p.Told(8, "shared")),
            (std::vector<std::string>{"use pnpm", "never force-push", "write the changelog"}));
  EXPECT_EQ(p.Told(1, "shared").size(), 1u);
}

}  // namespace
}  // namespace kaizen::learn
