// `kaizen corrections --json`: a learned correction pattern as JSON (correction_patterns.h).
#include "learn/corrections/correction_patterns.h"
#include "model/timestamp.h"

namespace kaizen::learn {

void WriteJson(JsonWriter& w, const CorrectionPattern& p) {
  w.StartObject();
  WriteJsonFields(w, p);
  w.EndObject();
}

void WriteJsonFields(JsonWriter& w, const CorrectionPattern& p) {
  auto strings = [&](std::string_view key, const std::vector<std::string>& items) {
    Key(w, key);
    StrArray(w, items);
  };
  Key(w, "pattern_id");
  Str(w, p.id);
  Key(w, "correction_type");
  Str(w, p.correction_type);
  Key(w, "kind");
  Str(w, KindName(p.kind));
  Key(w, "key");
  Str(w, p.key);
  Key(w, "occurrences");
  w.Int64(p.occurrences);
  Key(w, "against");
  w.Int64(p.against);
  Key(w, "consistency");
  Num(w, p.consistency);
  Key(w, "confidence");
  Num(w, p.confidence);
  strings("applicable_to", p.applicable_to);
  strings("users", p.users);
  Key(w, "first_seen");
  Str(w, model::FormatUtc(p.first_ms));
  Key(w, "last_seen");
  Str(w, model::FormatUtc(p.last_ms));
  Key(w, "words");
  w.StartArray();
  for (const WordCount& word : p.words) {
    w.StartObject();
    Key(w, "word");
    Str(w, word.word);
    Key(w, "count");
    w.Int64(word.count);
    w.EndObject();
  }
  w.EndArray();
  Key(w, "verb");
  Str(w, p.verb);
  Key(w, "length_ratio");
  Num(w, p.length_ratio);
  Key(w, "max_line_words");
  w.Int64(p.max_line_words);
  Key(w, "approvals");
  w.Uint64(p.approved_by.size());
  Key(w, "rejections");
  w.Uint64(p.rejected_by.size());
  strings("approved_by", p.approved_by);
  strings("rejected_by", p.rejected_by);
  strings("users_confirmed", p.users_confirmed);
  strings("users_rejected", p.users_rejected);
  Key(w, "consensus_score");
  Num(w, p.consensus);
  Key(w, "status");
  Str(w, StatusName(p.status));
  Key(w, "enforceable");
  w.Bool(p.enforceable);
  Key(w, "examples_checked");
  w.Int64(p.examples_checked);
  Key(w, "contradicted");
  w.Int64(p.contradicted);
  Key(w, "unexplained");
  w.Int64(p.unexplained);
  Key(w, "inconsistency");
  Str(w, p.inconsistency);
  Key(w, "examples");
  w.StartArray();
  for (const CorrectionExample& e : p.examples) {
    w.StartObject();
    Key(w, "original");
    Str(w, e.original);
    Key(w, "corrected");
    Str(w, e.corrected);
    Key(w, "user_id");
    Str(w, e.user);
    Key(w, "project");
    Str(w, e.project);
    Key(w, "timestamp");
    Str(w, model::FormatUtc(e.at_ms));
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace kaizen::learn
