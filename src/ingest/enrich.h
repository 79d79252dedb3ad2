// Stage 2 of the pipeline (seed 000 §4): what kaizen adds to an event before storing it, and the
// serialization of the stored line.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "text/text_analysis.h"

namespace kaizen::ingest {

struct Enrichment {
  // Views: the caller keeps the text (the Ingestor, in the prepared line and on its stack).
  std::string_view kind;
  std::string_view id;         // UUID, generated (v7) when the event had none
  std::string_view timestamp;  // normalized to UTC: 2025-07-11T09:30:00.000Z
  // feedback
  std::string_view time_of_day;  // from the local time the timestamp was written in
  std::string_view day_of_week;
  bool free_text = false;
  std::vector<std::string> themes;
  double sentiment = 0;
  std::vector<std::string> actionable_items;
  // reward
  std::optional<double> signal_value;
  // correction
  std::string_view correction_category;
  // prompt: the judgement and instruction of text/prompt_judgement.h, with `themes` and
  // `sentiment` above (free_text stays false: they are written at the top level)
  std::string_view judgement;
  std::string instruction;
};

// Writes a parsed value as compact JSON, in its order (how every stored line is written; also
// what bench/json_writer_bench.cc measures against the other writers).
void CopyJson(simdjson::dom::element value, rapidjson::Writer<rapidjson::StringBuffer>& writer);

// morning 05-12, afternoon 12-17, evening 17-21, night 21-05 (local hour).
std::string_view TimeOfDay(int hour);
std::string_view DayOfWeek(int weekday);  // 0 = monday
// seed 004's taxonomy groups: content, style, structural, or the domain of a domain-specific type;
// empty for types outside the taxonomy.
std::string_view CorrectionCategory(std::string_view correction_type);

// The analysis of a prompt's `text`: its judgement, instruction, themes and sentiment.
void AnalyzePrompt(std::string_view text, const text::ThemeTaxonomy& taxonomy, Enrichment* out);

// The free-text analysis of a FreeTextFeedback object.
void AnalyzeFreeText(simdjson::dom::object free_text, const text::ThemeTaxonomy& taxonomy,
                     Enrichment* out);

}  // namespace kaizen::ingest
