#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

#include "base/errno_status.h"
#include "store/file/direct_append.h"
#include "store/file_system.h"

namespace kaizen::store {
namespace {

class PosixAppendableFile final : public AppendableFile {
 public:
  PosixAppendableFile(int fd, std::string path, uint64_t size)
      : fd_(fd), path_(std::move(path)), size_(size) {}
  ~PosixAppendableFile() override { ::close(fd_); }

  Status Append(std::string_view data) override {
    if (data.size() >= kDirectAppendMinBytes) {
      // The size another writer left, not the one seen at open: a direct write goes at an offset,
      // not at the end as an O_APPEND write does.
      struct stat st;
      if (::fstat(fd_, &st) != 0) return base::ErrnoStatus("cannot stat", path_, errno);
      size_ = static_cast<uint64_t>(st.st_size);
      size_t consumed = 0;
      KZ_RETURN_IF_ERROR(AppendDirect(path_, data, &size_, &consumed));
      data.remove_prefix(consumed);
    }
    while (!data.empty()) {
      ssize_t n = ::write(fd_, data.data(), data.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return base::ErrnoStatus("cannot write", path_, errno);
      }
      size_ += static_cast<uint64_t>(n);
      data.remove_prefix(static_cast<size_t>(n));
    }
    return Status::Ok();
  }

  void StartSync() override {
    // Advice only: a failure shows in the Sync that follows.
    (void)::sync_file_range(fd_, 0, 0, SYNC_FILE_RANGE_WRITE);
  }

  Status Sync() override {
    if (::fdatasync(fd_) != 0) return base::ErrnoStatus("cannot fsync", path_, errno);
    return Status::Ok();
  }

  Status Truncate(uint64_t size) override {
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
      return base::ErrnoStatus("cannot truncate", path_, errno);
    }
    size_ = size;
    return Status::Ok();
  }

  uint64_t Size() const override { return size_; }

 private:
  int fd_;
  std::string path_;
  uint64_t size_;
};

class PosixFileLock final : public FileLock {
 public:
  explicit PosixFileLock(int fd) : fd_(fd) {}
  ~PosixFileLock() override {
    ::flock(fd_, LOCK_UN);
    ::close(fd_);
  }

 private:
  int fd_;
};

class PosixFileSystem final : public FileSystem {
 public:
  Result<std::unique_ptr<AppendableFile>> OpenAppendable(const std::string& path) override {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return base::ErrnoStatus("cannot open", path, errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      int err = errno;
      ::close(fd);
      return base::ErrnoStatus("cannot stat", path, err);
    }
    return std::unique_ptr<AppendableFile>(
        new PosixAppendableFile(fd, path, static_cast<uint64_t>(st.st_size)));
  }

  Status ReadRangePadded(const std::string& path, uint64_t from, uint64_t to, size_t padding,
                         std::string* out) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return base::ErrnoStatus("cannot open", path, errno);
    const uint64_t max_bytes = to - std::min(from, to);
    out->resize(static_cast<size_t>(max_bytes) + padding);  // no allocation once warm
    size_t done = 0;
    while (done < max_bytes) {
      ssize_t n = ::pread(fd, out->data() + done, static_cast<size_t>(max_bytes) - done,
                          static_cast<off_t>(from + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        int err = errno;
        ::close(fd);
        return base::ErrnoStatus("cannot read", path, err);
      }
      if (n == 0) break;  // shorter than max_bytes
      done += static_cast<size_t>(n);
    }
    ::close(fd);
    out->resize(done);
    out->append(padding, ' ');
    return Status::Ok();
  }

  Result<std::string> ReadFrom(const std::string& path, uint64_t offset) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return base::ErrnoStatus("cannot open", path, errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      int err = errno;
      ::close(fd);
      return base::ErrnoStatus("cannot stat", path, err);
    }
    std::string out;
    uint64_t size = static_cast<uint64_t>(st.st_size);
    if (offset < size) {
      out.resize(size - offset);
      size_t done = 0;
      while (done < out.size()) {
        ssize_t n =
            ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
          int err = errno;
          ::close(fd);
          return base::ErrnoStatus("cannot read", path, err);
        }
        if (n == 0) break;  // shrank under us
        done += static_cast<size_t>(n);
      }
      out.resize(done);
    }
    ::close(fd);
    return out;
  }

  Result<uint64_t> FileSize(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return base::ErrnoStatus("cannot stat", path, errno);
    return static_cast<uint64_t>(st.st_size);
  }

  bool Exists(const std::string& path) override {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
  }

  Status CreateDirs(const std::string& path) override {
    // Every call after the first finds the directory there: one stat, not a mkdir per component
    // (the server's writer asks for the layout on each group commit).
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return Status::Ok();
    std::string partial;
    size_t pos = 0;
    while (pos != std::string::npos) {
      pos = path.find('/', pos + 1);
      partial = path.substr(0, pos);
      if (partial.empty()) continue;
      if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
        return base::ErrnoStatus("cannot create directory", partial, errno);
      }
    }
    return Status::Ok();
  }

  Result<std::vector<std::string>> ListFiles(const std::string& dir) override {
    std::vector<std::string> names;
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) {
      if (errno == ENOENT) return names;
      return base::ErrnoStatus("cannot list", dir, errno);
    }
    while (struct dirent* e = ::readdir(d)) {
      std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      struct stat st;
      if (::stat((dir + "/" + name).c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        names.push_back(std::move(name));
      }
    }
    ::closedir(d);
    std::sort(names.begin(), names.end());
    return names;
  }

  Status WriteFileAtomic(const std::string& path, std::string_view data, bool durable) override {
    std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return base::ErrnoStatus("cannot create", tmp, errno);
    size_t done = 0;
    while (done < data.size()) {
      ssize_t n = ::write(fd, data.data() + done, data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        return base::ErrnoStatus("cannot write", tmp, err);
      }
      done += static_cast<size_t>(n);
    }
    if (durable && ::fdatasync(fd) != 0) {
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return base::ErrnoStatus("cannot fsync", tmp, err);
    }
    ::close(fd);
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      int err = errno;
      ::unlink(tmp.c_str());
      return base::ErrnoStatus("cannot rename onto", path, err);
    }
    if (durable) {
      return SyncDir(DirName(path));
    }
    return Status::Ok();
  }

  Status SyncDir(const std::string& dir) override {
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return base::ErrnoStatus("cannot open directory", dir, errno);
    int rc = ::fsync(fd);
    int err = errno;
    ::close(fd);
    if (rc != 0) return base::ErrnoStatus("cannot fsync directory", dir, err);
    return Status::Ok();
  }

  Status Remove(const std::string& path) override {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
      return base::ErrnoStatus("cannot remove", path, errno);
    return Status::Ok();
  }

  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return base::ErrnoStatus("cannot open lock file", path, errno);
    while (::flock(fd, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return base::ErrnoStatus("cannot lock", path, err);
    }
    return std::unique_ptr<FileLock>(new PosixFileLock(fd));
  }
};

}  // namespace

FileSystem* DefaultFileSystem() {
  static PosixFileSystem* fs = new PosixFileSystem;
  return fs;
}

}  // namespace kaizen::store
