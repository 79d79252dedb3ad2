#include "ingest/derived.h"

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>

#include "base/json_writer.h"
#include "model/json_access.h"
#include "model/timestamp.h"

namespace kaizen::ingest {
namespace {

using model::StringAt;

// ISO 8601 week: the week containing the year's first Thursday is week 1.
std::string IsoWeek(int64_t unix_ms) {
  int64_t days = unix_ms >= 0 ? unix_ms / 86400000 : (unix_ms - 86399999) / 86400000;
  model::CivilTime c = model::ToCivil(unix_ms);
  int64_t thursday = days - c.weekday + 3;
  model::CivilTime t = model::ToCivil(thursday * 86400000);
  int64_t jan1 = model::DaysFromCivil(t.year, 1, 1);
  int week = static_cast<int>((thursday - jan1) / 7 + 1);
  return fmt::format("{:04}-W{:02}", t.year, week);
}

void Merge(PeriodStats& into, const PeriodStats& from) {
  for (const auto& [k, v] : from.events_by_kind) into.events_by_kind[k] += v;
  for (const auto& [k, v] : from.decisions) into.decisions[k] += v;
  into.scores += from.scores;
  into.score_sum += from.score_sum;
  into.decision_time_n += from.decision_time_n;
  into.decision_time_sum += from.decision_time_sum;
  into.prediction_n += from.prediction_n;
  into.prediction_abs_error_sum += from.prediction_abs_error_sum;
  for (const auto& [k, v] : from.dimension_sums) {
    into.dimension_sums[k].first += v.first;
    into.dimension_sums[k].second += v.second;
  }
  into.outcomes += from.outcomes;
  into.outcome_successes += from.outcome_successes;
  for (const auto& [k, v] : from.rewards) {
    into.rewards[k].first += v.first;
    into.rewards[k].second += v.second;
  }
  for (const auto& [k, v] : from.corrections) into.corrections[k] += v;
  if (into.first_timestamp.empty() ||
      (!from.first_timestamp.empty() && from.first_timestamp < into.first_timestamp)) {
    into.first_timestamp = from.first_timestamp;
  }
  if (from.last_timestamp > into.last_timestamp) into.last_timestamp = from.last_timestamp;
}

// One event's contribution.
PeriodStats StatsOf(simdjson::dom::element e, std::string_view kind, std::string_view timestamp) {
  PeriodStats s;
  s.events_by_kind[std::string(kind)] = 1;
  s.first_timestamp = s.last_timestamp = std::string(timestamp);
  if (kind == "feedback") {
    simdjson::dom::element d;
    if (e["decision"].get(d) == simdjson::SUCCESS) {
      std::string_view decision = StringAt(d, "decision");
      if (!decision.empty()) s.decisions[std::string(decision)] = 1;
    }
    simdjson::dom::array scores;
    if (e["scores"].get_array().get(scores) == simdjson::SUCCESS) {
      for (auto sc : scores) {
        double v;
        if (sc["score"].get_double().get(v) != simdjson::SUCCESS) continue;
        ++s.scores;
        s.score_sum += v;
        auto& d = s.dimension_sums[std::string(StringAt(sc, "dimension"))];
        ++d.first;
        d.second += v;
      }
    }
    double t;
    if (e["meta"]["timeToDecisionMs"].get_double().get(t) == simdjson::SUCCESS) {
      ++s.decision_time_n;
      s.decision_time_sum += t;
    }
    double delta;
    if (e["_predictionDelta"].get_double().get(delta) == simdjson::SUCCESS) {
      ++s.prediction_n;
      s.prediction_abs_error_sum += std::fabs(delta);
    }
  } else if (kind == "outcome") {
    ++s.outcomes;
    bool ok = false;
    if (e["success"].get_bool().get(ok) == simdjson::SUCCESS && ok) ++s.outcome_successes;
  } else if (kind == "reward") {
    double v;
    if (e["signal_value"].get_double().get(v) == simdjson::SUCCESS) {
      auto& r = s.rewards[std::string(StringAt(e, "signal_type"))];
      ++r.first;
      r.second += v;
    }
  } else if (kind == "correction") {
    s.corrections[std::string(StringAt(e, "correction_type"))] = 1;
  }
  return s;
}

template <typename Map, typename Fn>
std::string GroupsJson(const Map& groups, Fn&& body) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  for (const auto& [name, g] : groups) {
    base::Key(w, name);
    w.StartObject();
    body(w, g);
    base::Key(w, "ids");
    w.StartArray();
    for (const auto& id : g.ids) base::Str(w, id);
    w.EndArray();
    w.EndObject();
  }
  w.EndObject();
  return std::string(b.GetString(), b.GetSize()) + "\n";
}

// {"name": count, ...}
void CountsJson(base::JsonWriter& w, const std::map<std::string, uint64_t>& counts) {
  w.StartObject();
  for (const auto& [k, v] : counts) {
    base::Key(w, k);
    w.Uint64(v);
  }
  w.EndObject();
}

// {"name": {"n", "mean"}, ...} from each name's count and sum.
void MeansJson(base::JsonWriter& w,
               const std::map<std::string, std::pair<uint64_t, double>>& sums) {
  w.StartObject();
  for (const auto& [k, v] : sums) {
    base::Key(w, k);
    w.StartObject();
    base::Key(w, "n");
    w.Uint64(v.first);
    base::Key(w, "mean");
    base::Num(w, v.second / static_cast<double>(v.first));
    w.EndObject();
  }
  w.EndObject();
}

}  // namespace

void DerivedBuilder::Add(simdjson::dom::element e) {
  std::string_view kind = StringAt(e, "kind");
  std::string_view id = StringAt(e, "id");
  std::string_view timestamp = StringAt(e, "timestamp");
  auto ts = model::ParseTimestamp(timestamp);
  if (!ts.ok()) return;
  ++events_;
  newest_ms_ = std::max(newest_ms_, ts->unix_ms);
  if (kind == "feedback") {
    std::string_view server = StringAt(e, "mcpServerType");
    auto& g = by_server_type_[server.empty() ? "(none)" : std::string(server)];
    ++g.count;
    g.ids.emplace_back(id);
    auto& st = by_stage_[std::string(StringAt(e, "pipelineStage"))];
    ++st.count;
    st.ids.emplace_back(id);
    simdjson::dom::element decision;
    // A null decision (an optional field given as null) is no decision.
    if (e["decision"].get(decision) == simdjson::SUCCESS && decision.is_object()) {
      auto& d = by_decision_[std::string(StringAt(decision, "decision"))];
      ++d.count;
      d.ids.emplace_back(id);
    }
    simdjson::dom::array scores;
    if (e["scores"].get_array().get(scores) == simdjson::SUCCESS) {
      for (auto sc : scores) {
        double v;
        if (sc["score"].get_double().get(v) != simdjson::SUCCESS) continue;
        auto& d = by_dimension_[std::string(StringAt(sc, "dimension"))];
        ++d.count;
        d.sum += v;
        int bucket = std::clamp(static_cast<int>(std::lround(v)), 1, 10);
        ++d.histogram[bucket - 1];
        d.ids.emplace_back(id);
      }
    }
  }
  PeriodStats s = StatsOf(e, kind, timestamp);
  Merge(all_, s);
  const std::string day = model::FormatDay(ts->unix_ms);
  Merge(daily_[day], s);
  Merge(weekly_[IsoWeek(ts->unix_ms)], s);
  Merge(monthly_[day.substr(0, 7)], s);
}

PeriodStats DerivedBuilder::Rolling30d() const {
  PeriodStats out;
  if (events_ == 0) return out;
  std::string first_day = model::FormatDay(newest_ms_ - 29LL * 86400000);
  for (auto it = daily_.lower_bound(first_day); it != daily_.end(); ++it) Merge(out, it->second);
  return out;
}

std::string PeriodJson(const std::string& period, const PeriodStats& s) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "period");
  base::Str(w, period);
  base::Key(w, "from");
  base::Str(w, s.first_timestamp);
  base::Key(w, "to");
  base::Str(w, s.last_timestamp);
  base::Key(w, "events");
  CountsJson(w, s.events_by_kind);
  base::Key(w, "decisions");
  CountsJson(w, s.decisions);
  uint64_t total_decisions = 0;
  for (const auto& [k, v] : s.decisions) total_decisions += v;
  auto ratio = [&](std::string_view name, double num, double den) {
    base::Key(w, name);
    if (den > 0) {
      base::Num(w, num / den);
    } else {
      w.Null();
    }
  };
  auto approved = s.decisions.count("approved") ? s.decisions.at("approved") : 0;
  ratio("approvalRate", static_cast<double>(approved), static_cast<double>(total_decisions));
  ratio("avgQualityScore", s.score_sum, static_cast<double>(s.scores));
  ratio("avgTimeToDecisionMs", s.decision_time_sum, static_cast<double>(s.decision_time_n));
  ratio("predictionAccuracy", s.prediction_abs_error_sum, static_cast<double>(s.prediction_n));
  base::Key(w, "byDimension");
  MeansJson(w, s.dimension_sums);
  base::Key(w, "outcomes");
  w.StartObject();
  base::Key(w, "n");
  w.Uint64(s.outcomes);
  ratio("successRate", static_cast<double>(s.outcome_successes), static_cast<double>(s.outcomes));
  w.EndObject();
  base::Key(w, "rewards");
  MeansJson(w, s.rewards);
  base::Key(w, "corrections");
  CountsJson(w, s.corrections);
  w.EndObject();
  return std::string(b.GetString(), b.GetSize()) + "\n";
}

std::map<std::string, std::string> DerivedBuilder::Files() const {
  std::map<std::string, std::string> files;
  auto count_only = [](base::JsonWriter& w, const Group& g) {
    base::Key(w, "count");
    w.Uint64(g.count);
  };
  files["feedback/indexes/by-server-type.json"] = GroupsJson(by_server_type_, count_only);
  files["feedback/indexes/by-decision.json"] = GroupsJson(by_decision_, count_only);
  files["feedback/indexes/by-stage.json"] = GroupsJson(by_stage_, count_only);
  files["feedback/indexes/by-dimension.json"] =
      GroupsJson(by_dimension_, [](base::JsonWriter& w, const DimensionIndex& d) {
        base::Key(w, "count");
        w.Uint64(d.count);
        base::Key(w, "mean");
        base::Num(w, d.sum / static_cast<double>(d.count));
        base::Key(w, "histogram");
        w.StartArray();
        for (uint64_t h : d.histogram) w.Uint64(h);
        w.EndArray();
      });
  for (const auto& [week, s] : weekly_)
    files["feedback/aggregates/weekly/" + week + ".json"] = PeriodJson(week, s);
  for (const auto& [month, s] : monthly_)
    files["feedback/aggregates/monthly/" + month + ".json"] = PeriodJson(month, s);
  files["feedback/aggregates/rolling-30d.json"] = PeriodJson("rolling-30d", Rolling30d());
  return files;
}

}  // namespace kaizen::ingest
