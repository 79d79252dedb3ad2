#include "store/shared_log.h"

#include <fmt/format.h>
#include <simdjson.h>

#include "store/log_format.h"
#include "store/pg/pg_log.h"

namespace kaizen::store {

Result<std::unique_ptr<SharedLog>> OpenSharedLog(const std::string& uri) {
  if (!NamesSharedLog(uri)) {
    return InvalidArgument(fmt::format(
        "\"{}\" names no shared store (a PostgreSQL database: postgresql://user@host/dbname)",
        uri));
  }
  KZ_ASSIGN_OR_RETURN(std::unique_ptr<PgLog> log, PgLog::Open(uri));
  return std::unique_ptr<SharedLog>(std::move(log));
}

Result<std::optional<MirrorState>> ReadMirrorState(const std::string& home, FileSystem* fs) {
  const std::string path = PathIn(home, kMirrorStateFile);
  if (!fs->Exists(path)) return std::optional<MirrorState>();
  KZ_ASSIGN_OR_RETURN(std::string text, fs->ReadFrom(path, 0));
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  MirrorState m;
  std::string_view id, store, frontier;
  uint64_t epoch = 0;
  if (parser.parse(text).get(e) != simdjson::SUCCESS || e["storeId"].get(id) ||
      e["store"].get(store) || e["epoch"].get(epoch) || e["frontier"].get(frontier)) {
    return DataLoss(
        fmt::format("{} is not what kaizen wrote (storeId, store, epoch, frontier); "
                    "delete it and the home's feedback/raw to copy the store again",
                    path));
  }
  m.store_id = id;
  m.store = store;
  m.epoch = epoch;
  m.frontier = frontier;
  return std::optional<MirrorState>(std::move(m));
}

Status WriteMirrorState(const std::string& home, FileSystem* fs, const MirrorState& m) {
  std::string store;  // a name for messages: quotes and backslashes would need JSON escapes
  for (char ch : m.store) store.push_back(ch == '"' || ch == '\\' || ch < 0x20 ? '_' : ch);
  std::string text =
      fmt::format("{{\"storeId\":\"{}\",\"store\":\"{}\",\"epoch\":{},\"frontier\":\"{}\"}}\n",
                  m.store_id, store, m.epoch, m.frontier);
  return fs->WriteFileAtomic(PathIn(home, kMirrorStateFile), text, /*durable=*/false);
}

bool NamesSharedLog(std::string_view s) {
  if (s.starts_with("postgresql://") || s.starts_with("postgres://")) return true;
  // key=value pairs: libpq's own parser decides whether they are valid.
  return s.find('=') != std::string_view::npos && s.find("://") == std::string_view::npos;
}

}  // namespace kaizen::store
