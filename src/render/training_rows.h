// `kaizen export --format sft|dpo` (issue 31 item 4; seed 001's third purpose, "prepares training
// data"): the log as the JSON lines fine-tuning tools read (Hugging Face TRL's conventions:
// `prompt` and `completion` for supervised fine-tuning, `prompt`, `chosen` and `rejected` for
// preference optimization), each row saying where it came from.
//
//   dpo  a correction: rejected = what was written (`original`), chosen = what the person made of
//        it (`corrected`), the prompt from its context (context.prompt, else what it was: text or
//        code, the correction type, project, operation, section, file). An A/B comparison a
//        reviewer decided (preferred A or B; "neither" and "both-good" make no pair): chosen = the
//        preferred option, rejected = the other (each its diff, else its summary), with the
//        strength and the per-dimension winners as "chosen", "rejected" or "tie".
//   sft  approved work: completion = its diff, else its summary; prompt = what it was (type,
//        path, server type, stage, and its summary beside a diff).
// Every row: `source` (correction | comparison | approved-work), `eventId`, `author` (the
// correction's user_id or the reviewerId), `session`, `time`, and `project` when known.
// Work named by reference ({"id", "version"}) is resolved through the `work` events before it
// in log order. Events are taken as stored: PII stays redacted as ingest left it. Pure.
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>
#include <unordered_map>

namespace kaizen::render {

enum class TrainingFormat { kSft, kDpo };

class TrainingRows {
 public:
  explicit TrainingRows(TrainingFormat format) : format_(format) {}

  // Folds one stored event (log order) and appends its rows, one JSON object a line, to *out.
  // Returns how many rows it appended.
  size_t Add(simdjson::dom::element event, std::string* out);

 private:
  struct Work {
    std::string type, path, summary, diff, stage, server_type, repository;
  };
  // A WorkProductRef's own fields (type, path, summary, diff).
  static Work FromRef(simdjson::dom::element ref);
  // A WorkProductRef as given inline, else the recorded `work` it names; false when unknown.
  bool Resolve(simdjson::dom::element ref, Work* work) const;
  void RememberWork(simdjson::dom::element event);
  size_t AddCorrection(simdjson::dom::element event, std::string* out) const;
  size_t AddFeedback(simdjson::dom::element event, std::string* out) const;

  TrainingFormat format_;
  // By "<id>\x1f<version>" (a work's diff can be long: kept once), and each id's latest key.
  std::unordered_map<std::string, Work> works_;
  std::unordered_map<std::string, std::string> latest_;
};

}  // namespace kaizen::render
