#include "home/store_open.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "base/exit_code.h"
#include "ingest/store_mirror.h"
#include "store/file/raw_log.h"
#include "store/file_system.h"

namespace kaizen::home {

std::string ResolveStore(const std::string& given) {
  if (!given.empty()) return given;
  const char* env = std::getenv("KAIZEN_STORE");
  return env && *env ? env : "";
}

Status OpenStore(Common* c, std::unique_ptr<store::SharedLog>* opened, bool sync) {
  c->store = ResolveStore(c->store);
  if (c->store.empty()) return Status::Ok();
  if (!store::NamesSharedLog(c->store)) {
    return InvalidArgument(fmt::format(
        "--store: \"{}\" is not a PostgreSQL database (a postgresql:// URI or libpq key=value "
        "pairs, as in postgresql://kaizen@db.example:5432/kaizen or \"host=db dbname=kaizen\")",
        c->store));
  }
  KZ_ASSIGN_OR_RETURN(*opened, store::OpenSharedLog(c->store));
  c->remote = opened->get();
  if (!sync) return Status::Ok();
  store::RawLog log(c->home, store::DefaultFileSystem());
  log.set_remote(c->remote);
  uint64_t pulled = 0;
  return ingest::SyncMirror(log, &pulled);
}

Status OpenStoreFolding(Common* c, std::unique_ptr<store::SharedLog>* opened,
                        std::unique_ptr<ingest::BackgroundSync>* background) {
  KZ_RETURN_IF_ERROR(OpenStore(c, opened, /*sync=*/false));
  if (c->remote == nullptr) return Status::Ok();
  // A new home: no mirror state, no event. Its copy can only fail as the store or the disk fails
  // (no home that is not the store's copy to refuse), which the verb's fold reports.
  store::RawLog log(c->home, store::DefaultFileSystem());
  KZ_ASSIGN_OR_RETURN(auto state, store::ReadMirrorState(c->home, log.fs()));
  bool empty = !state.has_value();
  if (empty && log.HomeExists()) {
    KZ_ASSIGN_OR_RETURN(auto files, log.ListRawFiles());
    empty = std::all_of(files.begin(), files.end(), [](const auto& f) { return f.second == 0; });
  }
  if (!empty) {
    log.set_remote(c->remote);
    uint64_t pulled = 0;
    return ingest::SyncMirror(log, &pulled);
  }
  *background = std::make_unique<ingest::BackgroundSync>(c->home, c->store);
  return Status::Ok();
}

int StoreOpenFailed(std::string_view verb, const Status& s) {
  fmt::print(stderr, "kaizen {}: {}\n", verb, s.message());
  const bool usage =
      s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kFailedPrecondition;
  return usage ? kExitUsage : kExitSystem;
}

}  // namespace kaizen::home
