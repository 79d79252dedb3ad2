#include "home/batch_store.h"

#include <simdjson.h>

#include <fmt/format.h>

#include "home/derived_files.h"
#include "home/learned_state.h"
#include "store/file_system.h"

namespace kaizen::home {

bool AlreadyRecorded(const ingest::LineResult& r) {
  if (r.stored || r.skipped || r.errors.empty()) return false;
  for (const auto& e : r.errors) {
    if (e.message.find("already recorded") == std::string::npos &&
        e.message.find("already answered") == std::string::npos) {
      return false;
    }
  }
  return true;
}

Status StoreBatch(const Common& c, int64_t now_ms, const std::vector<std::string>& events,
                  std::vector<LineOutcome>* out, uint64_t* stored) {
  out->assign(events.size(), LineOutcome{});
  *stored = 0;
  if (events.empty()) return Status::Ok();
  std::string input;
  for (const std::string& e : events) input += e + "\n";
  KZ_ASSIGN_OR_RETURN(auto taxonomy, LoadTaxonomy(c.home));
  ingest::Ingestor ingestor(c.home, store::DefaultFileSystem());
  ingestor.set_remote(c.remote);
  ingest::IngestOptions options;
  options.now_ms = now_ms;
  if (taxonomy) options.taxonomy = &*taxonomy;
  options.on_line = [&](const ingest::LineResult& r) {
    LineOutcome& o = (*out)[r.line_number - 1];
    if (r.stored) {
      o.fate = LineFate::kNew;
    } else if (AlreadyRecorded(r)) {
      o.fate = LineFate::kAlreadyRecorded;
    } else {
      o.fate = LineFate::kRefused;
      for (const auto& e : r.errors) o.errors += (o.errors.empty() ? "" : "; ") + e.ToString();
      if (r.skipped) o.errors = "skipped: " + r.skip_reason;
    }
  };
  simdjson::padded_string padded(input);
  ingest::IngestSummary summary;
  Status s = ingestor.Ingest(std::string_view(padded.data(), padded.size()), options, &summary);
  for (const auto& note : ingestor.TakeNotes()) {
    fmt::print(stderr, "kaizen: recovered {}: {}\n", note.file, note.text);
  }
  *stored = summary.stored;
  if (summary.stored > 0) (void)MarkDerivedStale(ingestor.log());
  return s;
}

}  // namespace kaizen::home
