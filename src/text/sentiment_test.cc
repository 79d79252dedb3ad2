// Sentiment: the lexicon, negation, intensifiers and downtoners, with exact scores where the
// documented formula (sentiment.cc) fixes them.
#include "text/sentiment.h"

#include <gtest/gtest.h>

#include <string>

namespace kaizen::text {
namespace {

// ---- Sentiment -----------------------------------------------------------------------------

TEST(Sentiment, IsZeroWithoutSentimentWords) {
  EXPECT_EQ(Sentiment(""), 0.0);
  EXPECT_EQ(Sentiment("The handler reads the queue."), 0.0);
}

TEST(Sentiment, PositiveWordsGivePositiveScoreAndMoreEvidenceScoresHigher) {
  const double one = Sentiment("Nice.");
  const double three = Sentiment("Nice, clean and elegant.");
  EXPECT_DOUBLE_EQ(one, 0.5);  // (1 - 0) / (1 + 0 + 1)
  EXPECT_DOUBLE_EQ(three, 0.75);
  EXPECT_GT(three, one);
}

TEST(Sentiment, NegativeWordsGiveNegativeScore) {
  EXPECT_LT(Sentiment("Broken, confusing and sloppy. Tests are missing."), -0.5);
}

TEST(Sentiment, NegationFlipsPositiveWord) {
  EXPECT_GT(Sentiment("good"), 0.0);
  EXPECT_LT(Sentiment("not good"), 0.0);
  EXPECT_LT(Sentiment("This isn't clean"), 0.0);      // n't via apostrophe split
  EXPECT_LT(Sentiment("It doesnt look great"), 0.0);  // apostrophe omitted
}

TEST(Sentiment, NegationReachesThreeWordsOnly) {
  EXPECT_LT(Sentiment("not really that good"), 0.0);       // 3rd word after the negator
  EXPECT_GT(Sentiment("not sure the code is good"), 0.0);  // 5th word: out of the window
  EXPECT_GT(Sentiment("not sure but good"), 0.0);          // a clause word ends the scope
  EXPECT_GT(Sentiment("not sure. Good"), 0.0);             // so does a sentence break
}

TEST(Sentiment, NegatedNegativeIsFaintPraise) {
  EXPECT_GT(Sentiment("not bad"), 0.0);
  EXPECT_LT(Sentiment("not bad"), Sentiment("good"));
  EXPECT_GT(Sentiment("nothing missing"), 0.0);
}

TEST(Sentiment, IntensifierStrengthensAndDowntonerWeakens) {
  EXPECT_GT(Sentiment("very clean"), Sentiment("clean"));
  EXPECT_LT(Sentiment("slightly confusing"), 0.0);
  EXPECT_GT(Sentiment("slightly confusing"), Sentiment("confusing"));
}

TEST(Sentiment, TooBeforeNeutralWordIsNegative) {
  EXPECT_LT(Sentiment("Variable names too short"), 0.0);
  EXPECT_EQ(Sentiment("me too"), 0.0);
}

TEST(Sentiment, BalancedFeedbackScoresZero) {
  EXPECT_DOUBLE_EQ(Sentiment("Clean code but missing tests"), 0.0);
}

TEST(Sentiment, StaysWithinBoundsForExtremeInput) {
  std::string praise, criticism;
  for (int i = 0; i < 5000; ++i) {
    praise += "very great ";
    criticism += "extremely broken ";
  }
  const double p = Sentiment(praise);
  const double c = Sentiment(criticism);
  EXPECT_GT(p, 0.99);
  EXPECT_LE(p, 1.0);
  EXPECT_LT(c, -0.99);
  EXPECT_GE(c, -1.0);
}

TEST(Sentiment, FollowsTheDocumentedFormula) {
  // (P - N) / (P + N + 1)
  EXPECT_DOUBLE_EQ(Sentiment("not good"), -1.0 / 2.0);
  EXPECT_DOUBLE_EQ(Sentiment("not bad"), 0.5 / 1.5);
  EXPECT_DOUBLE_EQ(Sentiment("very clean"), 1.5 / 2.5);
  EXPECT_DOUBLE_EQ(Sentiment("Great, but broken and wrong."), (1.0 - 2.0) / 4.0);
}

}  // namespace
}  // namespace kaizen::text
