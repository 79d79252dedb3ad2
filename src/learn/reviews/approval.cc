#include "learn/reviews/approval.h"

#include "learn/state_archive.h"

namespace kaizen::learn {

std::optional<double> ApprovalCounts::rate() const {
  int64_t n = decided();
  if (n == 0) return std::nullopt;
  return static_cast<double>(approved) / static_cast<double>(n);
}

void ApprovalCounts::Add(model::Decision d) {
  ++total;
  switch (d) {
    case model::Decision::kApproved:
      ++approved;
      break;
    case model::Decision::kRejected:
      ++rejected;
      break;
    case model::Decision::kNeedsWork:
      ++needs_work;
      break;
    case model::Decision::kDeferred:
      ++deferred;
      break;
    case model::Decision::kNone:
      break;
  }
}

void ApprovalLearner::AddTo(Table& table, std::string_view key, model::Decision d) {
  Entry(table, key).Add(d);
}

void ApprovalLearner::Add(const model::ReviewView& review) {
  overall_.Add(review.decision);
  AddTo(by_server_type_, OrUnspecified(review.server_type), review.decision);
  AddTo(by_stage_, OrUnspecified(review.stage), review.decision);
  AddTo(by_reviewer_, OrUnspecified(review.reviewer), review.decision);
}

ApprovalResult ApprovalLearner::Result() const {
  ApprovalResult r;
  r.overall = overall_;
  r.by_server_type.insert(by_server_type_.begin(), by_server_type_.end());
  r.by_stage.insert(by_stage_.begin(), by_stage_.end());
  r.by_reviewer.insert(by_reviewer_.begin(), by_reviewer_.end());
  return r;
}

void WriteJson(base::JsonWriter& w, const ApprovalCounts& c) {
  w.StartObject();
  base::Key(w, "approved");
  w.Int64(c.approved);
  base::Key(w, "rejected");
  w.Int64(c.rejected);
  base::Key(w, "needsWork");
  w.Int64(c.needs_work);
  base::Key(w, "deferred");
  w.Int64(c.deferred);
  base::Key(w, "total");
  w.Int64(c.total);
  base::Key(w, "rate");
  base::Num(w, c.rate());
  w.EndObject();
}

namespace {

void WriteTable(base::JsonWriter& w, std::string_view key,
                const std::map<std::string, ApprovalCounts>& table) {
  base::Key(w, key);
  w.StartObject();
  for (const auto& [name, counts] : table) {
    base::Key(w, name);
    WriteJson(w, counts);
  }
  w.EndObject();
}

}  // namespace

void WriteJson(base::JsonWriter& w, const ApprovalResult& r) {
  w.StartObject();
  base::Key(w, "overall");
  WriteJson(w, r.overall);
  WriteTable(w, "byServerType", r.by_server_type);
  WriteTable(w, "byStage", r.by_stage);
  WriteTable(w, "byReviewer", r.by_reviewer);
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void ApprovalCounts::serialize(Archive& ar) {
  ar(approved, rejected, needs_work, deferred, total);
}

template <class Archive>
void ApprovalLearner::serialize(Archive& ar) {
  ar(overall_, state::SortedMap(by_server_type_), state::SortedMap(by_stage_),
     state::SortedMap(by_reviewer_));
}

KZ_STATE_INSTANTIATE(ApprovalCounts);
KZ_STATE_INSTANTIATE(ApprovalLearner);

}  // namespace kaizen::learn
