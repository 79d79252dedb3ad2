#include "home/loop_store.h"

#include <simdjson.h>

#include <fmt/format.h>

#include "home/derived_files.h"
#include "home/learned_state.h"
#include "ingest/ingestor.h"
#include "store/file_system.h"

namespace kaizen::home {

Result<StoredEvent> StoreEvent(const Common& c, int64_t now_ms, model::EventKind kind,
                               std::string_view event_json) {
  KZ_ASSIGN_OR_RETURN(auto taxonomy, LoadTaxonomy(c.home));
  ingest::Ingestor ingestor(c.home, store::DefaultFileSystem());
  ingestor.set_remote(c.remote);
  ingest::IngestOptions options;
  options.now_ms = now_ms;
  options.expected_kind = kind;
  if (taxonomy) options.taxonomy = &*taxonomy;
  StoredEvent out;
  std::string refused;
  options.on_line = [&](const ingest::LineResult& r) {
    if (r.stored) out.id = r.id;
    if (r.skipped) {
      out.skipped = true;
      out.skip_reason = r.skip_reason;
    }
    for (const auto& e : r.errors) refused += (refused.empty() ? "" : "; ") + e.ToString();
  };
  std::string line(event_json);
  line += '\n';
  simdjson::padded_string padded(line);
  ingest::IngestSummary summary;
  Status s = ingestor.Ingest(std::string_view(padded.data(), padded.size()), options, &summary);
  for (const auto& note : ingestor.TakeNotes())
    fmt::print(stderr, "kaizen: recovered {}: {}\n", note.file, note.text);
  KZ_RETURN_IF_ERROR(s);
  if (!refused.empty()) {
    return InvalidArgument(
        fmt::format("the {} event was refused: {}", model::KindName(kind), refused));
  }
  if (summary.stored > 0) (void)MarkDerivedStale(ingestor.log());
  return out;
}

}  // namespace kaizen::home
