#include "kaizen/event_log.h"

#include <simdjson.h>

#include <chrono>

#include "ingest/ingestor.h"
#include "model/event_kind.h"
#include "store/file_system.h"

namespace kaizen {

struct EventLog::Impl {
  explicit Impl(std::string home) : ingestor(std::move(home), store::DefaultFileSystem()) {}
  ingest::Ingestor ingestor;
};

EventLog::EventLog(std::string home) : impl_(std::make_unique<Impl>(std::move(home))) {}
EventLog::~EventLog() = default;

Status EventLog::Record(std::string_view jsonl, std::vector<LineOutcome>* outcomes,
                        const Options& options) {
  ingest::IngestOptions o;
  o.now_ms = options.now_unix_ms.value_or(std::chrono::duration_cast<std::chrono::milliseconds>(
                                              std::chrono::system_clock::now().time_since_epoch())
                                              .count());
  if (options.kind) {
    o.expected_kind = model::ParseKind(*options.kind);
    if (!o.expected_kind) {
      return InvalidArgument("kind: \"" + *options.kind + "\" is not one of " +
                             std::string(model::KindList()));
    }
  }
  o.on_line = [&](const ingest::LineResult& r) {
    LineOutcome out;
    out.line_number = r.line_number;
    out.stored = r.stored;
    out.id = r.id;
    for (const auto& e : r.errors) out.errors.push_back(e.ToString());
    outcomes->push_back(std::move(out));
  };
  simdjson::padded_string padded(jsonl);  // the parser reads past the end of its input
  ingest::IngestSummary summary;
  return impl_->ingestor.Ingest(std::string_view(padded.data(), padded.size()), o, &summary);
}

Status EventLog::ForEachStored(const std::function<void(std::string_view)>& fn) {
  store::RawLog& log = impl_->ingestor.log();
  KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
  KZ_ASSIGN_OR_RETURN(auto files, log.ListRawFiles());
  for (const auto& [file, size] : files) {
    KZ_ASSIGN_OR_RETURN(std::string data, log.ReadRaw(file, 0));
    store::ForEachLine(data, 1, [&](std::string_view line, uint64_t) { fn(line); });
  }
  return Status::Ok();
}

}  // namespace kaizen
