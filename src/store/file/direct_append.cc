#include "store/file/direct_append.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "base/errno_status.h"
#include "base/fd.h"

namespace kaizen::store {
namespace {

// The aligned buffer direct writes go out of: one per thread, allocated on its first large
// append and reused, so its pages are faulted in once. 4 MiB: a few device round trips per chunk
// of an import, and small enough to stay in the cache while it is filled and written.
constexpr size_t kBounceBytes = 4 << 20;

char* Bounce() {
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  thread_local std::unique_ptr<char, Free> buffer(
      static_cast<char*>(std::aligned_alloc(kDirectAlign, kBounceBytes)));
  return buffer.get();
}

}  // namespace

Status AppendDirect(const std::string& path, std::string_view data, uint64_t* end,
                    size_t* consumed) {
  static_assert(kBounceBytes % kDirectAlign == 0);
  *consumed = 0;
  const uint64_t base = *end / kDirectAlign * kDirectAlign;  // where the last partial block starts
  const size_t head = static_cast<size_t>(*end - base);      // bytes of the file in that block
  // The bytes written directly: the head, then data up to the last whole block.
  const size_t stream = (head + data.size()) / kDirectAlign * kDirectAlign;
  if (stream <= head) return Status::Ok();  // no block to fill: all of it goes buffered
  char* const buffer = Bounce();
  if (buffer == nullptr) return Status::Ok();
  // Any failure to open (no O_DIRECT on this file system, no descriptor left) only costs the
  // ordinary write.
  const base::Fd fd(::open(path.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC));
  if (fd.get() < 0) return Status::Ok();
  if (head > 0) {
    // The block as the file has it (a direct read sees what buffered writers left in the page
    // cache: the kernel writes the range back first). It ends at *end, so the read is short.
    ssize_t n;
    do {
      n = ::pread(fd.get(), buffer, kDirectAlign, static_cast<off_t>(base));
    } while (n < 0 && errno == EINTR);
    if (n != static_cast<ssize_t>(head)) return Status::Ok();
  }
  size_t written = 0;  // bytes of the stream in the file
  struct Account {     // what reached the file, on every return
    size_t head, &written;
    uint64_t* end;
    size_t* consumed;
    ~Account() {
      if (written <= head) return;
      *consumed = written - head;
      *end += *consumed;
    }
  } account{head, written, end, consumed};
  while (written < stream) {
    const size_t piece = std::min(kBounceBytes, stream - written);
    // The stream is the head then data: its byte i is data[i - head].
    const size_t from = written == 0 ? head : 0;
    std::memcpy(buffer + from, data.data() + (written + from - head), piece - from);
    const ssize_t n = ::pwrite(fd.get(), buffer, piece, static_cast<off_t>(base + written));
    if (n < 0 && errno == EINTR) continue;  // the buffer is refilled as it was
    if (n < 0 && errno == EINVAL && written == 0) return Status::Ok();  // alignment refused
    if (n < 0) return base::ErrnoStatus("cannot write", path, errno);
    written += static_cast<size_t>(n);
    if (static_cast<size_t>(n) < piece) break;  // short (a full disk): the rest goes buffered
  }
  return Status::Ok();
}

}  // namespace kaizen::store
