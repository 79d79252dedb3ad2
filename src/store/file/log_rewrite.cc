#include "store/file/log_rewrite.h"

#include <string>
#include <unordered_set>

#include "store/log_format.h"
#include "store/shared_log.h"

namespace kaizen::store {
namespace {

// The database first (the truth), then the files. The rewrite bumps the store's epoch; when this
// home's copy was current before it (the caller holds the writer lock and brought it up to date),
// it is current after, and its state says so, else its next read copies the store again.
Status RewriteRemote(RawLog& log, const std::string& file, std::string_view content) {
  if (log.remote() == nullptr) return Status::Ok();
  std::string old;
  if (log.fs()->Exists(log.RawPath(file))) {
    KZ_ASSIGN_OR_RETURN(old, log.fs()->ReadFrom(log.RawPath(file), 0));
  }
  if (old == content) return Status::Ok();
  KZ_ASSIGN_OR_RETURN(uint64_t epoch,
                      log.remote()->RewriteDay(std::string_view(file).substr(0, 10), old, content));
  KZ_ASSIGN_OR_RETURN(auto state, ReadMirrorState(log.home(), log.fs()));
  if (!state || state->epoch + 1 != epoch) return Status::Ok();
  state->epoch = epoch;
  return WriteMirrorState(log.home(), log.fs(), *state);
}

}  // namespace

Status RewriteDayFile(RawLog& log, const std::string& file, std::string_view content) {
  if (!IsRawFileName(file) && !IsColdFileName(file)) {
    return InvalidArgument("not a day file name: " + file);
  }
  if (!content.empty() && content.back() != '\n') {
    return InvalidArgument("a day file must end in a newline: " + file);
  }
  KZ_RETURN_IF_ERROR(RewriteRemote(log, file, content));
  const std::string path = log.RawPath(file);
  if (content.empty()) {
    KZ_RETURN_IF_ERROR(log.fs()->Remove(path));
    return log.fs()->SyncDir(DirName(path));
  }
  // WriteFileAtomic with durable=true: temporary file, fdatasync, rename, fsync of the directory.
  return log.fs()->WriteFileAtomic(path, content, /*durable=*/true);
}

Status MoveDayFileToCold(RawLog& log, const std::string& file, std::string_view content) {
  if (!IsRawFileName(file)) return InvalidArgument("not a hot day file name: " + file);
  if (!content.empty() && content.back() != '\n') {
    return InvalidArgument("a day file must end in a newline: " + file);
  }
  KZ_RETURN_IF_ERROR(RewriteRemote(log, file, content));
  FileSystem* fs = log.fs();
  const std::string cold_name = ColdFileName(std::string_view(file).substr(0, 10));
  const std::string cold_path = log.RawPath(cold_name);
  KZ_RETURN_IF_ERROR(fs->CreateDirs(DirName(cold_path)));
  std::string merged;
  if (fs->Exists(cold_path)) {
    KZ_ASSIGN_OR_RETURN(merged, fs->ReadFrom(cold_path, 0));
    if (!merged.empty() && merged.back() != '\n') {
      return DataLoss(cold_path + " ends in a torn line; run `kaizen verify` first");
    }
  }
  std::unordered_set<std::string_view> present;
  std::string appended;
  {
    ForEachLine(merged, 1, [&](std::string_view line, uint64_t) { present.insert(line); });
    ForEachLine(content, 1, [&](std::string_view line, uint64_t) {
      if (present.count(line)) return;
      appended.append(line);
      appended.push_back('\n');
    });
  }
  present.clear();  // views into `merged`, which grows next
  merged += appended;
  if (!merged.empty()) {
    KZ_RETURN_IF_ERROR(fs->WriteFileAtomic(cold_path, merged, /*durable=*/true));
    // A new entry in a new directory is durable only once the parent's entry is.
    KZ_RETURN_IF_ERROR(fs->SyncDir(PathIn(log.home(), "feedback")));
  }
  const std::string hot_path = log.RawPath(file);
  KZ_RETURN_IF_ERROR(fs->Remove(hot_path));
  return fs->SyncDir(DirName(hot_path));
}

}  // namespace kaizen::store
