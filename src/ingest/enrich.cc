#include "ingest/enrich.h"

#include <rapidjson/internal/dtoa.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <array>
#include <charconv>
#include <cmath>

#include "ingest/correction_classifier.h"
#include "model/limits.h"

namespace kaizen::ingest {
namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;
using simdjson::dom::element;
using simdjson::dom::element_type;

}  // namespace

void CopyJson(element v, JsonWriter& w) {
  switch (v.type()) {
    case element_type::OBJECT:
      w.StartObject();
      // Bind the object to a local: iterating the temporary result would dangle.
      for (simdjson::dom::object o = v.get_object().value_unsafe(); auto [key, child] : o) {
        w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
        CopyJson(child, w);
      }
      w.EndObject();
      return;
    case element_type::ARRAY:
      w.StartArray();
      for (simdjson::dom::array a = v.get_array().value_unsafe(); element child : a)
        CopyJson(child, w);
      w.EndArray();
      return;
    case element_type::STRING: {
      std::string_view s = v.get_string().value_unsafe();
      w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
      return;
    }
    case element_type::INT64:
      w.Int64(v.get_int64().value_unsafe());
      return;
    case element_type::UINT64:
      w.Uint64(v.get_uint64().value_unsafe());
      return;
    case element_type::DOUBLE:
      w.Double(v.get_double().value_unsafe());
      return;
    case element_type::BOOL:
      w.Bool(v.get_bool().value_unsafe());
      return;
    case element_type::NULL_VALUE:
      w.Null();
      return;
  }
}

namespace {

void Key(JsonWriter& w, std::string_view k) {
  w.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
}
void Str(JsonWriter& w, std::string_view s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}
void StrArray(JsonWriter& w, const std::vector<std::string>& items) {
  w.StartArray();
  for (const auto& s : items) Str(w, s);
  w.EndArray();
}

// Rounded so stored values read well and are identical across platforms' printf.
double Round6(double d) { return std::round(d * 1e6) / 1e6; }

bool IsComputedMetaField(std::string_view k) {
  return k == "timeOfDay" || k == "dayOfWeek" || k == "sessionFatigue";
}

// seed 004 "Auto-classify or user selects": a correction whose `correction_type` is absent (or
// null) or "auto" is stored with the classifier's proposal as its `correction_type`, marked by
// `_proposed_type` (the same type) and `_proposed_confidence`, so every reader sees a type and
// anyone can tell a machine's proposal from a person's choice.
struct CorrectionProposal {
  bool replace = false;  // write the proposal as correction_type
  bool absent = false;   // the input had no correction_type: append one
  bool marked = false;   // write _proposed_type / _proposed_confidence
  CorrectionClass proposal;
};

CorrectionProposal ProposeCorrectionType(simdjson::dom::object event) {
  CorrectionProposal p;
  // A field that is absent (or not a string) reads as empty.
  auto string_at = [&](std::string_view key, std::string_view* out) {
    return event[key].get_string().get(*out) == simdjson::SUCCESS;
  };
  std::string_view given, original, corrected, mark;
  const bool has_type = string_at("correction_type", &given);
  string_at("_proposed_type", &mark);
  if (has_type && given != "auto" && mark.empty()) return p;  // a person's type, kept as given
  string_at("original", &original);
  string_at("corrected", &corrected);
  p.proposal = ClassifyCorrection(original, corrected);
  if (!has_type || given == "auto") {
    p.replace = p.marked = true;
    p.absent = !has_type;
    return p;
  }
  // A stored line read back in (an import of an export): enrichment is recomputed, so the mark
  // stays only while it still holds (the classifier is deterministic, so it does).
  p.marked = given == mark && mark == p.proposal.type;
  return p;
}

}  // namespace

std::string_view TimeOfDay(int hour) {
  if (hour >= 5 && hour < 12) return "morning";
  if (hour >= 12 && hour < 17) return "afternoon";
  if (hour >= 17 && hour < 21) return "evening";
  return "night";
}

std::string_view DayOfWeek(int weekday) {
  static constexpr std::array<std::string_view, 7> kDays = {
      "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};
  return kDays[static_cast<size_t>(weekday) % 7];
}

std::string_view CorrectionCategory(std::string_view t) {
  struct Group {
    std::string_view category;
    std::array<std::string_view, 3> types;
  };
  static constexpr std::array<Group, 5> kTaxonomy = {{
      {"content", {"factual_error", "missing_detail", "excessive_detail"}},
      {"style", {"tone_mismatch", "passive_to_active", "jargon_overuse"}},
      {"structural", {"missing_section", "section_order", "bullet_structure"}},
      {"domain:jseeker", {"ats_keyword_missing", "metric_vague", "experience_inflated"}},
      {"domain:via", {"claim_too_vague", "source_missing", "claim_unsupported"}},
  }};
  if (t == "formatting") return "style";
  for (const auto& g : kTaxonomy) {
    for (auto type : g.types) {
      if (type == t) return g.category;
    }
  }
  return {};
}

void AnalyzeFreeText(simdjson::dom::object free_text, const ThemeTaxonomy& taxonomy,
                     Enrichment* out) {
  std::string all;
  for (std::string_view field : {"liked", "disliked", "generalNotes"}) {
    std::string_view s;
    if (free_text.at_key(field).get_string().get(s) == simdjson::SUCCESS && !s.empty()) {
      if (!all.empty()) all += '\n';
      all += s;
    }
  }
  out->free_text = true;
  out->themes = ExtractThemes(all, taxonomy);
  out->sentiment = std::round(Sentiment(all) * 1e4) / 1e4;
  out->actionable_items = ActionableItems(all);
  if (out->actionable_items.size() > model::kMaxActionableItems) {
    out->actionable_items.resize(model::kMaxActionableItems);
  }
}

void WriteStoredEvent(simdjson::dom::object event, const Enrichment& e, StoredLine* out) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  size_t fatigue_at = std::string::npos;
  w.StartObject();
  Key(w, "kind");
  Str(w, e.kind);
  Key(w, "id");
  Str(w, e.id);
  Key(w, "timestamp");
  Str(w, e.timestamp);
  const CorrectionProposal correction =
      e.kind == "correction" ? ProposeCorrectionType(event) : CorrectionProposal{};
  for (auto [key, value] : event) {
    if (key == "kind" || key == "id" || key == "timestamp" || key.starts_with('_')) continue;
    if (key == "signal_value" && e.signal_value) continue;
    if (key == "correction_type" && correction.replace) {
      Key(w, key);
      Str(w, correction.proposal.type);
      continue;
    }
    Key(w, key);
    if (key == "meta" && value.is_object()) {
      w.StartObject();
      for (simdjson::dom::object meta = value.get_object().value_unsafe(); auto [mk, mv] : meta) {
        if (IsComputedMetaField(mk)) continue;
        Key(w, mk);
        CopyJson(mv, w);
      }
      Key(w, "timeOfDay");
      Str(w, e.time_of_day);
      Key(w, "dayOfWeek");
      Str(w, e.day_of_week);
      Key(w, "sessionFatigue");
      w.Int64(0);  // placeholder digit, replaced by FinishStoredEvent
      fatigue_at = buffer.GetSize() - 1;
      w.EndObject();
    } else if (key == "freeText" && value.is_object() && e.free_text) {
      w.StartObject();
      for (simdjson::dom::object text = value.get_object().value_unsafe(); auto [fk, fv] : text) {
        if (fk.starts_with('_')) continue;
        Key(w, fk);
        CopyJson(fv, w);
      }
      Key(w, "_extractedThemes");
      StrArray(w, e.themes);
      Key(w, "_sentiment");
      w.Double(e.sentiment);
      Key(w, "_actionableItems");
      StrArray(w, e.actionable_items);
      w.EndObject();
    } else {
      CopyJson(value, w);
    }
  }
  if (e.signal_value) {
    Key(w, "signal_value");
    w.Double(Round6(*e.signal_value));
  }
  if (correction.absent) {
    Key(w, "correction_type");
    Str(w, correction.proposal.type);
  }
  const std::string_view category =
      correction.replace ? CorrectionCategory(correction.proposal.type) : e.correction_category;
  if (!category.empty()) {
    Key(w, "_category");
    Str(w, category);
  }
  if (correction.marked) {
    Key(w, "_proposed_type");
    Str(w, correction.proposal.type);
    Key(w, "_proposed_confidence");
    w.Double(std::round(correction.proposal.confidence * 100) / 100);
  }
  w.EndObject();
  out->text.assign(buffer.GetString(), buffer.GetSize());
  out->fatigue_at = fatigue_at;
}

void FinishStoredEvent(const StoredLine& line, int64_t session_fatigue,
                       std::optional<double> prediction_delta, std::string* out) {
  std::string_view text = line.text;
  if (line.fatigue_at != std::string::npos) {
    out->append(text.substr(0, line.fatigue_at));
    char digits[24];
    out->append(digits, std::to_chars(digits, digits + sizeof digits, session_fatigue).ptr);
    text.remove_prefix(line.fatigue_at + 1);
  }
  if (prediction_delta) {
    text.remove_suffix(1);  // the closing brace
    out->append(text);
    out->append(",\"_predictionDelta\":");
    char digits[32];
    // The same shortest round-trip formatting rapidjson's Writer uses for every other number.
    char* end = rapidjson::internal::dtoa(Round6(*prediction_delta), digits);
    out->append(digits, end);
    out->append("}\n");
    return;
  }
  out->append(text);
  out->push_back('\n');
}

}  // namespace kaizen::ingest
