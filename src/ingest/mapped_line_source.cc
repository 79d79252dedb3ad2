#include "ingest/mapped_line_source.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <mutex>

namespace kaizen::ingest {
namespace {

// A mapped file that shrinks (truncated or rewritten while it is imported) makes every read of
// its pages past the new end raise SIGBUS. The handler puts a page of zeros where the faulting
// page was and notes it, so the read finishes and Next reports the shrinking as a read error,
// instead of the process dying. One entry per mapping alive.
struct Guarded {
  std::atomic<uintptr_t> begin{0}, end{0};
  std::atomic<bool> shrank{false};
};
constexpr int kSlots = 8;
Guarded g_guarded[kSlots];
size_t g_page = 4096;
struct sigaction g_previous;

void OnSigbus(int sig, siginfo_t* info, void* context) {
  const uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
  for (Guarded& g : g_guarded) {
    if (addr < g.begin.load() || addr >= g.end.load()) continue;
    const int saved = errno;
    void* page = reinterpret_cast<void*>(addr & ~(uintptr_t{g_page} - 1));
    void* zeros = ::mmap(page, g_page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    errno = saved;
    if (zeros == MAP_FAILED) break;
    g.shrank.store(true);
    return;
  }
  // Not a mapped input's page (or it could not be replaced): what would have happened anyway.
  if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
  } else {
    ::signal(SIGBUS, SIG_DFL);  // the read faults again on return, and the process dies of it
  }
}

// Reads the page size and installs the handler, once, before the first mapping.
void InstallGuard() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    g_page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction sa {};
    sa.sa_sigaction = OnSigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGBUS, &sa, &g_previous);
  });
}

// The slot that now guards [begin, end), or -1 when all are taken.
int Guard(char* begin, char* end) {
  for (int i = 0; i < kSlots; ++i) {
    uintptr_t free = 0;
    if (g_guarded[i].begin.compare_exchange_strong(free, reinterpret_cast<uintptr_t>(begin))) {
      g_guarded[i].shrank.store(false);
      g_guarded[i].end.store(reinterpret_cast<uintptr_t>(end));
      return i;
    }
  }
  return -1;
}

void Unguard(int slot) {
  g_guarded[slot].end.store(0);
  g_guarded[slot].begin.store(0);
}

}  // namespace

std::unique_ptr<MappedLineSource> MappedLineSource::Map(int fd, size_t max_line_bytes) {
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return nullptr;
  const off_t at = ::lseek(fd, 0, SEEK_CUR);
  if (at < 0 || at >= st.st_size) return nullptr;
  InstallGuard();
  const size_t size = static_cast<size_t>(st.st_size);
  const size_t page = g_page;
  const size_t file_bytes = (size + page - 1) / page * page;
  // A page of zeros after the file (the rest of its last page reads as zeros too): simdjson
  // reads up to SIMDJSON_PADDING bytes past a line.
  const size_t map_bytes = file_bytes + page;
  void* reserved = ::mmap(nullptr, map_bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (reserved == MAP_FAILED) return nullptr;
  char* map = static_cast<char*>(reserved);
  if (::mmap(map, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
    ::munmap(map, map_bytes);
    return nullptr;
  }
  (void)::madvise(map, file_bytes, MADV_SEQUENTIAL);  // a hint: a failure costs nothing
  const int slot = Guard(map, map + file_bytes);
  if (slot < 0) {
    ::munmap(map, map_bytes);
    return nullptr;
  }
  return std::unique_ptr<MappedLineSource>(
      new MappedLineSource(map, map_bytes, static_cast<size_t>(at), size, slot, max_line_bytes));
}

MappedLineSource::MappedLineSource(char* map, size_t map_bytes, size_t start, size_t size, int slot,
                                   size_t max_line_bytes)
    : map_(map),
      map_bytes_(map_bytes),
      start_(start),
      released_(start),
      slot_(slot),
      lines_(std::string_view(map + start, size - start), max_line_bytes,
             [this](size_t from, size_t to) { Release(start_ + from, start_ + to); }) {}

MappedLineSource::~MappedLineSource() {
  Unguard(slot_);
  ::munmap(map_, map_bytes_);
}

void MappedLineSource::Release(size_t from, size_t to) {
  const size_t page = g_page;
  from = (from + page - 1) / page * page;
  to = to / page * page;
  if (to > from) (void)::madvise(map_ + from, to - from, MADV_DONTNEED);
}

Status MappedLineSource::Next(size_t max_lines, size_t max_bytes, LineChunk* chunk) {
  // The chunk handed back is done with, and so is everything before it: its pages leave this
  // process (they stay in the page cache; a read would map them again).
  if (chunk->end > 0 && start_ + chunk->end > released_) {
    Release(released_ / g_page * g_page, start_ + chunk->end);
    released_ = start_ + chunk->end;
  }
  KZ_RETURN_IF_ERROR(lines_.Next(max_lines, max_bytes, chunk));
  if (g_guarded[slot_].shrank.load()) {
    chunk->lines.clear();
    return IoError(
        "cannot read the input: the file shrank while it was being read (truncated or rewritten "
        "during the import)");
  }
  // Start reading what comes after this chunk, so the disk's queue stays full.
  const size_t ahead = (start_ + chunk->end) / g_page * g_page;
  const size_t file_end = map_bytes_ - g_page;
  if (ahead < file_end) {
    (void)::madvise(map_ + ahead, std::min<size_t>(kReadAheadBytes, file_end - ahead),
                    MADV_WILLNEED);
  }
  return Status::Ok();
}

std::unique_ptr<LineSource> LinesOf(int fd, size_t max_line_bytes) {
  if (auto mapped = MappedLineSource::Map(fd, max_line_bytes)) return mapped;
  return std::make_unique<FdLineSource>(fd, max_line_bytes);
}

}  // namespace kaizen::ingest
