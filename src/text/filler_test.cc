#include "text/filler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "text/correction_classifier.h"

namespace kaizen::text {
namespace {

// "phrase@matched text|" per match.
std::string Found(std::string_view text) {
  std::string out;
  for (const FillerMatch& m : FindFiller(text)) {
    out += std::string(m.phrase) + "@" + std::string(text.substr(m.begin, m.end - m.begin)) + "|";
  }
  return out;
}

TEST(Filler, InterjectionsOpeningAnAnswerAreFiller) {
  EXPECT_EQ(Found("Great question! Here is the fix."), "great question@Great question!|");
  EXPECT_EQ(Found("Certainly! Done."), "certainly@Certainly!|");
  EXPECT_EQ(Found("Sure, here is the fix."), "sure@Sure,|");
  EXPECT_EQ(Found("Absolutely!"), "absolutely@Absolutely!|");
  EXPECT_EQ(Found("What a great question! It depends."),
            "what a great question@What a great "
            "question!|");
}

TEST(Filler, PleasantrySentencesAreFillerWhole) {
  EXPECT_EQ(Found("Move the lock up. I hope this helps!"), "i hope this helps@I hope this helps!|");
  EXPECT_EQ(Found("Done. Let me know if you have any other questions."),
            "let me know if you have any@Let me know if you have any other questions.|");
  EXPECT_EQ(Found("As an AI language model, I cannot run code."),
            "as an ai language model@As an AI language model, I cannot run code.|");
  EXPECT_EQ(Found("I\xE2\x80\x99"
                  "d be happy to help!"),
            "i'd be happy to help@I\xE2\x80\x99"
            "d be happy to help!|");
}

TEST(Filler, OrdinarySentencesAreNotFiller) {
  EXPECT_EQ(Found("The retry loop in the client doubles its delay after each failure and gives "
                  "up after five attempts."),
            "");
  EXPECT_EQ(Found("Sure enough, the cache was stale."), "");
  EXPECT_EQ(Found("Of course, the cache was stale."), "");
  EXPECT_EQ(Found("Make sure the lock is held."), "");       // "sure" not opening a sentence
  EXPECT_EQ(Found("Feel free to change the timeout."), "");  // advice, not a pleasantry
  EXPECT_EQ(Found("Do you have any questions about it"), "");
}

TEST(Filler, SeveralInOneTextEachOnce) {
  EXPECT_EQ(Found("Sure! Fixed it.\nHope this helps. Happy coding!"),
            "sure@Sure!|hope this helps@Hope this helps.|happy coding@Happy coding!|");
}

TEST(Filler, APoliteOpeningOfALongAnswerIsNotFiller) {
  EXPECT_EQ(Found("Let me know if you have any trouble with the migration script, the schema "
                  "change, the backfill job or the rollback plan we wrote last week."),
            "");
}

TEST(Filler, FamiliesOfListedPhrases) {
  FillerFamily f;
  ASSERT_TRUE(FillerFamilyOf("great question", &f));
  EXPECT_EQ(f, FillerFamily::kOpener);
  ASSERT_TRUE(FillerFamilyOf("i hope this helps", &f));
  EXPECT_EQ(FillerFamilyName(f), "closer");
  EXPECT_FALSE(FillerFamilyOf("here is the fix", &f));
}

TEST(Filler, HostileInputsEndInBoundedWork) {
  EXPECT_EQ(Found(""), "");
  EXPECT_EQ(Found("\xff\xfe!"), "");
  std::string big;
  for (int i = 0; i < 20000; ++i) big += "Sure! ";
  EXPECT_LE(FindFiller(big).size(), kMaxDiffTokens);
}

}  // namespace
}  // namespace kaizen::text
