#include "learn/delegation/calibration.h"

#include <gtest/gtest.h>

#include <string>

namespace kaizen::learn {
namespace {

model::ReviewView Pair(double confidence, model::Decision d) {
  model::ReviewView r;
  r.decision = d;
  r.work_known = true;
  r.work.confidence = confidence;
  return r;
}

void AddN(CalibrationCurve& c, int n, const model::ReviewView& r) {
  for (int i = 0; i < n; ++i) c.Add(r);
}

std::string Json(const CalibrationResult& r) {
  rapidjson::StringBuffer buf;
  base::JsonWriter w(buf);
  WriteJson(w, r);
  return buf.GetString();
}

TEST(CalibrationCurve, EmptyListsAllTenBucketsWithNulls) {
  CalibrationCurve c{CalibrationConfig{}};
  CalibrationResult r = c.Result();
  EXPECT_EQ(r.n, 0);
  EXPECT_FALSE(r.ece.has_value());
  std::string json = Json(r);
  EXPECT_EQ(json.rfind(R"({"buckets":[{"lower":0.0,"upper":0.1,"avgPredicted":null,)"
                       R"("actualRate":null,"error":null,"n":0},{"lower":0.1,)",
                       0),
            0u)
      << json;
  EXPECT_NE(json.find(R"({"lower":0.9,"upper":1.0,"avgPredicted":null,"actualRate":null,)"
                      R"("error":null,"n":0}],"ece":null,"n":0,)"
                      R"("scorePrediction":{"n":0,"meanAbsError":null,"meanDelta":null}})"),
            std::string::npos)
      << json;
  EXPECT_DOUBLE_EQ(c.Calibrate(0.93), 0.93);
}

TEST(CalibrationCurve, OverconfidentTopBucketHasPositiveErrorAndWeightsTheEce) {
  CalibrationCurve c{CalibrationConfig{}};
  AddN(c, 8, Pair(0.95, model::Decision::kApproved));
  AddN(c, 2, Pair(0.95, model::Decision::kRejected));  // 0.95 predicted, 0.8 actual
  AddN(c, 2, Pair(0.5, model::Decision::kApproved));
  AddN(c, 2, Pair(0.5, model::Decision::kNeedsWork));  // 0.5 predicted, 0.5 actual
  CalibrationResult r = c.Result();
  EXPECT_EQ(r.n, 14);
  const CalibrationBucket& top = r.buckets[9];
  EXPECT_EQ(top.n, 10);
  EXPECT_NEAR(*top.avg_predicted, 0.95, 1e-12);
  EXPECT_DOUBLE_EQ(*top.actual_rate, 0.8);
  EXPECT_NEAR(*top.error, 0.15, 1e-12);
  EXPECT_NEAR(*r.buckets[5].error, 0, 1e-12);
  EXPECT_EQ(r.buckets[4].n, 0);
  EXPECT_FALSE(r.buckets[4].error.has_value());
  // ece = 10/14 x 0.15 + 4/14 x 0
  EXPECT_NEAR(*r.ece, 10.0 / 14 * 0.15, 1e-12);
  std::string json = Json(r);
  EXPECT_NE(json.find(R"({"lower":0.9,"upper":1.0,"avgPredicted":0.95,"actualRate":0.8,)"
                      R"("error":0.15,"n":10}],"ece":0.107143,"n":14,)"),
            std::string::npos)
      << json;
}

TEST(CalibrationCurve, BucketBoundariesFloorTenthsAndOneGoesInTheLast) {
  EXPECT_EQ(CalibrationCurve::BucketOf(0.0), 0);
  EXPECT_EQ(CalibrationCurve::BucketOf(0.09), 0);
  EXPECT_EQ(CalibrationCurve::BucketOf(0.1), 1);
  EXPECT_EQ(CalibrationCurve::BucketOf(0.3), 3);
  EXPECT_EQ(CalibrationCurve::BucketOf(0.6), 6);
  EXPECT_EQ(CalibrationCurve::BucketOf(0.7), 7);
  EXPECT_EQ(CalibrationCurve::BucketOf(0.69), 6);
  EXPECT_EQ(CalibrationCurve::BucketOf(0.9), 9);
  EXPECT_EQ(CalibrationCurve::BucketOf(1.0), 9);
  EXPECT_EQ(CalibrationCurve::BucketOf(-0.2), 0);
  for (int k = 0; k < 10; ++k) EXPECT_EQ(CalibrationCurve::BucketOf(k / 10.0), k) << k;
}

TEST(CalibrationCurve, DeferredAndUnknownWorkAreNotPairs) {
  CalibrationCurve c{CalibrationConfig{}};
  c.Add(Pair(0.8, model::Decision::kDeferred));
  c.Add(Pair(0.8, model::Decision::kNone));
  model::ReviewView unknown = Pair(0.8, model::Decision::kApproved);
  unknown.work_known = false;
  c.Add(unknown);
  EXPECT_EQ(c.Result().n, 0);
}

TEST(CalibrationCurve, CalibrateUsesTheActualRateFromFivePairsOn) {
  CalibrationCurve c{CalibrationConfig{}};
  AddN(c, 3, Pair(0.75, model::Decision::kApproved));
  AddN(c, 1, Pair(0.72, model::Decision::kRejected));
  EXPECT_DOUBLE_EQ(c.Calibrate(0.71), 0.71);  // 4 pairs: raw
  c.Add(Pair(0.79, model::Decision::kRejected));
  EXPECT_DOUBLE_EQ(c.Calibrate(0.71), 0.6);   // 5 pairs: 3 of 5 approved
  EXPECT_DOUBLE_EQ(c.Calibrate(0.81), 0.81);  // another bucket, empty
}

TEST(CalibrationCurve, ScorePredictionAveragesTheDeltas) {
  CalibrationCurve c{CalibrationConfig{}};
  model::ReviewView a;
  a.prediction_delta = 0.5;  // seed 000 §6.2: predicted 7.5, scored 8
  model::ReviewView b;
  b.prediction_delta = -1.5;
  b.decision = model::Decision::kDeferred;  // scores count whatever the verdict
  model::ReviewView none;                   // no prediction
  c.Add(a);
  c.Add(b);
  c.Add(none);
  ScorePrediction p = c.Result().score_prediction;
  EXPECT_EQ(p.n, 2);
  EXPECT_DOUBLE_EQ(*p.mean_abs_error, 1.0);
  EXPECT_DOUBLE_EQ(*p.mean_delta, -0.5);
}

TEST(CalibrationCurve, ExplainNamesABucketOrAll) {
  CalibrationCurve c{CalibrationConfig{}};
  AddN(c, 5, Pair(0.72, model::Decision::kApproved));
  std::string text = "untouched";
  EXPECT_FALSE(c.ExplainCalibration("0.75", &text));
  EXPECT_FALSE(c.ExplainCalibration("1.0", &text));
  EXPECT_FALSE(c.ExplainCalibration("high", &text));
  EXPECT_FALSE(c.ExplainCalibration("nan", &text));
  EXPECT_FALSE(c.ExplainCalibration("-nan", &text));
  EXPECT_FALSE(c.ExplainCalibration("inf", &text));
  EXPECT_EQ(text, "untouched");
  ASSERT_TRUE(c.ExplainCalibration("0.7", &text));
  EXPECT_NE(text.find("[0.7, 0.8) 5      0.720         1.000       -0.280  1.000"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("[0.6, 0.7)"), std::string::npos) << text;
  ASSERT_TRUE(c.ExplainCalibration("all", &text));
  EXPECT_NE(text.find("[0.6, 0.7) 0      -             -           -       raw (n 0 < 5)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[0.9, 1.0]"), std::string::npos) << text;
  EXPECT_NE(text.find("pairs: 5; expected calibration error: 0.280"), std::string::npos) << text;
}

}  // namespace
}  // namespace kaizen::learn
