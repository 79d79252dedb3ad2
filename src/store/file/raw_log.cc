#include "store/file/raw_log.h"

#include <fmt/format.h>

#include <algorithm>

#include "store/log_format.h"
#include "store/shared_log.h"

namespace kaizen::store {

bool IsRawFileName(std::string_view n) {
  if (n.size() != 10 + kRawSuffix.size() || n.substr(10) != kRawSuffix) return false;
  for (size_t i = 0; i < 10; ++i) {
    bool dash = i == 4 || i == 7;
    if (dash ? n[i] != '-' : (n[i] < '0' || n[i] > '9')) return false;
  }
  return true;
}

bool IsColdFileName(std::string_view n) {
  return n.size() == 10 + kColdSuffix.size() && n.substr(10) == kColdSuffix &&
         IsRawFileName(std::string(n.substr(0, 10)) + std::string(kRawSuffix));
}

std::string ColdFileName(std::string_view day) {
  return std::string(day) + std::string(kColdSuffix);
}

RawLog::RawLog(std::string home, FileSystem* fs) : home_(std::move(home)), fs_(fs) {}

Result<std::unique_ptr<FileLock>> RawLog::Lock() {
  KZ_RETURN_IF_ERROR(fs_->CreateDirs(home_));
  return fs_->LockFile(PathIn(home_, kLockFile));
}

Status RawLog::EnsureLayout() {
  KZ_RETURN_IF_ERROR(fs_->CreateDirs(PathIn(home_, kRawDir)));
  KZ_RETURN_IF_ERROR(fs_->CreateDirs(PathIn(home_, kIndexDir)));
  return Status::Ok();
}

std::string RawLog::RawPath(const std::string& file) const {
  if (IsColdFileName(file)) {
    return PathIn(home_, kColdDir) + "/" + file.substr(0, 10) + std::string(kRawSuffix);
  }
  return PathIn(home_, kRawDir) + "/" + file;
}

Result<std::vector<std::pair<std::string, uint64_t>>> RawLog::ListRawFiles() {
  KZ_ASSIGN_OR_RETURN(auto names, fs_->ListFiles(PathIn(home_, kRawDir)));
  std::vector<std::pair<std::string, uint64_t>> out;
  for (auto& n : names) {
    if (!IsRawFileName(n)) continue;
    KZ_ASSIGN_OR_RETURN(uint64_t size, fs_->FileSize(RawPath(n)));
    out.emplace_back(std::move(n), size);
  }
  KZ_ASSIGN_OR_RETURN(auto cold, fs_->ListFiles(PathIn(home_, kColdDir)));
  if (cold.empty()) return out;
  for (auto& n : cold) {
    if (!IsRawFileName(n)) continue;
    std::string name = ColdFileName(std::string_view(n).substr(0, 10));
    KZ_ASSIGN_OR_RETURN(uint64_t size, fs_->FileSize(RawPath(name)));
    out.emplace_back(std::move(name), size);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::string> RawLog::ReadRaw(const std::string& file, uint64_t offset) {
  return fs_->ReadFrom(RawPath(file), offset);
}

Status RawLog::ReadRawRange(const std::string& file, uint64_t from, uint64_t to, size_t padding,
                            std::string* out) {
  return fs_->ReadRangePadded(RawPath(file), from, to, padding, out);
}

Result<bool> RawLog::CutTornTail(const std::string& file, std::vector<RecoveryNote>* notes) {
  const std::string path = RawPath(file);
  KZ_ASSIGN_OR_RETURN(uint64_t size, fs_->FileSize(path));
  if (size == 0) return false;
  // Read backwards in growing windows until a '\n' is found or the file start is reached.
  uint64_t window = 4096;
  std::string tail;
  uint64_t start = 0;
  while (true) {
    start = size > window ? size - window : 0;
    KZ_ASSIGN_OR_RETURN(tail, fs_->ReadFrom(path, start));
    if (!tail.empty() && tail.back() == '\n') return false;
    if (tail.find('\n') != std::string::npos || start == 0) break;
    window *= 4;
  }
  size_t nl = tail.rfind('\n');
  uint64_t keep = nl == std::string::npos ? start : start + nl + 1;
  std::string torn = tail.substr(static_cast<size_t>(keep - start));
  const std::string recovered_dir = PathIn(home_, kRecoveredDir);
  KZ_RETURN_IF_ERROR(fs_->CreateDirs(recovered_dir));
  std::string saved = fmt::format("{}/{}.{}.torn", recovered_dir, file, keep);
  KZ_RETURN_IF_ERROR(fs_->WriteFileAtomic(saved, torn, /*durable=*/true));
  KZ_ASSIGN_OR_RETURN(auto f, fs_->OpenAppendable(path));
  KZ_RETURN_IF_ERROR(f->Truncate(keep));
  KZ_RETURN_IF_ERROR(f->Sync());
  notes->push_back(
      {std::string(kRawDir) + "/" + file,
       fmt::format("cut a torn last line of {} bytes at byte {} (an interrupted write; "
                   "it was never acknowledged); saved to {}/{}.{}.torn",
                   torn.size(), keep, kRecoveredDir, file, keep)});
  return true;
}

Status RawLog::Append(const std::map<std::string, std::string>& lines_by_day) {
  if (remote_ != nullptr) KZ_RETURN_IF_ERROR(remote_->Insert(lines_by_day));
  return AppendLocal(lines_by_day);
}

Status RawLog::AppendLocal(const std::map<std::string, std::string>& lines_by_day) {
  if (poisoned_) {
    return FailedPrecondition("the log refuses writes after an earlier fsync failure (" +
                              poison_reason_ + "); run `kaizen verify` and retry");
  }
  struct Touched {
    std::unique_ptr<AppendableFile> file;
    uint64_t original_size;
    bool created;
  };
  std::vector<Touched> touched;
  auto undo = [&] {
    for (auto& t : touched) {
      Status undone = t.file->Truncate(t.original_size);
      if (undone.ok()) undone = t.file->Sync();
      if (!undone.ok()) {
        // Complete lines of the failed batch may remain: unacknowledged, yet readable as
        // events. A retry of events with ids is refused as duplicates; events without ids would
        // be stored twice. Refuse further writes so this process adds nothing on top.
        poisoned_ = true;
        poison_reason_ = "could not undo a failed append: " + undone.message();
      }
    }
  };
  bool created_any = false;
  for (const auto& [day, data] : lines_by_day) {
    std::string path = RawPath(day + std::string(kRawSuffix));
    bool existed = fs_->Exists(path);
    auto opened = fs_->OpenAppendable(path);
    if (!opened.ok()) {
      undo();
      return opened.status();
    }
    touched.push_back({std::move(opened).value(), 0, !existed});
    touched.back().original_size = touched.back().file->Size();
    created_any |= !existed;
    Status s = touched.back().file->Append(data);
    if (!s.ok()) {
      undo();
      return s;
    }
  }
  for (auto& t : touched) {
    Status s = t.file->Sync();
    if (!s.ok()) {
      poisoned_ = true;
      poison_reason_ = s.message();
      undo();
      return s;
    }
  }
  if (created_any) {
    // A new file is durable only once its directory entry is, and on a fresh home so must be the
    // entries of feedback/raw and feedback themselves.
    Status s = fs_->SyncDir(PathIn(home_, kRawDir));
    if (s.ok()) s = fs_->SyncDir(PathIn(home_, "feedback"));
    if (s.ok()) s = fs_->SyncDir(home_);
    if (!s.ok()) {
      poisoned_ = true;
      poison_reason_ = s.message();
      undo();
      return s;
    }
  }
  return Status::Ok();
}

void ForEachLine(std::string_view data, uint64_t first_line_number,
                 const std::function<void(std::string_view, uint64_t)>& fn) {
  uint64_t line_no = first_line_number;
  size_t pos = 0;
  while (pos < data.size()) {
    size_t nl = data.find('\n', pos);
    if (nl == std::string_view::npos) break;  // incomplete: not a line
    fn(data.substr(pos, nl - pos), line_no++);
    pos = nl + 1;
  }
}

}  // namespace kaizen::store
