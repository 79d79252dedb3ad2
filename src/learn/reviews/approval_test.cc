#include "learn/reviews/approval.h"

#include <gtest/gtest.h>

#include <string>

namespace kaizen::learn {
namespace {

model::ReviewView Review(model::Decision d, std::string_view server = "shopify",
                         std::string_view stage = "build", std::string_view reviewer = "jake") {
  model::ReviewView r;
  r.decision = d;
  r.server_type = server;
  r.stage = stage;
  r.reviewer = reviewer;
  return r;
}

std::string Json(const ApprovalResult& r) {
  rapidjson::StringBuffer buf;
  base::JsonWriter w(buf);
  WriteJson(w, r);
  return buf.GetString();
}

void AddN(ApprovalLearner& l, int n, const model::ReviewView& r) {
  for (int i = 0; i < n; ++i) l.Add(r);
}

TEST(ApprovalLearner, EmptyHasNoRate) {
  ApprovalLearner l;
  ApprovalResult r = l.Result();
  EXPECT_EQ(r.overall.total, 0);
  EXPECT_FALSE(r.overall.rate().has_value());
  EXPECT_EQ(Json(r),
            R"({"overall":{"approved":0,"rejected":0,"needsWork":0,"deferred":0,"total":0,)"
            R"("rate":null},"byServerType":{},"byStage":{},"byReviewer":{}})");
}

TEST(ApprovalLearner, SeedTableRatesCountNeedsWorkAsNotApproved) {
  // seed 000 §3.1: shopify 12/2/3 -> 70.6%, stripe 8/5/4 -> 47.1%, ghl 15/1/1 -> 88.2%.
  ApprovalLearner l;
  AddN(l, 12, Review(model::Decision::kApproved, "shopify"));
  AddN(l, 2, Review(model::Decision::kRejected, "shopify"));
  AddN(l, 3, Review(model::Decision::kNeedsWork, "shopify"));
  AddN(l, 8, Review(model::Decision::kApproved, "stripe"));
  AddN(l, 5, Review(model::Decision::kRejected, "stripe"));
  AddN(l, 4, Review(model::Decision::kNeedsWork, "stripe"));
  AddN(l, 15, Review(model::Decision::kApproved, "ghl"));
  AddN(l, 1, Review(model::Decision::kRejected, "ghl"));
  AddN(l, 1, Review(model::Decision::kNeedsWork, "ghl"));
  ApprovalResult r = l.Result();
  EXPECT_NEAR(*r.by_server_type.at("shopify").rate(), 12.0 / 17, 1e-12);
  EXPECT_NEAR(*r.by_server_type.at("stripe").rate(), 8.0 / 17, 1e-12);
  EXPECT_NEAR(*r.by_server_type.at("ghl").rate(), 15.0 / 17, 1e-12);
  EXPECT_EQ(r.overall.approved, 35);
  EXPECT_EQ(r.overall.rejected, 8);
  EXPECT_EQ(r.overall.needs_work, 8);
  EXPECT_NEAR(*r.overall.rate(), 35.0 / 51, 1e-12);
}

TEST(ApprovalLearner, DeferredAndUndecidedCountInTotalButNotInRate) {
  ApprovalLearner l;
  l.Add(Review(model::Decision::kApproved));
  l.Add(Review(model::Decision::kRejected));
  l.Add(Review(model::Decision::kDeferred));
  l.Add(Review(model::Decision::kDeferred));
  l.Add(Review(model::Decision::kNone));
  const ApprovalCounts& c = l.Result().overall;
  EXPECT_EQ(c.total, 5);
  EXPECT_EQ(c.deferred, 2);
  EXPECT_EQ(c.decided(), 2);
  EXPECT_DOUBLE_EQ(*c.rate(), 0.5);
}

TEST(ApprovalLearner, OnlyDeferredHasNullRate) {
  ApprovalLearner l;
  l.Add(Review(model::Decision::kDeferred, "ghl"));
  EXPECT_FALSE(l.Result().by_server_type.at("ghl").rate().has_value());
}

TEST(ApprovalLearner, EmptyFieldsGroupAsUnspecified) {
  ApprovalLearner l;
  l.Add(Review(model::Decision::kApproved, "", "", ""));
  ApprovalResult r = l.Result();
  EXPECT_EQ(r.by_server_type.count("unspecified"), 1u);
  EXPECT_EQ(r.by_stage.count("unspecified"), 1u);
  EXPECT_EQ(r.by_reviewer.count("unspecified"), 1u);
}

TEST(ApprovalLearner, JsonGroupsBySortedKeys) {
  ApprovalLearner l;
  l.Add(Review(model::Decision::kApproved, "stripe", "build", "jake"));
  l.Add(Review(model::Decision::kNeedsWork, "ghl", "design", "ana"));
  l.Add(Review(model::Decision::kApproved, "ghl", "build", "jake"));
  l.Add(Review(model::Decision::kDeferred, "ghl", "build", "jake"));
  EXPECT_EQ(
      Json(l.Result()),
      R"({"overall":{"approved":2,"rejected":0,"needsWork":1,"deferred":1,"total":4,)"
      R"("rate":0.666667},)"
      R"("byServerType":{)"
      R"("ghl":{"approved":1,"rejected":0,"needsWork":1,"deferred":1,"total":3,"rate":0.5},)"
      R"("stripe":{"approved":1,"rejected":0,"needsWork":0,"deferred":0,"total":1,"rate":1.0}},)"
      R"("byStage":{)"
      R"("build":{"approved":2,"rejected":0,"needsWork":0,"deferred":1,"total":3,"rate":1.0},)"
      R"("design":{"approved":0,"rejected":0,"needsWork":1,"deferred":0,"total":1,"rate":0.0}},)"
      R"("byReviewer":{)"
      R"("ana":{"approved":0,"rejected":0,"needsWork":1,"deferred":0,"total":1,"rate":0.0},)"
      R"("jake":{"approved":2,"rejected":0,"needsWork":0,"deferred":1,"total":3,"rate":1.0}}})");
}

}  // namespace
}  // namespace kaizen::learn
