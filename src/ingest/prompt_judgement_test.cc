#include "text/prompt_judgement.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ingest/privacy.h"

namespace kaizen::ingest {
namespace {

using J = text::PromptJudgement;

J Judge(std::string_view text) { return text::ReadPrompt(text).judgement; }

TEST(PromptJudgement, ARefusalThatRedirectsIsACorrection) {
  EXPECT_EQ(Judge("no, use Python instead"), J::kCorrection);
  EXPECT_EQ(Judge("NO, stop doing that"), J::kCorrection);
  EXPECT_EQ(Judge("I said pnpm, not npm"), J::kCorrection);
  EXPECT_EQ(Judge("that\xE2\x80\x99s wrong, the API returns JSON"), J::kCorrection);
  EXPECT_EQ(Judge("Why did you delete that file?"), J::kCorrection);
  EXPECT_EQ(Judge("нет, используй pnpm"), J::kCorrection);
  EXPECT_EQ(Judge("你忘了加 timeout"), J::kCorrection);
}

TEST(PromptJudgement, StandingPreferencesAreInstructions) {
  EXPECT_EQ(Judge("remember: always use gpt-5.1"), J::kInstruction);
  EXPECT_EQ(Judge("Always use interfaces here"), J::kInstruction);
  EXPECT_EQ(Judge("Make sure to validate inputs"), J::kInstruction);
  EXPECT_EQ(Judge("answer in english please"), J::kInstruction);
}

TEST(PromptJudgement, PraiseOfTheLastTurnIsPositiveButThanksAloneIsNot) {
  EXPECT_EQ(Judge("perfect, thanks"), J::kPositive);
  EXPECT_EQ(Judge("perfect! that's exactly what I wanted"), J::kPositive);
  EXPECT_EQ(Judge("thanks!"), J::kNone);
  EXPECT_EQ(Judge("The weather is nice today"), J::kNone);
}

TEST(PromptJudgement, RequestsQuestionsAndSlashCommandsTeachNothing) {
  EXPECT_EQ(Judge("please help me fix this issue"), J::kNone);
  EXPECT_EQ(Judge("How do I stop the server?"), J::kNone);
  EXPECT_EQ(Judge("the build is broken"), J::kNone);
  EXPECT_EQ(Judge("/compact"), J::kNone);
  EXPECT_EQ(Judge("   "), J::kNone);
  EXPECT_EQ(Judge("donate to charity"), J::kNone);
}

TEST(PromptJudgement, TheInstructionIsWhatToDoWithoutTheOpeningVerdict) {
  EXPECT_EQ(text::ReadPrompt("no, use Python instead").instruction, "use Python instead");
  EXPECT_EQ(text::ReadPrompt("remember: always use gpt-5.1").instruction, "always use gpt-5.1");
  EXPECT_EQ(text::ReadPrompt("that's wrong, the API returns JSON").instruction,
            "the API returns JSON");
  EXPECT_EQ(text::ReadPrompt("that's wrong").instruction, "");
  EXPECT_EQ(text::ReadPrompt("perfect, thanks").instruction, "");
  EXPECT_EQ(text::ReadPrompt("你忘了加 timeout").instruction, "你忘了加 timeout");
}

TEST(PromptJudgement, WordsThatOnlyPointAtTheConversationAreNoInstruction) {
  for (const char* said : {"Use this instead", "Not like that, do it this way",
                           "That's not what I asked for", "no, try again", "That is wrong"}) {
    EXPECT_EQ(text::ReadPrompt(said).judgement, J::kCorrection) << said;
    EXPECT_EQ(text::ReadPrompt(said).instruction, "") << said;
  }
  EXPECT_EQ(text::ReadPrompt("I said use async").instruction, "I said use async");
  EXPECT_EQ(text::ReadPrompt("always answer in English").instruction, "always answer in English");
  EXPECT_EQ(text::ReadPrompt("Remember to run tests first").instruction, "run tests first");
}

TEST(PromptJudgement, NamesRoundTrip) {
  for (J j : {J::kNone, J::kCorrection, J::kInstruction, J::kPositive}) {
    EXPECT_EQ(text::ParsePromptJudgement(PromptJudgementName(j)), j);
  }
  EXPECT_EQ(text::ParsePromptJudgement("maybe"), std::nullopt);
}

struct Labelled {
  std::string text;
  bool teaches;
};

std::vector<Labelled> LoadFixture(const std::string& name) {
  std::ifstream in(std::string(KAIZEN_SOURCE_DIR) + "/tests/fixtures/prompts/" + name);
  std::vector<Labelled> out;
  simdjson::dom::parser parser;
  for (std::string line; std::getline(in, line);) {
    simdjson::dom::element e = parser.parse(line);
    out.push_back({std::string(e["text"].get_string().value()), e["teaches"].get_bool().value()});
  }
  return out;
}

// What the hook records: a judgement other than none, on a prompt that holds no secret (a secret
// is never learned from: "remember: the api key is sk-live-...").
bool Teaches(const Redactor& redactor, const std::string& text) {
  std::vector<PiiMatch> pii;
  redactor.Find(text, &pii);
  for (const PiiMatch& m : pii) {
    if (m.category == PiiCategory::kSecret) return false;
  }
  return Judge(text) != J::kNone;
}

// Issue 28's bar: precision and recall of "teaches something" at least 0.8 each on the peers'
// labelled prompts; the real Claude Code prompts (plain requests) all teach nothing.
TEST(PromptJudgement, PeersLabelledPromptsAreReadWithPrecisionAndRecallOfAtLeastPointEight) {
  auto redactor = Redactor::Create(PrivacyConfig{});
  ASSERT_TRUE(redactor.ok());
  const std::vector<Labelled> labelled = LoadFixture("labelled_prompts.jsonl");
  ASSERT_EQ(labelled.size(), 119u);
  int tp = 0, fp = 0, fn = 0;
  std::string misread;
  for (const Labelled& l : labelled) {
    const bool said = Teaches(**redactor, l.text);
    tp += said && l.teaches;
    fp += said && !l.teaches;
    fn += !said && l.teaches;
    if (said != l.teaches) misread += (said ? "  +" : "  -") + l.text + "\n";
  }
  const double precision = double(tp) / (tp + fp), recall = double(tp) / (tp + fn);
  std::cout << "prompt judgement on " << labelled.size() << " labelled prompts: precision "
            << precision << ", recall " << recall << "\n"
            << misread;
  EXPECT_GE(precision, 0.8);
  EXPECT_GE(recall, 0.8);
  for (const Labelled& l : LoadFixture("claude_code_prompts.jsonl")) {
    EXPECT_FALSE(Teaches(**redactor, l.text)) << l.text;
  }
}

}  // namespace
}  // namespace kaizen::ingest
