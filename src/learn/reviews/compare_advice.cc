#include "learn/reviews/compare_advice.h"

#include <fmt/format.h>

namespace kaizen::learn {

ConfigFields CompareConfig::Fields() {
  return {
      {"compare.max_confidence", &max_confidence, 0, 1, false,
       "calibrated confidence under which two versions are made and compared (seed 000 §6.4: "
       "0.65)"},
      {"compare.mixed_min_reviews", &mixed_min_reviews, 1, 1e9, true,
       "decided reviews of a task type before their split counts as mixed preferences"},
      {"compare.mixed_share", &mixed_share, 0, 0.5, false,
       "approvals and the other decisions each at least this share of a task type's reviews: "
       "mixed preferences (seed 000 §6.4)"},
  };
}

CompareAdvice AdviseComparison(const CompareConfig& config, const CalibrationCurve& calibration,
                               const ApprovalResult& approval, const CompareQuery& query) {
  CompareAdvice out;
  if (query.confidence) {
    out.calibrated_confidence = calibration.Calibrate(*query.confidence);
    if (*out.calibrated_confidence < config.max_confidence) {
      out.low_confidence = true;
      out.reasons.push_back(fmt::format("calibrated confidence {:.0f}% is under {:.0f}%",
                                        *out.calibrated_confidence * 100,
                                        config.max_confidence * 100));
    }
  }
  if (query.approaches >= 2) {
    out.several_approaches = true;
    out.reasons.push_back(fmt::format("{} valid approaches", query.approaches));
  }
  if (auto it = approval.by_server_type.find(query.task_type);
      it != approval.by_server_type.end()) {
    out.approved = it->second.approved;
    out.decided = it->second.decided();
  }
  const auto decided = static_cast<double>(out.decided);
  if (decided >= config.mixed_min_reviews && decided > 0) {
    const double share = static_cast<double>(out.approved) / decided;
    if (share >= config.mixed_share && 1 - share >= config.mixed_share) {
      out.mixed_preferences = true;
      out.reasons.push_back(
          fmt::format("reviewers were split on {}: {} of {} decided reviews approved",
                      query.task_type, out.approved, out.decided));
    }
  }
  out.compare = out.low_confidence || out.several_approaches || out.mixed_preferences;
  return out;
}

void WriteJson(base::JsonWriter& w, const CompareAdvice& a) {
  w.StartObject();
  base::Key(w, "compare");
  w.Bool(a.compare);
  base::Key(w, "reasons");
  base::StrArray(w, a.reasons);
  base::Key(w, "calibratedConfidence");
  base::Num(w, a.calibrated_confidence);
  base::Key(w, "triggers");
  w.StartObject();
  base::Key(w, "lowConfidence");
  w.Bool(a.low_confidence);
  base::Key(w, "severalApproaches");
  w.Bool(a.several_approaches);
  base::Key(w, "mixedPreferences");
  w.Bool(a.mixed_preferences);
  w.EndObject();
  base::Key(w, "taskType");
  w.StartObject();
  base::Key(w, "approved");
  w.Int64(a.approved);
  base::Key(w, "decided");
  w.Int64(a.decided);
  w.EndObject();
  w.EndObject();
}

}  // namespace kaizen::learn
