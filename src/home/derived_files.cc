#include "home/derived_files.h"

#include <fmt/format.h>

#include <set>

#include "model/limits.h"
#include "store/log_format.h"

namespace kaizen::home {
namespace {
constexpr std::string_view kStaleMarker = "feedback/indexes/STALE";
}

Status ScanLog(store::RawLog& log,
               const std::function<void(simdjson::dom::element, std::string_view, std::string_view,
                                        uint64_t)>& fn,
               const std::function<void(const BadLine&)>& bad) {
  KZ_ASSIGN_OR_RETURN(auto files, log.ListRawFiles());
  simdjson::dom::parser parser;
  if (parser.allocate(model::kMaxStoredEventBytes, model::kMaxDepth) != simdjson::SUCCESS) {
    return ResourceExhausted("cannot allocate the JSON parser");
  }
  for (const auto& [file, size] : files) {
    KZ_ASSIGN_OR_RETURN(std::string data, log.ReadRaw(file, 0));
    simdjson::padded_string padded(data);
    std::string rel = std::string(store::kRawDir) + "/" + file;
    store::ForEachLine(std::string_view(padded.data(), padded.size()), 1,
                       [&](std::string_view line, uint64_t n) {
                         simdjson::dom::element e;
                         auto err = line.size() > model::kMaxStoredEventBytes
                                        ? simdjson::CAPACITY
                                        : parser.parse(line.data(), line.size(), false).get(e);
                         if (err) {
                           bad({rel, n, fmt::format("not JSON: {}", simdjson::error_message(err))});
                         } else if (!e.is_object()) {
                           bad({rel, n, "not a JSON object"});
                         } else {
                           fn(e, line, rel, n);
                         }
                       });
  }
  return Status::Ok();
}

Status RebuildDerived(store::RawLog& log, ingest::DerivedBuilder* builder,
                      uint64_t* files_written) {
  KZ_RETURN_IF_ERROR(ScanLog(
      log,
      [&](simdjson::dom::element e, std::string_view, std::string_view, uint64_t) {
        builder->Add(e);
      },
      [](const BadLine&) {}));
  auto files = builder->Files();
  store::FileSystem* fs = log.fs();
  std::set<std::string> dirs;
  for (const auto& [rel, content] : files) dirs.insert(rel.substr(0, rel.rfind('/')));
  // Remove stale derived files (e.g. a week that no longer has events after a compaction).
  for (std::string_view dir : {"feedback/aggregates/weekly", "feedback/aggregates/monthly"}) {
    KZ_ASSIGN_OR_RETURN(auto names, fs->ListFiles(store::PathIn(log.home(), dir)));
    for (const auto& n : names) {
      if (!files.count(std::string(dir) + "/" + n))
        KZ_RETURN_IF_ERROR(fs->Remove(store::PathIn(log.home(), dir) + "/" + n));
    }
  }
  for (const auto& d : dirs) KZ_RETURN_IF_ERROR(fs->CreateDirs(store::PathIn(log.home(), d)));
  for (const auto& [rel, content] : files) {
    KZ_RETURN_IF_ERROR(fs->WriteFileAtomic(store::PathIn(log.home(), rel), content, false));
  }
  *files_written = files.size();
  return fs->Remove(store::PathIn(log.home(), kStaleMarker));
}

Status MarkDerivedStale(store::RawLog& log) {
  const std::string path = store::PathIn(log.home(), kStaleMarker);
  if (log.fs()->Exists(path)) return Status::Ok();
  return log.fs()->WriteFileAtomic(
      path, "derived files are older than the raw log; run `kaizen rebuild`\n", false);
}

bool DerivedAreStale(store::RawLog& log) {
  return log.fs()->Exists(store::PathIn(log.home(), kStaleMarker)) ||
         !log.fs()->Exists(store::PathIn(log.home(), "feedback/aggregates/rolling-30d.json"));
}

}  // namespace kaizen::home
