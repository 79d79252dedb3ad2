#include "home/learned_checkpoint.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sodium.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/hex.h"
#include "store/copy_progress.h"
#include "store/file/raw_log.h"
#include "store/log_format.h"

namespace kaizen::home {
namespace {

constexpr std::string_view kCheckpoint = store::kLearnedCheckpoint;
constexpr std::string_view kMagic = "kaizen-learned-checkpoint 1";
// A raw file is recognised by its size and its last bytes before that size: an append keeps
// them, a rewrite (forget, compact, a hand edit) almost never does.
constexpr uint64_t kTailBytes = 64;

std::atomic<bool> writes_disabled{false};

std::string Digest(std::string_view bytes) {
  unsigned char out[32];
  crypto_generichash(out, sizeof out, reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size(), nullptr, 0);
  return base::HexOf(out, sizeof out);
}

// The running binary's ELF build id (the linker's hash of its contents): a checkpoint holds a
// learner's memory as this build laid it out, so another build must not read it.
std::string BuildId() {
  static const std::string id = [] {
    std::string found;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) -> int {
          auto* out = static_cast<std::string*>(data);
          for (int i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr)& ph = info->dlpi_phdr[i];
            if (ph.p_type != PT_NOTE) continue;
            const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
            const char* end = p + ph.p_memsz;
            while (p + sizeof(ElfW(Nhdr)) <= end) {
              const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
              const char* name = p + sizeof(ElfW(Nhdr));
              const char* desc = name + ((note->n_namesz + 3) & ~3u);
              if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                  std::memcmp(name, "GNU", 4) == 0 && desc + note->n_descsz <= end) {
                *out = base::HexOf(reinterpret_cast<const unsigned char*>(desc), note->n_descsz);
                return 1;
              }
              p = desc + ((note->n_descsz + 3) & ~3u);
            }
          }
          return 1;  // the first object is the executable: stop there
        },
        &found);
    return found;
  }();
  return id;
}

struct FileMark {
  std::string name;
  uint64_t size = 0;
  std::string tail;  // Digest of the kTailBytes before `size`
};

Result<std::string> TailDigest(store::RawLog& log, const std::string& name, uint64_t size) {
  std::string bytes;
  const uint64_t from = size > kTailBytes ? size - kTailBytes : 0;
  KZ_RETURN_IF_ERROR(log.ReadRawRange(name, from, size, 0, &bytes));
  if (bytes.size() != size - from) return std::string("short");
  return Digest(bytes);
}

struct Header {
  std::string build, config;
  LogScan scan;  // events, bytes, unreadable, first_unreadable, last_file_lines
  std::vector<FileMark> files;
  uint64_t state_bytes = 0;
  std::string state_digest;
};

std::string Serialize(const Header& h, std::string_view state) {
  std::string out =
      fmt::format("{}\nbuild {}\nconfig {}\nevents {}\nbytes {}\nunreadable {}\n", kMagic, h.build,
                  h.config, h.scan.events, h.scan.bytes, h.scan.unreadable);
  for (const BadLine& b : h.scan.first_unreadable)
    out += fmt::format("bad {}\t{}\t{}\n", b.file, b.line, b.why);
  for (const FileMark& f : h.files) out += fmt::format("file {}\t{}\t{}\n", f.name, f.size, f.tail);
  out += fmt::format("lastlines {}\nstate {} {}\n", h.scan.last_file_lines, state.size(),
                     Digest(state));
  out.append(state);
  return out;
}

bool ParseU64(std::string_view s, uint64_t* v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size();
}

std::vector<std::string_view> SplitTabs(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (true) {
    const size_t tab = s.find('\t', start);
    out.push_back(s.substr(start, tab == std::string_view::npos ? s.npos : tab - start));
    if (tab == std::string_view::npos) return out;
    start = tab + 1;
  }
}

// The header and where the state starts; nullopt when the text is not a whole checkpoint.
std::optional<Header> Parse(std::string_view text, std::string_view* state) {
  Header h;
  size_t pos = 0;
  auto line = [&](std::string_view* out) {
    const size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) return false;
    *out = text.substr(pos, nl - pos);
    pos = nl + 1;
    return true;
  };
  std::string_view l;
  if (!line(&l) || l != kMagic) return std::nullopt;
  while (line(&l)) {
    const size_t sp = l.find(' ');
    if (sp == std::string_view::npos) return std::nullopt;
    const std::string_view key = l.substr(0, sp), value = l.substr(sp + 1);
    if (key == "build") {
      h.build = value;
    } else if (key == "config") {
      h.config = value;
    } else if (key == "events") {
      if (!ParseU64(value, &h.scan.events)) return std::nullopt;
    } else if (key == "bytes") {
      if (!ParseU64(value, &h.scan.bytes)) return std::nullopt;
    } else if (key == "unreadable") {
      if (!ParseU64(value, &h.scan.unreadable)) return std::nullopt;
    } else if (key == "bad") {
      auto parts = SplitTabs(value);
      uint64_t n = 0;
      if (parts.size() != 3 || !ParseU64(parts[1], &n)) return std::nullopt;
      h.scan.first_unreadable.push_back({std::string(parts[0]), n, std::string(parts[2])});
    } else if (key == "file") {
      auto parts = SplitTabs(value);
      FileMark f;
      if (parts.size() != 3 || !ParseU64(parts[1], &f.size)) return std::nullopt;
      f.name = parts[0];
      f.tail = parts[2];
      h.files.push_back(std::move(f));
    } else if (key == "lastlines") {
      if (!ParseU64(value, &h.scan.last_file_lines)) return std::nullopt;
    } else if (key == "state") {
      const size_t sp2 = value.find(' ');
      if (sp2 == std::string_view::npos || !ParseU64(value.substr(0, sp2), &h.state_bytes))
        return std::nullopt;
      h.state_digest = value.substr(sp2 + 1);
      if (text.size() - pos != h.state_bytes) return std::nullopt;
      *state = text.substr(pos);
      return h;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// Why the checkpoint cannot be used for the log as it is now; empty when it can. `from` is where
// its tail begins.
Result<std::string> Check(const Header& h, store::RawLog& log, const std::string& config,
                          LogPosition* from) {
  if (h.build != BuildId()) return std::string("written by another build of kaizen");
  if (h.config != config) return std::string("the learning config changed");
  std::vector<std::pair<std::string, uint64_t>> listed;
  {
    KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
    KZ_ASSIGN_OR_RETURN(listed, log.ListRawFiles());
  }
  std::map<std::string, uint64_t> sizes(listed.begin(), listed.end());
  for (size_t i = 0; i < h.files.size(); ++i) {
    const FileMark& f = h.files[i];
    const bool last = i + 1 == h.files.size();
    auto it = sizes.find(f.name);
    if (it == sizes.end()) return fmt::format("{} is gone", f.name);
    if (it->second < f.size || (!last && it->second != f.size))
      return fmt::format("{} changed size", f.name);
    KZ_ASSIGN_OR_RETURN(std::string tail, TailDigest(log, f.name, f.size));
    if (tail != f.tail) return fmt::format("{} was rewritten", f.name);
  }
  const std::string last_name = h.files.empty() ? std::string() : h.files.back().name;
  for (const auto& file : listed) {
    const std::string& name = file.first;
    if (name < last_name && !std::any_of(h.files.begin(), h.files.end(),
                                         [&](const FileMark& f) { return f.name == name; }))
      return fmt::format("{} appeared before the checkpoint's end", name);
  }
  if (!h.files.empty()) *from = {last_name, h.files.back().size, h.scan.last_file_lines};
  return std::string();
}

// The checkpoint as read from the home and checked against the log as it is now.
struct Found {
  std::string text;              // the file's bytes
  std::optional<Header> header;  // parsed, when whole
  std::string_view state;        // into `text`: the learner's saved state
  LogPosition from;              // where the log past it begins
  std::string why_not;           // empty: a verb may start from it
};

// Reads and checks the checkpoint into *out (not returned: `state` views its `text`).
// `check_digest`: also hash the state against its header (a fold leaves that to LoadState,
// which checks its own checksum, rather than hash the bytes twice).
Status FindCheckpoint(const std::string& home, store::RawLog& log, bool check_digest, Found* out) {
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string path = store::PathIn(home, kCheckpoint);
  if (!fs->Exists(path)) {
    out->why_not = "none yet";
    return Status::Ok();
  }
  KZ_ASSIGN_OR_RETURN(out->text, fs->ReadFrom(path, 0));
  out->header = Parse(out->text, &out->state);
  if (!out->header || (check_digest && Digest(out->state) != out->header->state_digest)) {
    out->why_not = "damaged";
    return Status::Ok();
  }
  KZ_ASSIGN_OR_RETURN(std::string config, LearningConfigDigest(home));
  KZ_ASSIGN_OR_RETURN(out->why_not, Check(*out->header, log, config, &out->from));
  return Status::Ok();
}

Status Write(const std::string& home, store::RawLog& log, const learn::Learner& learner,
             const LogScan& scan) {
  Header h;
  h.build = BuildId();
  if (h.build.empty()) return Status::Ok();  // no build id: nothing could tell builds apart
  KZ_ASSIGN_OR_RETURN(h.config, LearningConfigDigest(home));
  h.scan.events = scan.events;
  h.scan.bytes = scan.bytes;
  h.scan.unreadable = scan.unreadable;
  h.scan.first_unreadable = scan.first_unreadable;
  h.scan.last_file_lines = scan.last_file_lines;
  for (const auto& [name, size] : scan.files) {
    KZ_ASSIGN_OR_RETURN(std::string tail, TailDigest(log, name, size));
    h.files.push_back({name, size, std::move(tail)});
  }
  // Not fsynced: derived, and a torn or lost file fails its digest and is rebuilt.
  return store::DefaultFileSystem()->WriteFileAtomic(store::PathIn(home, kCheckpoint),
                                                     Serialize(h, learner.SaveState()), false);
}

std::string LockPath(const std::string& home) { return store::PathIn(home, kCheckpoint) + ".lock"; }

// Writes the checkpoint from a detached grandchild, so the caller (an agent's hook waiting on the
// answer) never waits for a save: at a million events one takes seconds. The child holds a copy of
// the folded learner (copy on write: the parent only reads it afterwards) and the lock on
// learned.ckpt.lock; when another writer holds it, this one gives up.
void WriteInBackground(const std::string& home, store::RawLog& log, const learn::Learner& learner,
                       const LogScan& scan) {
  std::fflush(stdout);  // nothing buffered is written twice
  std::fflush(stderr);
  const pid_t child = fork();
  if (child < 0) return;  // no checkpoint this time; the next verb tries again
  if (child > 0) {
    while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
    return;
  }
  // The child: fork again and leave, so the writer is nobody's child (no zombie in a
  // long-lived caller) and outlives the caller.
  if (fork() != 0) _exit(0);
  setsid();
  const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null >= 0) {
    // Not the caller's pipes: a hook runner reads them until every writer has closed them.
    dup2(null, STDIN_FILENO);
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  alarm(120);  // a writer that hangs must not hold the lock for ever
  const int lock = open(LockPath(home).c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0) (void)Write(home, log, learner, scan);
  _exit(0);
}

// Writes the checkpoint in this process, after any detached writer holding the lock is done
// (each writes the whole state: the last one to finish wins, and both are of a log that only grew).
Status WriteNow(const std::string& home, store::RawLog& log, const learn::Learner& learner,
                const LogScan& scan) {
  const std::string lock_path = LockPath(home);
  const int lock = open(lock_path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock < 0) return IoError(fmt::format("cannot open {}: {}", lock_path, std::strerror(errno)));
  int locked;
  while ((locked = flock(lock, LOCK_EX)) < 0 && errno == EINTR) {
  }
  Status s = locked == 0
                 ? Write(home, log, learner, scan)
                 : IoError(fmt::format("cannot lock {}: {}", lock_path, std::strerror(errno)));
  close(lock);  // releases the lock
  return s;
}

}  // namespace

Result<std::string> LearningConfigDigest(const std::string& home) {
  store::FileSystem* fs = store::DefaultFileSystem();
  std::string all;
  for (std::string_view rel : {"config/learning.json", "config/themes.json"}) {
    const std::string path = store::PathIn(home, rel);
    if (!fs->Exists(path)) {
      all += "-\n";
      continue;
    }
    KZ_ASSIGN_OR_RETURN(std::string text, fs->ReadFrom(path, 0));
    all += fmt::format("{}\n", text.size());
    all += text;
  }
  return Digest(all);
}

Status FoldWithCheckpoint(const std::string& home,
                          const std::function<std::unique_ptr<learn::Learner>()>& make_learner,
                          std::unique_ptr<learn::Learner>* learner, LogScan* scan,
                          CheckpointUse* use, CheckpointWrite write) {
  CheckpointUse local;
  if (use == nullptr) use = &local;
  store::RawLog log(home, store::DefaultFileSystem());
  // A first copy of the store streaming into this new home has no checkpoint to start from: the
  // read follows the copy. Any other copy in progress is waited for before the checkpoint is
  // looked at (it may drop the copy the checkpoint was of).
  KZ_ASSIGN_OR_RETURN(std::shared_ptr<store::CopyProgress> copy, store::WholeCopyToFollow(home));
  const bool copying_whole = copy != nullptr;
  if (!copying_whole && !log.HomeExists()) return Status::Ok();
  Found found;
  if (copying_whole) {
    found.why_not = "the home's first copy of the store";
  } else {
    KZ_RETURN_IF_ERROR(FindCheckpoint(home, log, /*check_digest=*/false, &found));
  }
  use->why_not = found.why_not;
  LogPosition from;
  LogScan before;
  if (found.why_not.empty()) {
    if (Status s = (*learner)->LoadState(found.state); s.ok()) {
      use->loaded = true;
      from = found.from;
      before = std::move(found.header->scan);
      for (const FileMark& f : found.header->files) before.files.emplace_back(f.name, f.size);
    } else {
      use->why_not = "damaged: " + s.message();
      *learner = make_learner();
    }
  }
  learn::Learner& l = **learner;
  LogScan tail;
  KZ_RETURN_IF_ERROR(ReadLogViews(
      log, [&](learn::EventViews& e) { l.Add(e); }, &tail,
      [&](learn::EventViews* e) { l.Prepare(e); }, l.scope(), kLogSliceBytes, 0, from));
  use->tail = tail.events;
  // The scan of the whole log: the checkpoint's, then the tail's (its first file is the
  // checkpoint's last, read on from where it ended).
  *scan = std::move(before);
  if (!tail.files.empty() && !scan->files.empty() &&
      scan->files.back().first == tail.files[0].first)
    scan->files.pop_back();
  scan->files.insert(scan->files.end(), tail.files.begin(), tail.files.end());
  scan->events += tail.events;
  scan->bytes += tail.bytes;
  scan->unreadable += tail.unreadable;
  for (BadLine& b : tail.first_unreadable) {
    if (scan->first_unreadable.size() < kMaxBadLinesKept)
      scan->first_unreadable.push_back(std::move(b));
  }
  if (!tail.files.empty()) scan->last_file_lines = tail.last_file_lines;
  // A log shorter than kCheckpointTail folds in milliseconds: no checkpoint for it.
  if (!writes_disabled.load() && scan->events >= kCheckpointTail &&
      (!use->loaded || use->tail >= kCheckpointTail)) {
    if (write == CheckpointWrite::kNow) {
      KZ_RETURN_IF_ERROR(WriteNow(home, log, l, *scan));
    } else {
      WriteInBackground(home, log, l, *scan);
    }
    use->written = true;
  }
  return Status::Ok();
}

Result<CheckpointInfo> InspectCheckpoint(const std::string& home) {
  CheckpointInfo info;
  store::RawLog log(home, store::DefaultFileSystem());
  if (!log.HomeExists()) {
    info.why_not = "none yet";
    return info;
  }
  Found found;
  KZ_RETURN_IF_ERROR(FindCheckpoint(home, log, /*check_digest=*/true, &found));
  if (found.header) info.events = found.header->scan.events;
  info.why_not = found.why_not;
  info.usable = found.why_not.empty();
  return info;
}

void DisableCheckpointWrites() { writes_disabled.store(true); }

Status RemoveCheckpoint(const std::string& home) {
  return store::DefaultFileSystem()->Remove(store::PathIn(home, kCheckpoint));
}

}  // namespace kaizen::home
