#include "ingest/retention.h"

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>

#include "base/json_writer.h"
#include "ingest/enrich.h"
#include "model/json_access.h"
#include "model/timestamp.h"

namespace kaizen::ingest {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

constexpr int64_t kMsPerDay = 86'400'000;

// The behavioral meta fields stripped after the window; timeToDecisionMs is averaged instead.
constexpr std::string_view kStrippedMeta[] = {
    "timeToFirstInteractionMs", "fieldsModified", "scrollDepth", "revisits", "deviceType",
    "concurrentModals"};
constexpr std::string_view kStrippedFreeText[] = {"liked", "disliked", "generalNotes",
                                                  "_actionableItems"};

template <size_t N>
bool In(std::string_view key, const std::string_view (&keys)[N]) {
  for (auto k : keys) {
    if (k == key) return true;
  }
  return false;
}

uint64_t CountAt(element e, std::string_view key) {
  uint64_t n = 0;
  if (e[key].get_uint64().get(n) != simdjson::SUCCESS) return 0;
  return n;
}

double NumberOr(element e, double fallback) {
  double d;
  return e.get_double().get(d) == simdjson::SUCCESS ? d : fallback;
}

}  // namespace

bool DayPastWindow(std::string_view day, int64_t days, int64_t now_ms) {
  auto start = model::ParseTimestamp(std::string(day) + "T00:00:00Z");
  if (!start.ok()) return false;
  return start->unix_ms + kMsPerDay + days * kMsPerDay <= now_ms;
}

// ---- behavioral aggregates -------------------------------------------------------------------

void BehaviorAggregates::Fold(std::string_view day, element feedback) {
  std::string id(model::StringAt(feedback, "id"));
  BehaviorDay& d = days_[std::string(day)];
  if (!d.folded.insert(id).second) return;
  changed_ = true;
  ++d.reviews;
  element meta;
  if (feedback["meta"].get(meta) != simdjson::SUCCESS) return;
  element v;
  if (meta["timeToDecisionMs"].get(v) == simdjson::SUCCESS) {
    d.time_to_decision_ms.Add(NumberOr(v, 0));
  }
  if (meta["timeToFirstInteractionMs"].get(v) == simdjson::SUCCESS) {
    d.time_to_first_interaction_ms.Add(NumberOr(v, 0));
  }
  if (meta["scrollDepth"].get(v) == simdjson::SUCCESS) d.scroll_depth.Add(NumberOr(v, 0));
  if (meta["revisits"].get(v) == simdjson::SUCCESS) d.revisits.Add(NumberOr(v, 0));
  if (meta["concurrentModals"].get(v) == simdjson::SUCCESS) {
    d.concurrent_modals.Add(NumberOr(v, 0));
  }
  simdjson::dom::array fields;
  if (meta["fieldsModified"].get_array().get(fields) == simdjson::SUCCESS) {
    d.fields_modified.Add(static_cast<double>(fields.size()));
  }
  std::string_view device = model::StringAt(meta, "deviceType");
  if (!device.empty()) ++d.device_type[std::string(device)];
}

void BehaviorAggregates::FinishDay(std::string_view day) {
  auto it = days_.find(std::string(day));
  if (it == days_.end() || !finished_.insert(it->first).second) return;
  const BehaviorDay::Stat& t = it->second.time_to_decision_ms;
  // Whole milliseconds, so the stored value reads like the ones reviewers' tools send.
  it->second.written_time_to_decision_ms = t.n ? std::round(t.sum / static_cast<double>(t.n)) : 0;
  changed_ = true;
}

std::optional<double> BehaviorAggregates::WrittenMean(std::string_view day) const {
  auto it = days_.find(std::string(day));
  if (it == days_.end() || !finished_.count(it->first)) return std::nullopt;
  return it->second.written_time_to_decision_ms;
}

std::string BehaviorAggregates::Json() const {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  auto stat = [&](std::string_view name, const BehaviorDay::Stat& s) {
    base::Key(w, name);
    w.StartObject();
    base::Key(w, "mean");
    w.Double(s.n ? s.sum / static_cast<double>(s.n) : 0);
    base::Key(w, "n");
    w.Uint64(s.n);
    base::Key(w, "sum");
    w.Double(s.sum);
    w.EndObject();
  };
  w.StartObject();
  base::Key(w, "days");
  w.StartObject();
  for (const auto& [day, d] : days_) {
    base::Key(w, day);
    w.StartObject();
    stat("concurrentModals", d.concurrent_modals);
    base::Key(w, "deviceType");
    w.StartObject();
    for (const auto& [device, n] : d.device_type) {
      base::Key(w, device);
      w.Uint64(n);
    }
    w.EndObject();
    stat("fieldsModified", d.fields_modified);
    base::Key(w, "folded");
    w.StartArray();
    for (const auto& id : d.folded) base::Str(w, id);
    w.EndArray();
    base::Key(w, "reviews");
    w.Uint64(d.reviews);
    stat("revisits", d.revisits);
    stat("scrollDepth", d.scroll_depth);
    stat("timeToDecisionMs", d.time_to_decision_ms);
    stat("timeToFirstInteractionMs", d.time_to_first_interaction_ms);
    base::Key(w, "writtenTimeToDecisionMs");
    w.Double(d.written_time_to_decision_ms);
    w.EndObject();
  }
  w.EndObject();
  base::Key(w, "policy");
  base::Str(
      w, "seed 000 §9.1: timing/behavioral meta kept 30 days per event, then averaged per UTC day");
  w.EndObject();
  return std::string(b.GetString(), b.GetSize()) + "\n";
}

Result<BehaviorAggregates> BehaviorAggregates::Parse(std::string_view json) {
  BehaviorAggregates a;
  if (json.find_first_not_of(" \t\r\n") == std::string_view::npos) return a;
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  element doc;
  object days;
  if (parser.parse(padded).get(doc) != simdjson::SUCCESS ||
      doc["days"].get_object().get(days) != simdjson::SUCCESS) {
    return DataLoss("is not a behavior aggregates file ({\"days\": {...}})");
  }
  for (auto field : days) {
    const std::string_view day = field.key;
    const element v = field.value;
    BehaviorDay d;
    auto stat = [&](std::string_view name, BehaviorDay::Stat* s) {
      element e;
      if (v[name].get(e) != simdjson::SUCCESS) return;
      s->n = CountAt(e, "n");
      element sum;
      if (e["sum"].get(sum) == simdjson::SUCCESS) s->sum = NumberOr(sum, 0);
    };
    stat("concurrentModals", &d.concurrent_modals);
    stat("fieldsModified", &d.fields_modified);
    stat("revisits", &d.revisits);
    stat("scrollDepth", &d.scroll_depth);
    stat("timeToDecisionMs", &d.time_to_decision_ms);
    stat("timeToFirstInteractionMs", &d.time_to_first_interaction_ms);
    d.reviews = CountAt(v, "reviews");
    element written;
    if (v["writtenTimeToDecisionMs"].get(written) == simdjson::SUCCESS) {
      d.written_time_to_decision_ms = NumberOr(written, 0);
    }
    object devices;
    if (v["deviceType"].get_object().get(devices) == simdjson::SUCCESS) {
      for (auto [device, n] : devices) {
        uint64_t count = 0;
        if (n.get_uint64().get(count) == simdjson::SUCCESS)
          d.device_type[std::string(device)] = count;
      }
    }
    simdjson::dom::array folded;
    if (v["folded"].get_array().get(folded) == simdjson::SUCCESS) {
      for (element id : folded) {
        std::string_view s;
        if (id.get_string().get(s) == simdjson::SUCCESS) d.folded.emplace(s);
      }
    }
    a.finished_.emplace(day);
    a.days_.emplace(std::string(day), std::move(d));
  }
  return a;
}

// ---- compaction of one event -------------------------------------------------------------------

std::optional<std::string> CompactEvent(element event, std::string_view day,
                                        const RetentionPolicy& policy, int64_t now_ms,
                                        const BehaviorAggregates& aggregates,
                                        CompactionCounts* counts) {
  std::string_view kind = model::StringAt(event, "kind");
  const bool feedback = kind == "feedback", correction = kind == "correction";
  if (!feedback && !correction) return std::nullopt;
  const bool free_text_expired = DayPastWindow(day, policy.free_text_days, now_ms);
  const bool annotations_expired = DayPastWindow(day, policy.annotation_days, now_ms);
  const bool behavior_expired = DayPastWindow(day, policy.behavior_days, now_ms);
  const bool correction_expired = DayPastWindow(day, policy.correction_days, now_ms);
  const std::optional<double> mean = aggregates.WrittenMean(day);

  CompactionCounts local;
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  w.StartObject();
  for (object o = event.get_object().value_unsafe(); auto [key, value] : o) {
    if (correction && correction_expired && (key == "original" || key == "corrected")) {
      std::string_view expired = key == "original" ? kExpiredOriginal : kExpiredCorrected;
      base::Key(w, key);
      base::Str(w, expired);
      if (model::StringAt(event, key) != expired) local.corrections = 1;
      continue;
    }
    if (feedback && free_text_expired && key == "freeText" && value.is_object()) {
      base::Key(w, key);
      w.StartObject();
      for (object ft = value.get_object().value_unsafe(); auto [fk, fv] : ft) {
        if (In(fk, kStrippedFreeText)) {
          local.free_text = 1;
          continue;
        }
        base::Key(w, fk);
        CopyJson(fv, w);
      }
      w.EndObject();
      continue;
    }
    if (feedback && annotations_expired && key == "annotations" && value.is_array()) {
      base::Key(w, key);
      w.StartArray();
      for (simdjson::dom::array a = value.get_array().value_unsafe(); element an : a) {
        if (!an.is_object()) {
          CopyJson(an, w);
          continue;
        }
        w.StartObject();
        for (object ao = an.get_object().value_unsafe(); auto [ak, av] : ao) {
          base::Key(w, ak);
          if (ak == "target") {
            object target;
            if (av.get_object().get(target) == simdjson::SUCCESS && target.size() > 0) {
              local.annotations = 1;
            }
            w.StartObject();  // de-linked: the schema requires the object, not its fields
            w.EndObject();
          } else {
            CopyJson(av, w);
          }
        }
        w.EndObject();
      }
      w.EndArray();
      continue;
    }
    if (feedback && behavior_expired && mean && key == "meta" && value.is_object()) {
      base::Key(w, key);
      w.StartObject();
      for (object meta = value.get_object().value_unsafe(); auto [mk, mv] : meta) {
        if (In(mk, kStrippedMeta)) {
          local.behavior = 1;
          continue;
        }
        base::Key(w, mk);
        if (mk == "timeToDecisionMs") {
          if (NumberOr(mv, -1) != *mean) local.behavior = 1;
          w.Int64(static_cast<int64_t>(*mean));  // whole milliseconds (FinishDay rounds)
        } else {
          CopyJson(mv, w);
        }
      }
      w.EndObject();
      continue;
    }
    base::Key(w, key);
    CopyJson(value, w);
  }
  w.EndObject();
  if (!local.any()) return std::nullopt;
  counts->free_text += local.free_text;
  counts->corrections += local.corrections;
  counts->annotations += local.annotations;
  counts->behavior += local.behavior;
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace kaizen::ingest
