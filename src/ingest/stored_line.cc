#include "ingest/stored_line.h"

#include <rapidjson/internal/dtoa.h>
#include <rapidjson/writer.h>

#include <charconv>
#include <cmath>

#include "base/json_escape.h"
#include "ingest/json_tokens.h"
#include "text/correction_classifier.h"

namespace kaizen::ingest {
namespace {

// Rounded so stored values read well and are identical across platforms' printf.
double Round6(double d) { return std::round(d * 1e6) / 1e6; }

// Shortest round-trip form, the one RapidJSON's Writer gives every number it writes.
void AppendDouble(double d, std::string* out) {
  char digits[32];
  char* end = rapidjson::internal::dtoa(d, digits);
  out->append(digits, end);
}

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
  text::CorrectionClass proposal;
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
  // context.file (a human edit found by `kaizen git scan`) says whether the texts are code.
  std::string_view file;
  (void)event["context"]["file"].get_string().get(file);
  p.proposal = text::ClassifyCorrection(original, corrected, file);
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

// "key":"value" for kaizen's own values, which need no escaping (a kind's name, a UUID's hex
// digits, a UTC time, names from kaizen's tables): not even the test for it.
void PlainMember(std::string_view key, std::string_view value, std::string* out) {
  out->push_back('"');
  out->append(key);
  out->append("\":\"");
  out->append(value);
  out->push_back('"');
}

}  // namespace

void StoredLineWriter::String(std::string_view s, std::string* out) {
  // kaizen's own values (ids, timestamps, names from its tables) and most themes and items need
  // no escaping: they skip RapidJSON's writer, whose setup cost more than the copy.
  if (!base::NeedsJsonEscaping(s)) {
    out->push_back('"');
    out->append(s);
    out->push_back('"');
    return;
  }
  fragment_.Clear();
  rapidjson::Writer<rapidjson::StringBuffer> w(fragment_);
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  out->append(fragment_.GetString(), fragment_.GetSize());
}

void StoredLineWriter::StringMember(std::string_view key, std::string_view value,
                                    std::string* out) {
  out->push_back('"');
  out->append(key);  // kaizen's own field names: nothing to escape
  out->append("\":");
  String(value, out);
}

void StoredLineWriter::StringArray(const std::vector<std::string>& items, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out->push_back(',');
    String(items[i], out);
  }
  out->push_back(']');
}

std::string_view StoredLineWriter::Key(std::string_view raw_key) {
  if (raw_key.find('\\') == std::string_view::npos) return raw_key;
  // An escaped key ("\u006deta" is "meta"): rare, so simdjson unescapes it.
  quoted_key_.assign(raw_key.data() - 1, raw_key.size() + 2);
  std::string_view key;
  if (key_parser_.parse(quoted_key_).get_string().get(key)) return raw_key;
  return key;
}

template <typename Skip>
void StoredLineWriter::CopyMembers(const JsonTokens& tokens, size_t open, Skip skip,
                                   std::string* out) {
  bool comma = false;
  tokens.ForEachMember(open, [&](const TokenMember& m) {
    if (skip(Key(tokens.StringAt(m.key)))) return;
    if (comma) out->push_back(',');
    tokens.AppendMinified(m.key, m.end, out);
    comma = true;
  });
}

bool StoredLineWriter::Write(simdjson::dom::object event, const JsonTokens& tokens,
                             const Enrichment& e, std::string* buffer, StoredLine* out) {
  if (!tokens.ok() || tokens.First(0) != '{') return false;
  const size_t begin = buffer->size();
  const CorrectionProposal correction =
      e.kind == "correction" ? ProposeCorrectionType(event) : CorrectionProposal{};

  std::string& s = *buffer;
  s.reserve(begin + tokens.text().size() + 256);
  size_t fatigue_at = std::string::npos;
  s.push_back('{');
  PlainMember("kind", e.kind, &s);
  s.push_back(',');
  PlainMember("id", e.id, &s);
  s.push_back(',');
  PlainMember("timestamp", e.timestamp, &s);
  tokens.ForEachMember(0, [&](const TokenMember& m) {
    const std::string_view key = Key(tokens.StringAt(m.key));
    if (key == "kind" || key == "id" || key == "timestamp" || key.starts_with('_')) return;
    if (key == "signal_value" && e.signal_value) return;
    s.push_back(',');
    if (key == "correction_type" && correction.replace) {
      tokens.AppendMinified(m.key, m.value, &s);  // "correction_type":
      String(correction.proposal.type, &s);
    } else if (key == "meta" && tokens.First(m.value) == '{') {
      tokens.AppendMinified(m.key, m.value, &s);
      s.push_back('{');
      CopyMembers(tokens, m.value, IsComputedMetaField, &s);
      if (s.back() != '{') s.push_back(',');
      PlainMember("timeOfDay", e.time_of_day, &s);
      s.push_back(',');
      PlainMember("dayOfWeek", e.day_of_week, &s);
      s += ",\"sessionFatigue\":0";  // placeholder digit, replaced by FinishStoredEvent
      fatigue_at = s.size() - 1 - begin;
      s.push_back('}');
    } else if (key == "freeText" && tokens.First(m.value) == '{' && e.free_text) {
      tokens.AppendMinified(m.key, m.value, &s);
      s.push_back('{');
      CopyMembers(
          tokens, m.value, [](std::string_view k) { return k.starts_with('_'); }, &s);
      if (s.back() != '{') s.push_back(',');
      s += "\"_extractedThemes\":";
      StringArray(e.themes, &s);
      s += ",\"_sentiment\":";
      AppendDouble(e.sentiment, &s);
      s += ",\"_actionableItems\":";
      StringArray(e.actionable_items, &s);
      s.push_back('}');
    } else {
      tokens.AppendMinified(m.key, m.end, &s);
    }
  });
  if (e.signal_value) {
    s += ",\"signal_value\":";
    AppendDouble(Round6(*e.signal_value), &s);
  }
  if (correction.absent) {
    s.push_back(',');
    StringMember("correction_type", correction.proposal.type, &s);
  }
  const std::string_view category =
      correction.replace ? CorrectionCategory(correction.proposal.type) : e.correction_category;
  if (!category.empty()) {
    s.push_back(',');
    StringMember("_category", category, &s);
  }
  if (!e.judgement.empty()) {  // a prompt
    s.push_back(',');
    StringMember("_judgement", e.judgement, &s);
    if (!e.instruction.empty()) {
      s.push_back(',');
      StringMember("_instruction", e.instruction, &s);
    }
    s += ",\"_extractedThemes\":";
    StringArray(e.themes, &s);
    s += ",\"_sentiment\":";
    AppendDouble(e.sentiment, &s);
  }
  if (correction.marked) {
    s.push_back(',');
    StringMember("_proposed_type", correction.proposal.type, &s);
    s += ",\"_proposed_confidence\":";
    AppendDouble(std::round(correction.proposal.confidence * 100) / 100, &s);
  }
  s.push_back('}');
  out->text = std::string_view(s).substr(begin);
  out->fatigue_at = fatigue_at;
  return true;
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
    AppendDouble(Round6(*prediction_delta), out);
    out->append("}\n");
    return;
  }
  out->append(text);
  out->push_back('\n');
}

}  // namespace kaizen::ingest
