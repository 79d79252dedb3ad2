// A FileSystem for tests that injects the failures durability code must survive (after leveldb's
// FaultInjectionTestEnv): fsync errors, a full disk that leaves a short write behind, a failing
// directory fsync. Everything else is passed through to a real FileSystem.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/file_system.h"

namespace kaizen::store {

// Wraps `base` (by default the real POSIX file system) and, when told to:
//   - FailSyncFrom(n): the n-th AppendableFile::Sync() call from now on (1 = the very next one)
//     and every later one fail with IoError("... Input/output error"), as fdatasync does with
//     EIO. The data stays wherever the base file system put it.
//   - SetAppendBudget(b): appends may write `b` more bytes in total; the Append that crosses the
//     budget really writes the part that fits (a short write, on disk) and then fails with
//     ResourceExhausted ("No space left on device"), as write(2) does on a full disk. Later
//     appends write nothing and fail the same way. Truncate does not refund the budget.
//   - FailSyncDir(true): SyncDir fails with IoError.
//   - FailReadsOf(path): reading that file (ReadFrom, ReadRangePadded) fails with IoError, as a
//     bad sector does. Safe while other threads read: set it before they start.
// ClearFaults() heals all four. Counters report how often each operation was called (including
// failed calls). Only AppendableFile::Sync/Append, FileSystem::SyncDir and the reads of
// the files named are faulted: WriteFileAtomic, locks and the rest are passed through untouched.
//
// Thread-compatible: const methods are safe concurrently; anything else (including using files
// opened from it) needs external synchronization. REQUIRES: *base outlives this object, and this
// object outlives every file opened from it.
class FaultInjectionFileSystem final : public FileSystem {
 public:
  explicit FaultInjectionFileSystem(FileSystem* base = DefaultFileSystem());

  void FailSyncFrom(uint64_t n);
  void SetAppendBudget(std::optional<uint64_t> bytes);  // nullopt: unlimited
  void FailSyncDir(bool fail) { fail_sync_dir_ = fail; }
  void FailReadsOf(const std::string& path) { failing_reads_.push_back(path); }
  void ClearFaults();

  uint64_t sync_calls() const { return sync_calls_; }
  uint64_t append_calls() const { return append_calls_; }
  uint64_t truncate_calls() const { return truncate_calls_; }
  uint64_t sync_dir_calls() const { return sync_dir_calls_; }
  // Bytes appends may still write; nullopt when unlimited.
  std::optional<uint64_t> append_budget() const { return append_budget_; }

  // FileSystem:
  Result<std::unique_ptr<AppendableFile>> OpenAppendable(const std::string& path) override;
  Result<std::string> ReadFrom(const std::string& path, uint64_t offset) override;
  Result<uint64_t> FileSize(const std::string& path) override;
  bool Exists(const std::string& path) override;
  Status CreateDirs(const std::string& path) override;
  Result<std::vector<std::string>> ListFiles(const std::string& dir) override;
  Status WriteFileAtomic(const std::string& path, std::string_view data, bool durable) override;
  Status SyncDir(const std::string& dir) override;
  Status Remove(const std::string& path) override;
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override;

 private:
  friend class FaultInjectionAppendableFile;
  // Called by the files: count the call and decide whether it fails.
  Status OnSync(const std::string& path);
  // How many of `want` bytes an Append may write; sets *full when the rest must fail.
  uint64_t OnAppend(uint64_t want, bool* full);
  void OnTruncate() { ++truncate_calls_; }

  FileSystem* base_;
  uint64_t sync_calls_ = 0;
  uint64_t append_calls_ = 0;
  uint64_t truncate_calls_ = 0;
  uint64_t sync_dir_calls_ = 0;
  std::optional<uint64_t> fail_sync_at_;  // the value of sync_calls_ from which Sync fails
  std::optional<uint64_t> append_budget_;
  bool fail_sync_dir_ = false;
  std::vector<std::string> failing_reads_;  // paths
};

}  // namespace kaizen::store
