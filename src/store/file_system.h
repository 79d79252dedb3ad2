// The OS behind an interface (after leveldb's Env), so tests can inject the failures that matter
// for durability: fsync errors, a full disk, short writes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::store {

// The directory part of a '/'-separated path: "." for a bare file name, "/" for a file in the
// root ("a/b.md" -> "a", "b.md" -> ".", "/b.md" -> "/").
inline std::string DirName(std::string_view path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  return slash == 0 ? "/" : std::string(path.substr(0, slash));
}

// A file opened for appending. Not thread-safe.
class AppendableFile {
 public:
  virtual ~AppendableFile() = default;
  // Writes all of `data` at the end of the file, or fails; a failure may leave a prefix of `data`
  // written (a short write), which the caller undoes with Truncate.
  virtual Status Append(std::string_view data) = 0;
  // Makes everything appended so far durable (fdatasync). After a failure the file's durable
  // contents are unknown.
  virtual Status Sync() = 0;
  // Starts writing what was appended to the disk, without waiting (Sync still waits for it): a
  // writer of many files syncs them in one pass at the end, by when the disk has mostly caught up.
  virtual void StartSync() {}
  virtual Status Truncate(uint64_t size) = 0;
  virtual uint64_t Size() const = 0;
};

// An exclusive lock on a file, held until destroyed. Several processes may wait on one lock.
class FileLock {
 public:
  virtual ~FileLock() = default;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;
  virtual Result<std::unique_ptr<AppendableFile>> OpenAppendable(const std::string& path) = 0;
  // Reads [offset, end) of a file.
  virtual Result<std::string> ReadFrom(const std::string& path, uint64_t offset) = 0;
  // Reads bytes [from, to) of a file (fewer when it is shorter) into *out, followed by `padding`
  // spaces (parsers read ahead), reusing out's capacity: a reader of many files allocates once.
  virtual Status ReadRangePadded(const std::string& path, uint64_t from, uint64_t to,
                                 size_t padding, std::string* out) {
    KZ_ASSIGN_OR_RETURN(std::string data, ReadFrom(path, from));
    if (data.size() > to - std::min(from, to)) data.resize(to - std::min(from, to));
    out->assign(data);
    out->append(padding, ' ');
    return Status::Ok();
  }
  virtual Result<uint64_t> FileSize(const std::string& path) = 0;
  virtual bool Exists(const std::string& path) = 0;
  virtual Status CreateDirs(const std::string& path) = 0;
  // Names (not paths) of the regular files in a directory, sorted; empty if it does not exist.
  virtual Result<std::vector<std::string>> ListFiles(const std::string& dir) = 0;
  // Writes via a temporary file, fsync and rename, so readers see the old or the new content.
  virtual Status WriteFileAtomic(const std::string& path, std::string_view data, bool durable) = 0;
  virtual Status SyncDir(const std::string& dir) = 0;
  virtual Status Remove(const std::string& path) = 0;
  // Blocks until this process holds the exclusive lock on `path` (created if missing).
  virtual Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) = 0;
};

// The real POSIX file system. Lives for the whole program.
FileSystem* DefaultFileSystem();

}  // namespace kaizen::store
