#include "learn/reviews/question_bank.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

constexpr int64_t kHour = 3'600'000;
constexpr int64_t kNow = 1'765'000'000'000;

model::AdminView Asked(const BankQuestion& q, std::string_view session, int64_t at = kNow - kHour) {
  model::AdminView a;
  a.action = "ask";
  a.question_id = q.id;
  a.question = q.text;
  a.session_id = session;
  a.at_ms = at;
  return a;
}

QuestionMoment At(std::string_view session, std::string_view person = {}) {
  QuestionMoment m;
  m.session = session;
  m.person = person;
  m.now_ms = kNow;
  return m;
}

TEST(QuestionBank, TheDefaultBankIsSeed001sFifteenQuestions) {
  const auto& bank = DefaultQuestionBank();
  ASSERT_EQ(bank.size(), 15u);
  EXPECT_EQ(bank.front().text, "Do you prefer detailed explanations or concise answers?");
  EXPECT_EQ(bank.back().text, "Is there something you wish I would do that I haven't?");
  std::set<std::string> ids;
  for (const BankQuestion& q : bank) ids.insert(q.id);
  EXPECT_EQ(ids.size(), 15u);
  EXPECT_EQ(FrictionQuestion().text, "What would have helped?");
}

TEST(QuestionBank, NoQuestionRepeatsBeforeTheBankIsUsedUp) {
  QuestionTracker t;
  const auto& bank = DefaultQuestionBank();
  std::vector<std::string> asked;
  for (size_t i = 0; i < bank.size() + 2; ++i) {
    const NextQuestion next = t.Next(bank, At("s" + std::to_string(i)), SignalWeightConfig{});
    ASSERT_TRUE(next.question) << next.why;
    asked.push_back(next.question->id);
    t.AddAdmin(Asked(*next.question, "s" + std::to_string(i)));
  }
  EXPECT_EQ(std::set<std::string>(asked.begin(), asked.begin() + 15).size(), 15u);
  EXPECT_EQ(asked[15], bank[0].id);  // the second round starts over, in bank order
  EXPECT_EQ(asked[16], bank[1].id);
}

TEST(QuestionBank, NeverTwiceInASession) {
  QuestionTracker t;
  const auto& bank = DefaultQuestionBank();
  t.AddAdmin(Asked(bank[0], "s1"));
  const NextQuestion next = t.Next(bank, At("s1"), SignalWeightConfig{});
  EXPECT_FALSE(next.question);
  EXPECT_EQ(next.why, "a question was asked in this session already");
  EXPECT_TRUE(t.Next(bank, At("s2"), SignalWeightConfig{}).question);
}

TEST(QuestionBank, NoneWhileTheReviewerIsFatiguedButOnceTheyRested) {
  QuestionTracker t;
  model::ReviewView r;
  r.reviewer = "jake";
  r.session_fatigue = 6;  // the 6th review in a row: fatigued (fatigue_after 5)
  r.at_ms = kNow - 10 * 60'000;
  t.AddReview(r);
  const NextQuestion tired = t.Next(DefaultQuestionBank(), At("s", "jake"), SignalWeightConfig{});
  EXPECT_FALSE(tired.question);
  EXPECT_NE(tired.why.find("fatigued"), std::string::npos) << tired.why;
  // Someone else, or jake an hour later, may be asked.
  EXPECT_TRUE(t.Next(DefaultQuestionBank(), At("s", "ana"), SignalWeightConfig{}).question);
  QuestionMoment later = At("s", "jake");
  later.now_ms += kHour;
  EXPECT_TRUE(t.Next(DefaultQuestionBank(), later, SignalWeightConfig{}).question);
}

TEST(QuestionBank, AfterAFailureTheFrictionQuestionOnce) {
  QuestionTracker t;
  t.AddFailure(kNow - kHour, "a revert or a rewrite of the agent's work");
  NextQuestion next = t.Next(DefaultQuestionBank(), At("s1"), SignalWeightConfig{});
  ASSERT_TRUE(next.question);
  EXPECT_EQ(next.question->text, "What would have helped?");
  EXPECT_EQ(next.why, "after a revert or a rewrite of the agent's work");
  t.AddAdmin(Asked(FrictionQuestion(), "s1", kNow - kHour + 1));
  next = t.Next(DefaultQuestionBank(), At("s2"), SignalWeightConfig{});
  ASSERT_TRUE(next.question);
  EXPECT_EQ(next.question->id, DefaultQuestionBank()[0].id);  // asked: back to the bank
}

TEST(QuestionBank, EachPersonsLatestAnswerNewestFirst) {
  QuestionTracker t;
  auto answer = [&](std::string_view id, std::string_view who, std::string_view words, int64_t at) {
    model::AdminView a;
    a.action = "answer";
    a.question_id = id;
    const std::string question = "Q " + std::string(id);  // a view's text outlives AddAdmin
    a.question = question;
    a.note = words;
    a.reviewer = who;
    a.at_ms = at;
    t.AddAdmin(a);
  };
  answer("explanations", "jake", "long ones", 1);
  answer("explanations", "jake", "concise, bullet points", 3);
  answer("explanations", "ana", "detailed", 2);
  const auto answers = t.Answers();
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0].answer, "concise, bullet points");
  EXPECT_EQ(answers[1].person, "ana");
}

}  // namespace
}  // namespace kaizen::learn
