#include "ingest/enrich.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <array>
#include <cmath>

#include "base/json_writer.h"
#include "model/limits.h"
#include "text/prompt_judgement.h"

namespace kaizen::ingest {
namespace {

using base::JsonWriter;
using simdjson::dom::element;
using simdjson::dom::element_type;

}  // namespace

void CopyJson(element v, base::JsonWriter& w) {
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
  // kaizen's code categories (text/code_correction.h), for code an agent wrote.
  for (std::string_view type :
       {"type_safety", "naming", "error_handling", "null_handling", "dead_code", "code_fix"}) {
    if (type == t) return "code";
  }
  for (const auto& g : kTaxonomy) {
    for (auto type : g.types) {
      if (type == t) return g.category;
    }
  }
  return {};
}

void AnalyzePrompt(std::string_view text, const text::ThemeTaxonomy& taxonomy, Enrichment* out) {
  text::PromptReading reading = text::ReadPrompt(text);
  out->judgement = PromptJudgementName(reading.judgement);
  out->instruction = std::move(reading.instruction);
  out->themes = ExtractThemes(text, taxonomy);
  out->sentiment = std::round(text::Sentiment(text) * 1e4) / 1e4;
}

void AnalyzeFreeText(simdjson::dom::object free_text, const text::ThemeTaxonomy& taxonomy,
                     Enrichment* out) {
  thread_local std::string all;  // its buffer kept from event to event
  all.clear();
  for (std::string_view field : {"liked", "disliked", "generalNotes"}) {
    std::string_view s;
    if (free_text.at_key(field).get_string().get(s) == simdjson::SUCCESS && !s.empty()) {
      if (!all.empty()) all += '\n';
      all += s;
    }
  }
  out->free_text = true;
  out->themes = ExtractThemes(all, taxonomy);
  out->sentiment = std::round(text::Sentiment(all) * 1e4) / 1e4;
  out->actionable_items = text::ActionableItems(all);
  if (out->actionable_items.size() > model::kMaxActionableItems) {
    out->actionable_items.resize(model::kMaxActionableItems);
  }
}

}  // namespace kaizen::ingest
