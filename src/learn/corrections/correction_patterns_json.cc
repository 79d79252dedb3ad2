// `kaizen corrections --json`: a learned correction pattern as JSON (correction_patterns.h).
#include "learn/corrections/correction_patterns.h"
#include "model/timestamp.h"

namespace kaizen::learn {

void WriteJson(base::JsonWriter& w, const CorrectionPattern& p) {
  w.StartObject();
  WriteJsonFields(w, p);
  w.EndObject();
}

void WriteJsonFields(base::JsonWriter& w, const CorrectionPattern& p) {
  auto strings = [&](std::string_view key, const std::vector<std::string>& items) {
    base::Key(w, key);
    base::StrArray(w, items);
  };
  base::Key(w, "pattern_id");
  base::Str(w, p.id);
  base::Key(w, "correction_type");
  base::Str(w, p.correction_type);
  base::Key(w, "kind");
  base::Str(w, KindName(p.kind));
  base::Key(w, "key");
  base::Str(w, p.key);
  base::Key(w, "occurrences");
  w.Int64(p.occurrences);
  base::Key(w, "against");
  w.Int64(p.against);
  base::Key(w, "consistency");
  base::Num(w, p.consistency);
  base::Key(w, "confidence");
  base::Num(w, p.confidence);
  strings("applicable_to", p.applicable_to);
  strings("users", p.users);
  base::Key(w, "first_seen");
  base::Str(w, model::FormatUtc(p.first_ms));
  base::Key(w, "last_seen");
  base::Str(w, model::FormatUtc(p.last_ms));
  base::Key(w, "words");
  w.StartArray();
  for (const WordCount& word : p.words) {
    w.StartObject();
    base::Key(w, "word");
    base::Str(w, word.word);
    base::Key(w, "count");
    w.Int64(word.count);
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "verb");
  base::Str(w, p.verb);
  base::Key(w, "length_ratio");
  base::Num(w, p.length_ratio);
  base::Key(w, "max_line_words");
  w.Int64(p.max_line_words);
  base::Key(w, "approvals");
  w.Uint64(p.approved_by.size());
  base::Key(w, "rejections");
  w.Uint64(p.rejected_by.size());
  strings("approved_by", p.approved_by);
  strings("rejected_by", p.rejected_by);
  strings("users_confirmed", p.users_confirmed);
  strings("users_rejected", p.users_rejected);
  base::Key(w, "consensus_score");
  base::Num(w, p.consensus);
  base::Key(w, "status");
  base::Str(w, StatusName(p.status));
  base::Key(w, "enforceable");
  w.Bool(p.enforceable);
  base::Key(w, "examples_checked");
  w.Int64(p.examples_checked);
  base::Key(w, "contradicted");
  w.Int64(p.contradicted);
  base::Key(w, "unexplained");
  w.Int64(p.unexplained);
  base::Key(w, "inconsistency");
  base::Str(w, p.inconsistency);
  base::Key(w, "examples");
  w.StartArray();
  for (const CorrectionExample& e : p.examples) {
    w.StartObject();
    base::Key(w, "original");
    base::Str(w, e.original);
    base::Key(w, "corrected");
    base::Str(w, e.corrected);
    base::Key(w, "user_id");
    base::Str(w, e.user);
    base::Key(w, "project");
    base::Str(w, e.project);
    base::Key(w, "timestamp");
    base::Str(w, model::FormatUtc(e.at_ms));
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace kaizen::learn
