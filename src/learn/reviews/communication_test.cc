#include "learn/reviews/communication.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

constexpr int64_t kT0 = 1'752'226'200'000;  // 2025-07-11T09:30:00Z

struct R {
  std::string_view format = "diff";
  double seconds = 30;
  size_t fields = 4;
  model::Decision decision = model::Decision::kApproved;
  std::string_view time_of_day = "morning";
  std::string_view day = "friday";
  std::string_view session = "s1";
  int64_t fatigue = 1;
  int64_t at_ms = kT0;
};

model::ReviewView Review(const R& r) {
  model::ReviewView v;
  v.at_ms = r.at_ms;
  v.session_id = r.session;
  v.presentation_format = r.format;
  v.time_to_decision_ms = r.seconds * 1000;
  v.fields_modified = r.fields;
  v.decision = r.decision;
  v.time_of_day = r.time_of_day;
  v.day_of_week = r.day;
  v.session_fatigue = r.fatigue;
  return v;
}

std::string Json(const CommunicationResult& r) {
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  WriteJson(w, r);
  return buffer.GetString();
}

// n reviews of `format` in `window`, each `seconds` long with `fields` filled.
void AddMany(CommunicationLearner* l, int n, std::string_view format, std::string_view window,
             double seconds, size_t fields) {
  for (int i = 0; i < n; ++i) {
    l->Add(Review({.format = format, .seconds = seconds, .fields = fields, .time_of_day = window}));
  }
}

TEST(Communication, EmptyLogReportsNothingAndNulls) {
  CommunicationLearner l({}, {});
  EXPECT_EQ(Json(l.Result()),
            R"({"formats":{},"bestFormat":null,"windows":{},"dayTypes":{},"bestWindows":[],)"
            R"("detailLevel":[],"fatigue":{"threshold":5,"weight":0.7,"fatiguedReviews":0,)"
            R"("sessionsNeedingBreak":0,"freshRichness":null,"fatiguedRichness":null,)"
            R"("freshSeconds":null,"fatiguedSeconds":null,"breakSuggestion":null}})");
}

TEST(Communication, FormatEffectivenessIsSpeedTimesRichnessTimesCompletion) {
  CommunicationLearner l({}, {});
  // Mean 40 s -> speed 30/40 = 0.75; richness (1 + 0.5 + 0 + 1 + 0.75) / 5 = 0.65;
  // 4 of 5 decided -> 0.8. Effectiveness 0.75 x 0.65 x 0.8 = 0.39.
  l.Add(Review({.seconds = 20, .fields = 4, .decision = model::Decision::kApproved}));
  l.Add(Review({.seconds = 40, .fields = 2, .decision = model::Decision::kRejected}));
  l.Add(Review({.seconds = 60, .fields = 0, .decision = model::Decision::kDeferred}));
  l.Add(Review({.seconds = 30, .fields = 6, .decision = model::Decision::kNeedsWork}));
  l.Add(Review({.seconds = 50, .fields = 3, .decision = model::Decision::kApproved}));
  CommunicationResult r = l.Result();
  ASSERT_EQ(r.formats.size(), 1u);
  const EngagementStats& s = r.formats.at("diff");
  EXPECT_EQ(s.n, 5);
  EXPECT_DOUBLE_EQ(s.avg_seconds, 40);
  EXPECT_DOUBLE_EQ(s.richness, 0.65);
  EXPECT_DOUBLE_EQ(s.completion_rate, 0.8);
  EXPECT_NEAR(s.score, 0.39, 1e-12);
  EXPECT_EQ(r.best_format, "diff");
}

TEST(Communication, DecisionSpeedIsOneUpToFastSecondsThenFalls) {
  CommunicationConfig c;
  EXPECT_EQ(DecisionSpeed(0, c), 1.0);
  EXPECT_EQ(DecisionSpeed(30, c), 1.0);
  EXPECT_EQ(DecisionSpeed(60, c), 0.5);
  EXPECT_EQ(DecisionSpeed(120, c), 0.25);
}

TEST(Communication, RichnessIsFieldsOverFourCappedAtOne) {
  CommunicationConfig c;
  model::ReviewView r;
  EXPECT_EQ(Richness(r, c), 0.0);
  r.fields_modified = 2;
  EXPECT_EQ(Richness(r, c), 0.5);
  r.fields_modified = 4;
  EXPECT_EQ(Richness(r, c), 1.0);
  r.fields_modified = 9;
  EXPECT_EQ(Richness(r, c), 1.0);
}

TEST(Communication, FreeTextAndAnnotationsCountWhenFieldsModifiedSaysLess) {
  CommunicationConfig c;
  model::ReviewView r;
  r.free_text_chars = 120;
  EXPECT_EQ(Richness(r, c), 0.25);
  model::AnnotationView note;
  note.type = "criticism";
  note.text = "naming";
  r.annotations.push_back(note);
  EXPECT_EQ(Richness(r, c), 0.5);
  r.fields_modified = 3;  // the client's own count wins when higher: max, not sum
  EXPECT_EQ(Richness(r, c), 0.75);
}

TEST(Communication, NoDecisionIsNotCompleted) {
  CommunicationLearner l({}, {});
  l.Add(Review({.decision = model::Decision::kNone}));
  l.Add(Review({.decision = model::Decision::kDeferred}));
  l.Add(Review({.decision = model::Decision::kApproved}));
  l.Add(Review({.decision = model::Decision::kRejected}));
  EXPECT_DOUBLE_EQ(l.Result().formats.at("diff").completion_rate, 0.5);
}

TEST(Communication, MissingFormatIsUnspecifiedAndNeverBest) {
  CommunicationLearner l({}, {});
  AddMany(&l, 5, "", "morning", 10, 4);         // perfect, but no format
  AddMany(&l, 5, "summary", "morning", 60, 4);  // 0.5
  CommunicationResult r = l.Result();
  EXPECT_EQ(r.formats.at("unspecified").score, 1.0);
  EXPECT_EQ(r.best_format, "summary");
}

TEST(Communication, BestFormatNeedsFiveReviews) {
  CommunicationLearner l({}, {});
  AddMany(&l, 4, "annotated", "morning", 10, 4);  // 1.0 from only 4 reviews
  AddMany(&l, 5, "diff", "morning", 60, 4);       // 0.5
  AddMany(&l, 5, "summary", "morning", 30, 1);    // 0.25
  CommunicationResult r = l.Result();
  EXPECT_EQ(r.formats.at("annotated").score, 1.0);
  EXPECT_EQ(r.best_format, "diff");

  CommunicationLearner few({}, {});
  AddMany(&few, 4, "diff", "morning", 10, 4);
  EXPECT_FALSE(few.Result().best_format);
}

TEST(Communication, EqualEffectivenessPicksTheFirstNameAlphabetically) {
  CommunicationLearner l({}, {});
  AddMany(&l, 5, "summary", "morning", 10, 4);
  AddMany(&l, 5, "diff", "morning", 10, 4);
  EXPECT_EQ(l.Result().best_format, "diff");
}

TEST(Communication, BestWindowsAreTheTopTwoWithEnoughReviews) {
  CommunicationLearner l({}, {});
  AddMany(&l, 5, "diff", "evening", 120, 1);   // 0.25 x 0.25 = 0.0625
  AddMany(&l, 5, "diff", "morning", 20, 4);    // 1
  AddMany(&l, 4, "diff", "night", 5, 4);       // 1, but only 4 reviews
  AddMany(&l, 5, "diff", "afternoon", 60, 4);  // 0.5
  CommunicationResult r = l.Result();
  EXPECT_EQ(r.windows.size(), 4u);
  EXPECT_DOUBLE_EQ(r.windows.at("evening").score, 0.0625);
  EXPECT_DOUBLE_EQ(r.windows.at("evening").avg_seconds, 120);
  EXPECT_EQ(r.best_windows, (std::vector<std::string>{"morning", "afternoon"}));
}

TEST(Communication, OneEligibleWindowGivesOneBestWindow) {
  CommunicationLearner l({}, {});
  AddMany(&l, 5, "diff", "morning", 20, 4);
  AddMany(&l, 2, "diff", "evening", 20, 4);
  EXPECT_EQ(l.Result().best_windows, (std::vector<std::string>{"morning"}));
}

TEST(Communication, SaturdayAndSundayAreWeekendOthersWeekdayUnknownSkipped) {
  CommunicationLearner l({}, {});
  l.Add(Review({.seconds = 10, .day = "saturday"}));
  l.Add(Review({.seconds = 20, .day = "Sunday"}));
  l.Add(Review({.seconds = 30, .day = "monday"}));
  l.Add(Review({.seconds = 40, .day = ""}));
  l.Add(Review({.seconds = 50, .day = "someday"}));
  CommunicationResult r = l.Result();
  ASSERT_EQ(r.day_types.size(), 2u);
  EXPECT_EQ(r.day_types.at("weekend").n, 2);
  EXPECT_DOUBLE_EQ(r.day_types.at("weekend").avg_seconds, 15);
  EXPECT_EQ(r.day_types.at("weekday").n, 1);
  EXPECT_EQ(r.formats.at("diff").n, 5);
}

TEST(Communication, FifthReviewOfASessionIsFatigued) {
  CommunicationLearner l({}, {});
  EXPECT_FALSE(l.SuggestBreak(4));
  EXPECT_TRUE(l.SuggestBreak(5));
  SignalWeightConfig weights;
  weights.fatigue_after = 3;
  CommunicationLearner earlier({}, weights);
  EXPECT_TRUE(earlier.SuggestBreak(3));
  EXPECT_FALSE(earlier.SuggestBreak(2));
}

TEST(Communication, FatigueComparesFreshAndTiredReviewsAndCountsSessions) {
  CommunicationLearner l({}, {});
  // s1: six reviews, the 5th and 6th fatigued; s2: five, the 5th fatigued; s3: three.
  for (int i = 1; i <= 6; ++i) {
    l.Add(Review({.seconds = i >= 5 ? 10.0 : 40.0,
                  .fields = i >= 5 ? 1u : 4u,
                  .session = "s1",
                  .fatigue = i,
                  .at_ms = kT0 + i}));
  }
  for (int i = 1; i <= 5; ++i) {
    l.Add(Review({.seconds = i >= 5 ? 16.0 : 40.0,
                  .fields = i >= 5 ? 2u : 4u,
                  .session = "s2",
                  .fatigue = i,
                  .at_ms = kT0 + 100 + i}));
  }
  for (int i = 1; i <= 3; ++i) {
    l.Add(Review({.seconds = 40, .fields = 4, .session = "s3", .fatigue = i, .at_ms = kT0 + i}));
  }
  FatigueStats f = l.Result().fatigue;
  EXPECT_EQ(f.threshold, 5);
  EXPECT_EQ(f.weight, 0.7);
  EXPECT_EQ(f.fatigued_reviews, 3);
  EXPECT_EQ(f.sessions_needing_break, 2);
  EXPECT_EQ(f.fresh_richness, 1.0);
  EXPECT_EQ(f.fresh_seconds, 40.0);
  EXPECT_DOUBLE_EQ(*f.fatigued_richness, (0.25 + 0.25 + 0.5) / 3);
  EXPECT_DOUBLE_EQ(*f.fatigued_seconds, 12);
  // s2 reached the threshold last (in time), at its 5th review.
  EXPECT_EQ(f.break_suggestion, "You've reviewed 5 items — want me to batch the rest for later?");
}

TEST(Communication, BreakSuggestionNamesTheNewestSessionByTimestamp) {
  CommunicationLearner l({}, {});
  l.Add(Review({.session = "later", .fatigue = 7, .at_ms = kT0 + 1000}));
  l.Add(Review({.session = "backfilled", .fatigue = 9, .at_ms = kT0}));
  EXPECT_EQ(l.Result().fatigue.break_suggestion, BreakSuggestion(7));
  l.Add(Review({.session = "tie", .fatigue = 6, .at_ms = kT0 + 1000}));  // same time, later
  EXPECT_EQ(l.Result().fatigue.break_suggestion, BreakSuggestion(6));
}

TEST(Communication, NoSessionAtTheThresholdGivesNoSuggestion) {
  CommunicationLearner l({}, {});
  l.Add(Review({.fatigue = 4}));
  CommunicationResult r = l.Result();
  EXPECT_EQ(r.fatigue.fatigued_reviews, 0);
  EXPECT_FALSE(r.fatigue.break_suggestion);
  EXPECT_FALSE(r.fatigue.fatigued_seconds);
}

TEST(Communication, WritesTheCommunicationSection) {
  CommunicationLearner l({}, {});
  l.Add(Review({.format = "diff",
                .seconds = 60,
                .fields = 2,
                .time_of_day = "morning",
                .day = "saturday",
                .fatigue = 5}));
  l.Add(Review({.format = "bullets",
                .seconds = 15,
                .fields = 4,
                .decision = model::Decision::kDeferred,
                .time_of_day = "evening",
                .day = "monday",
                .fatigue = 1}));
  EXPECT_EQ(
      Json(l.Result()),
      R"({"formats":{)"
      R"("bullets":{"n":1,"avgSeconds":15.0,"richness":1.0,"completionRate":0.0,"effectiveness":0.0},)"
      R"("diff":{"n":1,"avgSeconds":60.0,"richness":0.5,"completionRate":1.0,"effectiveness":0.25}},)"
      R"("bestFormat":null,"windows":{)"
      R"("evening":{"n":1,"avgSeconds":15.0,"richness":1.0,"completionRate":0.0,"engagement":0.0},)"
      R"("morning":{"n":1,"avgSeconds":60.0,"richness":0.5,"completionRate":1.0,"engagement":0.25}},)"
      R"("dayTypes":{)"
      R"("weekday":{"n":1,"avgSeconds":15.0,"richness":1.0,"completionRate":0.0,"engagement":0.0},)"
      R"("weekend":{"n":1,"avgSeconds":60.0,"richness":0.5,"completionRate":1.0,"engagement":0.25}},)"
      R"("bestWindows":[],"detailLevel":[],"fatigue":{"threshold":5,"weight":0.7,"fatiguedReviews":1,)"
      R"("sessionsNeedingBreak":1,"freshRichness":1.0,"fatiguedRichness":0.5,)"
      R"("freshSeconds":15.0,"fatiguedSeconds":60.0,)"
      R"("breakSuggestion":"You've reviewed 5 items — want me to batch the rest for later?"}})");
}

TEST(CommunicationConfigFields, ListsThreeKeysUnderCommunication) {
  CommunicationConfig c;
  ConfigFields f = c.Fields();
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].name, "communication.fast_seconds");
  EXPECT_EQ(*f[0].value, 30);
  EXPECT_EQ(f[1].name, "communication.rich_fields");
  EXPECT_EQ(*f[1].value, 4);
  EXPECT_EQ(f[2].name, "communication.min_reviews");
  EXPECT_EQ(*f[2].value, 5);
  *f[2].value = 10;
  EXPECT_EQ(c.min_reviews, 10);
}

}  // namespace
}  // namespace kaizen::learn
