#include "learn/reviews/reviewer_profiles.h"

namespace kaizen::learn {
namespace {

void WriteSpeeds(JsonWriter& w, std::string_view key, const std::vector<TaskSpeed>& v) {
  Key(w, key);
  w.StartArray();
  for (const TaskSpeed& t : v) {
    w.StartObject();
    Key(w, "taskType");
    Str(w, t.task_type);
    Key(w, "decided");
    w.Int64(t.decided);
    Key(w, "approved");
    w.Int64(t.approved);
    Key(w, "avgSeconds");
    Num(w, t.avg_seconds);
    w.EndObject();
  }
  w.EndArray();
}

void WriteLeans(JsonWriter& w, std::string_view key, const std::vector<ThemeLean>& v) {
  Key(w, key);
  w.StartArray();
  for (const ThemeLean& t : v) {
    w.StartObject();
    Key(w, "theme");
    Str(w, t.theme);
    Key(w, "positive");
    w.Int64(t.positive);
    Key(w, "negative");
    w.Int64(t.negative);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

void WriteJson(JsonWriter& w, const ReviewerProfile& p) {
  w.StartObject();
  Key(w, "reviewerId");
  Str(w, p.reviewer);
  Key(w, "reviews");
  w.Int64(p.reviews);
  Key(w, "approved");
  w.Int64(p.approved);
  Key(w, "rejected");
  w.Int64(p.rejected);
  Key(w, "needsWork");
  w.Int64(p.needs_work);
  Key(w, "deferred");
  w.Int64(p.deferred);
  const int64_t decided = p.approved + p.rejected + p.needs_work;
  Key(w, "approvalRate");
  if (decided > 0) {
    Num(w, static_cast<double>(p.approved) / static_cast<double>(decided));
  } else {
    w.Null();
  }
  WriteSpeeds(w, "approvesQuickly", p.approves_quickly);
  WriteSpeeds(w, "deliberatesOn", p.deliberates_on);
  WriteSpeeds(w, "alwaysRejects", p.always_rejects);
  Key(w, "bestFormat");
  if (p.communication.best_format) {
    Str(w, *p.communication.best_format);
  } else {
    w.Null();
  }
  Key(w, "bestWindows");
  StrArray(w, p.communication.best_windows);
  Key(w, "worstWindow");
  if (p.worst_window) {
    Str(w, *p.worst_window);
  } else {
    w.Null();
  }
  WriteLeans(w, "praised", p.praised);
  WriteLeans(w, "criticized", p.criticized);
  Key(w, "comparisons");
  w.Int64(p.comparisons);
  Key(w, "comparisonWinners");
  w.StartArray();
  for (const AttributeRecord& a : p.comparison_winners) {
    w.StartObject();
    Key(w, "attribute");
    Str(w, a.attribute);
    Key(w, "won");
    w.Int64(a.won);
    Key(w, "lost");
    w.Int64(a.lost);
    w.EndObject();
  }
  w.EndArray();
  Key(w, "decidingDimensions");
  w.StartArray();
  for (const DecidingDimension& d : p.deciding_dimensions) {
    w.StartObject();
    Key(w, "dimension");
    Str(w, d.dimension);
    Key(w, "agreed");
    w.Int64(d.agreed);
    Key(w, "decided");
    w.Int64(d.decided);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace kaizen::learn
