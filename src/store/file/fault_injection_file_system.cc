#include "store/file/fault_injection_file_system.h"

#include <algorithm>

namespace kaizen::store {

class FaultInjectionAppendableFile final : public AppendableFile {
 public:
  FaultInjectionAppendableFile(FaultInjectionFileSystem* fs, std::string path,
                               std::unique_ptr<AppendableFile> base)
      : fs_(fs), path_(std::move(path)), base_(std::move(base)) {}

  Status Append(std::string_view data) override {
    bool full = false;
    uint64_t allowed = fs_->OnAppend(data.size(), &full);
    if (allowed > 0) KZ_RETURN_IF_ERROR(base_->Append(data.substr(0, allowed)));
    if (full) {
      return ResourceExhausted("cannot write " + path_ +
                               ": No space left on device (injected fault)");
    }
    return Status::Ok();
  }

  Status Sync() override {
    KZ_RETURN_IF_ERROR(fs_->OnSync(path_));
    return base_->Sync();
  }

  void StartSync() override { base_->StartSync(); }

  Status Truncate(uint64_t size) override {
    fs_->OnTruncate();
    return base_->Truncate(size);
  }

  uint64_t Size() const override { return base_->Size(); }

 private:
  FaultInjectionFileSystem* fs_;
  std::string path_;
  std::unique_ptr<AppendableFile> base_;
};

FaultInjectionFileSystem::FaultInjectionFileSystem(FileSystem* base) : base_(base) {}

void FaultInjectionFileSystem::FailSyncFrom(uint64_t n) {
  fail_sync_at_ = sync_calls_ + std::max<uint64_t>(n, 1);
}

void FaultInjectionFileSystem::SetAppendBudget(std::optional<uint64_t> bytes) {
  append_budget_ = bytes;
}

void FaultInjectionFileSystem::ClearFaults() {
  fail_sync_at_.reset();
  append_budget_.reset();
  fail_sync_dir_ = false;
  failing_reads_.clear();
}

Status FaultInjectionFileSystem::OnSync(const std::string& path) {
  ++sync_calls_;
  if (fail_sync_at_ && sync_calls_ >= *fail_sync_at_) {
    return IoError("cannot fsync " + path + ": Input/output error (injected fault)");
  }
  return Status::Ok();
}

uint64_t FaultInjectionFileSystem::OnAppend(uint64_t want, bool* full) {
  ++append_calls_;
  *full = false;
  if (!append_budget_) return want;
  if (want <= *append_budget_) {
    *append_budget_ -= want;
    return want;
  }
  uint64_t allowed = *append_budget_;
  *append_budget_ = 0;
  *full = true;
  return allowed;
}

Result<std::unique_ptr<AppendableFile>> FaultInjectionFileSystem::OpenAppendable(
    const std::string& path) {
  KZ_ASSIGN_OR_RETURN(std::unique_ptr<AppendableFile> file, base_->OpenAppendable(path));
  return std::unique_ptr<AppendableFile>(
      new FaultInjectionAppendableFile(this, path, std::move(file)));
}

Result<std::string> FaultInjectionFileSystem::ReadFrom(const std::string& path, uint64_t offset) {
  if (std::find(failing_reads_.begin(), failing_reads_.end(), path) != failing_reads_.end()) {
    return IoError("cannot read " + path + ": Input/output error (injected fault)");
  }
  return base_->ReadFrom(path, offset);
}

Result<uint64_t> FaultInjectionFileSystem::FileSize(const std::string& path) {
  return base_->FileSize(path);
}

bool FaultInjectionFileSystem::Exists(const std::string& path) { return base_->Exists(path); }

Status FaultInjectionFileSystem::CreateDirs(const std::string& path) {
  return base_->CreateDirs(path);
}

Result<std::vector<std::string>> FaultInjectionFileSystem::ListFiles(const std::string& dir) {
  return base_->ListFiles(dir);
}

Status FaultInjectionFileSystem::WriteFileAtomic(const std::string& path, std::string_view data,
                                                 bool durable) {
  return base_->WriteFileAtomic(path, data, durable);
}

Status FaultInjectionFileSystem::SyncDir(const std::string& dir) {
  ++sync_dir_calls_;
  if (fail_sync_dir_) {
    return IoError("cannot fsync directory " + dir + ": Input/output error (injected fault)");
  }
  return base_->SyncDir(dir);
}

Status FaultInjectionFileSystem::Remove(const std::string& path) { return base_->Remove(path); }

Result<std::unique_ptr<FileLock>> FaultInjectionFileSystem::LockFile(const std::string& path) {
  return base_->LockFile(path);
}

}  // namespace kaizen::store
