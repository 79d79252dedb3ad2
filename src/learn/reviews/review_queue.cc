#include "learn/reviews/review_queue.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "learn/reviews/approval.h"
#include "learn/state_archive.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

int PriorityRank(std::string_view p) {  // higher first
  if (p == "urgent") return 3;
  if (p == "high") return 2;
  if (p == "low") return 0;
  return 1;  // normal, or none given
}

// 0 fits the moment best. In a best window the reviewer is at their sharpest: deep reviews
// first; outside one, the quick ones, so the hard items wait for a better hour.
int MomentFit(std::string_view task_class, bool in_best_window) {
  int depth = 1;  // standard, escalate (too little data to know), auto-approve sampled in
  if (task_class == "deep") depth = 2;
  if (task_class == "quick") depth = 0;
  return in_best_window ? 2 - depth : depth;
}

std::string_view LevelMeaning(int level) {  // seed 000 §6.3's autonomy levels
  switch (level) {
    case 0:
      return "review 100%";
    case 1:
      return "review 80%";
    case 2:
      return "review 50%";
    case 3:
      return "review 20%";
    default:
      return "review 5%, audit-only";
  }
}

// seed 000 §3.4's task classes as a reviewer reads them.
std::string_view ClassMeaning(std::string_view task_class) {
  if (task_class == "escalate") return "too few reviews of this task type to judge";
  if (task_class == "auto-approve") return "usually auto-approved";
  if (task_class == "quick") return "quick review";
  if (task_class == "deep") return "deep review";
  return "standard review";
}

}  // namespace

void ReviewQueue::AddWork(const model::WorkView& work) {
  // The artifact's other pending versions are older (the log is folded in order): superseded.
  int64_t superseded = 0;
  for (auto it = pending_.lower_bound(Key(work.artifact_id, {}));
       it != pending_.end() && it->first.first == work.artifact_id;) {
    if (it->first.second == work.version) {
      ++it;
    } else {
      it = pending_.erase(it);
      ++superseded;
    }
  }
  QueueItem item;
  item.submitted = work.for_review;
  // One buffer for the strings the registry does not keep; freed when the item leaves.
  const size_t own = work.event_id.size() + work.path.size() + work.session_id.size() +
                     work.commit.size() + work.diff.size();
  auto buffer = std::make_shared_for_overwrite<char[]>(std::max<size_t>(own, 1));
  char* at = buffer.get();
  auto keep = [&at](std::string_view s) {
    std::copy(s.begin(), s.end(), at);
    at += s.size();
    return std::string_view(at - s.size(), s.size());
  };
  item.event_id = keep(work.event_id);
  item.path = keep(work.path);
  item.session_id = keep(work.session_id);
  item.commit = keep(work.commit);
  item.diff = keep(work.diff);
  item.own = std::move(buffer);
  item.artifact_id = work.artifact_id;
  item.version = work.version;
  item.type = work.type;
  item.summary = work.summary;
  item.server_type = work.server_type;
  item.stage = work.stage;
  item.model = work.model;
  item.priority = work.priority;
  item.at_ms = work.at_ms;
  item.confidence = work.confidence;
  item.score_prediction = work.score_prediction;
  item.iteration_count = work.iteration_count;
  item.experimental = work.experimental;
  item.superseded = superseded;
  item.required_reviews = std::max<int64_t>(1, work.required_reviews);
  item.compare_with = work.compare_with;
  pending_.insert_or_assign(Key(item.artifact_id, item.version), std::move(item));
}

int64_t QueueItem::HeldByOthers(std::string_view reviewer, int64_t now_ms) const {
  int64_t n = 0;
  for (const Reservation& r : reservations) n += r.reviewer != reviewer && r.until_ms > now_ms;
  return n;
}

bool QueueItem::HeldBy(std::string_view reviewer, int64_t now_ms) const {
  for (const Reservation& r : reservations) {
    if (r.reviewer == reviewer && r.until_ms > now_ms) return true;
  }
  return false;
}

namespace {

void Release(QueueItem& item, std::string_view reviewer) {
  std::erase_if(item.reservations,
                [&](const QueueItem::Reservation& r) { return r.reviewer == reviewer; });
}

}  // namespace

void ReviewQueue::AddAdmin(const model::AdminView& admin) {
  if (admin.work_id.empty()) return;
  if (admin.action == "reserve" || admin.action == "release") {
    if (admin.reviewer.empty()) return;
    const int64_t minutes = admin.minutes > 0 ? admin.minutes : kDefaultReservationMinutes;
    for (auto it = pending_.lower_bound(Key(admin.work_id, {}));
         it != pending_.end() && it->first.first == admin.work_id; ++it) {
      if (!admin.work_version.empty() && it->first.second != admin.work_version) continue;
      Release(it->second, admin.reviewer);
      if (admin.action == "reserve") {
        it->second.reservations.push_back(
            {std::string(admin.reviewer), admin.at_ms + minutes * 60'000});
      }
    }
    return;
  }
  if (admin.action == "submit") {
    auto it = pending_.find(Key(admin.work_id, admin.work_version));
    if (it != pending_.end()) it->second.submitted = true;
    return;
  }
  if (admin.action != "dismiss") return;
  for (auto it = pending_.lower_bound(Key(admin.work_id, {}));
       it != pending_.end() && it->first.first == admin.work_id;) {
    if (admin.work_version.empty() || it->first.second == admin.work_version) {
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
}

void ReviewQueue::AddReview(const model::ReviewView& review) {
  if (review.work.artifact_id.empty() || pending_.empty()) return;
  auto it = pending_.find(Key(review.work.artifact_id, review.work.version));
  if (it == pending_.end()) return;
  QueueItem& item = it->second;
  Release(item, review.reviewer);  // reviewed (deferred too): no longer open on their screen
  if (review.decision == model::Decision::kDeferred) {
    ++item.deferrals;
    return;
  }
  std::vector<std::string>& by = item.reviewed_by;
  if (review.reviewer.empty() || std::find(by.begin(), by.end(), review.reviewer) == by.end()) {
    by.emplace_back(review.reviewer);
  }
  if (static_cast<int64_t>(by.size()) >= item.required_reviews) pending_.erase(it);
}

std::vector<RankedItem> OrderQueue(const ReviewQueue& queue, const AutonomyTracker& autonomy,
                                   const QueueMoment& moment) {
  std::unordered_map<std::string, TaskAutonomy> tasks;
  for (TaskAutonomy& a : autonomy.Result()) tasks.emplace(a.task_type, std::move(a));
  const bool in_best = std::find(moment.best_windows.begin(), moment.best_windows.end(),
                                 moment.time_of_day) != moment.best_windows.end();

  std::vector<RankedItem> out;
  out.reserve(queue.size());
  for (const auto& [key, item] : queue.pending()) {
    if (!item.submitted) continue;  // a prediction only
    if (!moment.reviewer.empty() && std::find(item.reviewed_by.begin(), item.reviewed_by.end(),
                                              moment.reviewer) != item.reviewed_by.end()) {
      continue;  // they decided it already: it waits for the others
    }
    const bool mine = !moment.reviewer.empty() && item.HeldBy(moment.reviewer, moment.now_ms);
    if (!moment.reviewer.empty() && !mine &&
        item.HeldByOthers(moment.reviewer, moment.now_ms) >=
            item.required_reviews - static_cast<int64_t>(item.reviewed_by.size())) {
      continue;  // others have it open for every review it still needs
    }
    RankedItem r;
    r.item = &item;
    const std::string task_type(
        OrUnspecified(!item.server_type.empty() ? item.server_type : item.type));
    if (auto it = tasks.find(task_type); it != tasks.end()) {
      r.level = it->second.level;
      r.task_class = TaskClassName(it->second.task_class);
      r.review_rate = it->second.review_rate;
    } else {
      r.level = 0;
      r.task_class = TaskClassName(TaskClass::kEscalate);  // never reviewed: too little data
      r.review_rate = 1;
    }
    r.review_required = autonomy.ShouldReview(item.artifact_id, r.level);
    std::string why = mine ? "reserved for you · " : "";
    why += std::string(item.priority.empty() ? "normal" : item.priority) + " priority";
    why += " · " + task_type + " at level " + std::to_string(r.level) + " (" +
           std::string(LevelMeaning(r.level)) + ")";
    if (!r.review_required) why += " · the sampling would let it through";
    why += " · " + std::string(ClassMeaning(r.task_class));
    if (in_best) {
      why += ", now is one of your best review windows";
    } else if (!moment.best_windows.empty()) {
      why += ", outside your best review windows";
    }
    if (item.deferrals > 0) why += " · deferred " + std::to_string(item.deferrals) + "x";
    if (item.required_reviews > 1)
      why += " · review " + std::to_string(item.reviewed_by.size() + 1) + " of " +
             std::to_string(item.required_reviews);
    if (item.superseded > 0)
      why += " · replaces " + std::to_string(item.superseded) + " older version" +
             (item.superseded == 1 ? "" : "s");
    r.why = std::move(why);
    out.push_back(std::move(r));
  }
  auto key = [&](const RankedItem& r) {
    const QueueItem& i = *r.item;
    const bool mine = !moment.reviewer.empty() && i.HeldBy(moment.reviewer, moment.now_ms);
    return std::make_tuple(!mine, !r.review_required, -PriorityRank(i.priority), r.level,
                           MomentFit(r.task_class, in_best), i.deferrals, i.at_ms, i.artifact_id,
                           i.version);
  };
  std::sort(out.begin(), out.end(),
            [&](const RankedItem& a, const RankedItem& b) { return key(a) < key(b); });
  return out;
}

void WriteJson(base::JsonWriter& w, const RankedItem& ranked,
               const std::vector<std::string_view>& versions, int64_t now_ms) {
  const QueueItem& i = *ranked.item;
  auto opt = [&](std::string_view key, std::string_view v) {
    base::Key(w, key);
    if (v.empty()) {
      w.Null();
    } else {
      base::Str(w, v);
    }
  };
  w.StartObject();
  base::Key(w, "eventId");
  base::Str(w, i.event_id);
  base::Key(w, "recordedAt");
  base::Str(w, model::FormatUtc(i.at_ms));
  base::Key(w, "ageSeconds");
  w.Int64(std::max<int64_t>(0, now_ms - i.at_ms) / 1000);
  base::Key(w, "workProduct");
  w.StartObject();
  base::Key(w, "type");
  base::Str(w, i.type);
  base::Key(w, "id");
  base::Str(w, i.artifact_id);
  base::Key(w, "version");
  base::Str(w, i.version);
  if (!i.path.empty()) {
    base::Key(w, "path");
    base::Str(w, i.path);
  }
  base::Key(w, "summary");
  base::Str(w, i.summary);
  if (!i.commit.empty()) {
    base::Key(w, "commit");
    base::Str(w, i.commit);
  }
  base::Key(w, "bubaConfidence");
  base::Num(w, i.confidence);
  if (i.score_prediction) {
    base::Key(w, "bubaScorePrediction");
    base::Num(w, *i.score_prediction);
  }
  base::Key(w, "generationContext");
  w.StartObject();
  base::Key(w, "modelUsed");
  base::Str(w, i.model);
  base::Key(w, "iterationCount");
  w.Int64(i.iteration_count);
  w.EndObject();
  w.EndObject();
  base::Key(w, "priority");
  base::Str(w, i.priority.empty() ? "normal" : i.priority);
  opt("pipelineStage", i.stage);
  opt("mcpServerType", i.server_type);
  opt("sessionId", i.session_id);
  base::Key(w, "experimental");
  w.Bool(i.experimental);
  base::Key(w, "deferrals");
  w.Int64(i.deferrals);
  base::Key(w, "supersededVersions");
  w.Int64(i.superseded);
  base::Key(w, "requiredReviews");
  w.Int64(i.required_reviews);
  base::Key(w, "compareWith");  // "" or the version to review this one against (A/B)
  base::Str(w, i.compare_with);
  base::Key(w, "reviewedBy");
  w.StartArray();
  for (const std::string& who : i.reviewed_by) base::Str(w, who);
  w.EndArray();
  base::Key(w, "reservedBy");  // those holding it now
  w.StartArray();
  for (const QueueItem::Reservation& r : i.reservations) {
    if (r.until_ms <= now_ms) continue;
    w.StartObject();
    base::Key(w, "reviewer");
    base::Str(w, r.reviewer);
    base::Key(w, "until");
    base::Str(w, model::FormatUtc(r.until_ms));
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "diffRecorded");
  w.Bool(!i.diff.empty());
  base::Key(w, "autonomy");
  w.StartObject();
  base::Key(w, "level");
  w.Int(ranked.level);
  base::Key(w, "reviewRate");
  base::Num(w, ranked.review_rate);
  base::Key(w, "class");
  base::Str(w, ranked.task_class);
  w.EndObject();
  base::Key(w, "reviewRequired");
  w.Bool(ranked.review_required);
  base::Key(w, "versions");
  w.StartArray();
  for (std::string_view v : versions) base::Str(w, v);
  w.EndArray();
  base::Key(w, "why");
  base::Str(w, ranked.why);
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void ReviewQueue::serialize(Archive& ar) {
  constexpr size_t kStrings = 13;
  auto views = [](QueueItem& item) {
    return std::array<std::string_view*, kStrings>{
        &item.event_id, &item.artifact_id, &item.version, &item.type,       &item.path,
        &item.summary,  &item.server_type, &item.stage,   &item.session_id, &item.model,
        &item.priority, &item.commit,      &item.diff};
  };
  cereal::size_type n = pending_.size();
  ar(cereal::make_size_tag(n));
  auto it = pending_.begin();
  for (cereal::size_type i = 0; i < n; ++i) {
    QueueItem loaded;
    QueueItem& item = state::kLoading<Archive> ? loaded : (it++)->second;
    std::array<std::string, kStrings> strings;
    if constexpr (!state::kLoading<Archive>) {
      size_t s = 0;
      for (std::string_view* v : views(item)) strings[s++] = std::string(*v);
    }
    ar(strings, item.at_ms, item.confidence, item.score_prediction, item.iteration_count,
       item.experimental, item.deferrals, item.superseded, item.submitted, item.required_reviews,
       item.reviewed_by, item.compare_with);
    cereal::size_type held = item.reservations.size();
    ar(cereal::make_size_tag(held));
    if constexpr (state::kLoading<Archive>) item.reservations.resize(held);
    for (QueueItem::Reservation& r : item.reservations) ar(r.reviewer, r.until_ms);
    if constexpr (state::kLoading<Archive>) {
      size_t bytes = 0;
      for (const std::string& s : strings) bytes += s.size();
      auto buffer = std::make_shared_for_overwrite<char[]>(std::max<size_t>(bytes, 1));
      char* at = buffer.get();
      size_t s = 0;
      for (std::string_view* v : views(item)) {
        std::copy(strings[s].begin(), strings[s].end(), at);
        *v = std::string_view(at, strings[s].size());
        at += strings[s++].size();
      }
      item.own = std::move(buffer);
      const Key key(item.artifact_id, item.version);
      state::Require(pending_.emplace(key, std::move(item)).second, "a queue item saved twice");
    }
  }
}

KZ_STATE_INSTANTIATE(ReviewQueue);

}  // namespace kaizen::learn
