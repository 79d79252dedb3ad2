#include "learn/reviews/decision_speed.h"

#include <algorithm>

#include "learn/reviews/approval.h"
#include "learn/state_archive.h"
#include "model/timestamp.h"

namespace kaizen::learn {

ConfigFields SpeedConfig::Fields() {
  return {
      {"speed.fast_seconds", &fast_seconds, 0, 1e9, false,
       "a decision quicker than this is fast (seed 000 §3.1: 30 s)"},
      {"speed.slow_seconds", &slow_seconds, 0, 1e9, false,
       "a decision slower than this is slow (seed 000 §3.1: 5 min)"},
      {"speed.recent_fast_rejections", &recent_fast_rejections, 0, 1000, true,
       "how many of the newest fast rejections analyze lists (seed 000 §3.1)"},
  };
}

std::string_view SpeedName(Speed s) {
  switch (s) {
    case Speed::kFast:
      return "fast";
    case Speed::kMedium:
      return "medium";
    case Speed::kSlow:
      return "slow";
  }
  return "medium";
}

DecisionSpeedLearner::DecisionSpeedLearner(const SpeedConfig& config) : config_(config) {}

Speed DecisionSpeedLearner::Classify(double ms) const {
  // Compared in milliseconds so that exactly 30 000 ms is not fast.
  if (ms < config_.fast_seconds * 1000) return Speed::kFast;
  if (ms > config_.slow_seconds * 1000) return Speed::kSlow;
  return Speed::kMedium;
}

void DecisionSpeedLearner::Add(const model::ReviewView& review) {
  // A decision nobody timed (kaizen review with flags) has no speed.
  if (!IsDecided(review.decision) || review.decision_untimed) return;
  const uint64_t seq = seq_++;
  const Speed speed = Classify(review.time_to_decision_ms);
  const bool approved = review.decision == model::Decision::kApproved;
  SpeedQuadrant& q = quadrants_[static_cast<int>(speed)];
  ++(approved ? q.approved : q.rejected);
  if (approved || speed != Speed::kFast) return;

  // Keep the newest `limit` by (timestamp, log position), oldest first.
  const size_t limit = static_cast<size_t>(config_.recent_fast_rejections);
  if (limit == 0) return;
  auto older = [](const Kept& k, int64_t at, uint64_t s) {
    return k.item.at_ms != at ? k.item.at_ms < at : k.seq < s;
  };
  if (recent_.size() == limit && !older(recent_.front(), review.at_ms, seq)) return;
  Kept kept;
  if (recent_.size() == limit) {  // reuse the evicted entry's buffers
    kept = std::move(recent_.front());
    recent_.erase(recent_.begin());
  }
  FastRejection& f = kept.item;
  f.id.assign(review.id);
  f.at_ms = review.at_ms;
  f.task_type.assign(OrUnspecified(review.task_type));
  f.artifact_id.assign(review.work.artifact_id);
  f.reason.assign(review.reason);
  f.blockers.resize(review.blockers.size());
  for (size_t i = 0; i < review.blockers.size(); ++i) f.blockers[i].assign(review.blockers[i]);
  kept.seq = seq;
  auto pos = std::partition_point(recent_.begin(), recent_.end(),
                                  [&](const Kept& k) { return older(k, review.at_ms, seq); });
  recent_.insert(pos, std::move(kept));
}

DecisionSpeedResult DecisionSpeedLearner::Result() const {
  DecisionSpeedResult r;
  r.fast_seconds = config_.fast_seconds;
  r.slow_seconds = config_.slow_seconds;
  r.quadrants = quadrants_;
  for (const SpeedQuadrant& q : quadrants_) {
    r.decided += q.approved + q.rejected;
    r.rejections += q.rejected;
  }
  r.fast_rejections = quadrants_[static_cast<int>(Speed::kFast)].rejected;
  if (r.rejections > 0) {
    r.fast_rejection_share =
        static_cast<double>(r.fast_rejections) / static_cast<double>(r.rejections);
  }
  for (auto it = recent_.rbegin(); it != recent_.rend(); ++it) r.recent.push_back(it->item);
  return r;
}

void WriteJson(base::JsonWriter& w, const DecisionSpeedResult& r) {
  w.StartObject();
  base::Key(w, "fastSeconds");
  base::Num(w, r.fast_seconds);
  base::Key(w, "slowSeconds");
  base::Num(w, r.slow_seconds);
  base::Key(w, "decided");
  w.Int64(r.decided);
  base::Key(w, "quadrants");
  w.StartObject();
  for (Speed s : {Speed::kFast, Speed::kMedium, Speed::kSlow}) {
    const SpeedQuadrant& q = r.quadrants[static_cast<int>(s)];
    base::Key(w, SpeedName(s));
    w.StartObject();
    base::Key(w, "approved");
    w.Int64(q.approved);
    base::Key(w, "rejected");
    w.Int64(q.rejected);
    w.EndObject();
  }
  w.EndObject();
  base::Key(w, "fastRejections");
  w.StartObject();
  base::Key(w, "count");
  w.Int64(r.fast_rejections);
  base::Key(w, "share");
  base::Num(w, r.fast_rejection_share);
  base::Key(w, "recent");
  w.StartArray();
  for (const FastRejection& f : r.recent) {
    w.StartObject();
    base::Key(w, "id");
    base::Str(w, f.id);
    base::Key(w, "at");
    base::Str(w, model::FormatUtc(f.at_ms));
    base::Key(w, "taskType");
    base::Str(w, f.task_type);
    base::Key(w, "artifactId");
    base::Str(w, f.artifact_id);
    base::Key(w, "reason");
    base::Str(w, f.reason);
    base::Key(w, "blockers");
    base::StrArray(w, f.blockers);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void FastRejection::serialize(Archive& ar) {
  ar(id, at_ms, task_type, artifact_id, reason, blockers);
}

template <class Archive>
void SpeedQuadrant::serialize(Archive& ar) {
  ar(approved, rejected);
}

template <class Archive>
void DecisionSpeedLearner::Kept::serialize(Archive& ar) {
  ar(item, seq);
}

template <class Archive>
void DecisionSpeedLearner::serialize(Archive& ar) {
  ar(quadrants_, seq_, recent_);
}

KZ_STATE_INSTANTIATE(FastRejection);
KZ_STATE_INSTANTIATE(SpeedQuadrant);
KZ_STATE_INSTANTIATE(DecisionSpeedLearner);

}  // namespace kaizen::learn
