#include "learn/reviews/reviewer_profiles.h"

namespace kaizen::learn {
namespace {

void WriteSpeeds(base::JsonWriter& w, std::string_view key, const std::vector<TaskSpeed>& v) {
  base::Key(w, key);
  w.StartArray();
  for (const TaskSpeed& t : v) {
    w.StartObject();
    base::Key(w, "taskType");
    base::Str(w, t.task_type);
    base::Key(w, "decided");
    w.Int64(t.decided);
    base::Key(w, "approved");
    w.Int64(t.approved);
    base::Key(w, "avgSeconds");
    base::Num(w, t.avg_seconds);
    w.EndObject();
  }
  w.EndArray();
}

void WriteLeans(base::JsonWriter& w, std::string_view key, const std::vector<ThemeLean>& v) {
  base::Key(w, key);
  w.StartArray();
  for (const ThemeLean& t : v) {
    w.StartObject();
    base::Key(w, "theme");
    base::Str(w, t.theme);
    base::Key(w, "positive");
    w.Int64(t.positive);
    base::Key(w, "negative");
    w.Int64(t.negative);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

void WriteJson(base::JsonWriter& w, const ReviewerProfile& p) {
  w.StartObject();
  base::Key(w, "reviewerId");
  base::Str(w, p.reviewer);
  base::Key(w, "reviews");
  w.Int64(p.reviews);
  base::Key(w, "approved");
  w.Int64(p.approved);
  base::Key(w, "rejected");
  w.Int64(p.rejected);
  base::Key(w, "needsWork");
  w.Int64(p.needs_work);
  base::Key(w, "deferred");
  w.Int64(p.deferred);
  const int64_t decided = p.approved + p.rejected + p.needs_work;
  base::Key(w, "approvalRate");
  if (decided > 0) {
    base::Num(w, static_cast<double>(p.approved) / static_cast<double>(decided));
  } else {
    w.Null();
  }
  WriteSpeeds(w, "approvesQuickly", p.approves_quickly);
  WriteSpeeds(w, "deliberatesOn", p.deliberates_on);
  WriteSpeeds(w, "alwaysRejects", p.always_rejects);
  base::Key(w, "bestFormat");
  if (p.communication.best_format) {
    base::Str(w, *p.communication.best_format);
  } else {
    w.Null();
  }
  base::Key(w, "bestWindows");
  base::StrArray(w, p.communication.best_windows);
  base::Key(w, "worstWindow");
  if (p.worst_window) {
    base::Str(w, *p.worst_window);
  } else {
    w.Null();
  }
  WriteLeans(w, "praised", p.praised);
  WriteLeans(w, "criticized", p.criticized);
  base::Key(w, "comparisons");
  w.Int64(p.comparisons);
  base::Key(w, "comparisonWinners");
  w.StartArray();
  for (const AttributeRecord& a : p.comparison_winners) {
    w.StartObject();
    base::Key(w, "attribute");
    base::Str(w, a.attribute);
    base::Key(w, "won");
    w.Int64(a.won);
    base::Key(w, "lost");
    w.Int64(a.lost);
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "decidingDimensions");
  w.StartArray();
  for (const DecidingDimension& d : p.deciding_dimensions) {
    w.StartObject();
    base::Key(w, "dimension");
    base::Str(w, d.dimension);
    base::Key(w, "agreed");
    w.Int64(d.agreed);
    base::Key(w, "decided");
    w.Int64(d.decided);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace kaizen::learn
