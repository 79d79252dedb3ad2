// The append-only raw log: daily JSONL files under feedback/raw, written under an exclusive lock,
// acknowledged only after fsync (group commit: one write and one fsync per file per batch).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"
#include "store/file_system.h"

namespace kaizen::store {

class SharedLog;

// The cold archive (seed 000 §9.1: raw events are kept "90 days hot, indefinite cold"). `kaizen
// compact` moves day files whose day is older than the hot window to
// <home>/feedback/cold/YYYY-MM-DD.jsonl. ListRawFiles lists them with the hot files under the name
// YYYY-MM-DD.cold.jsonl (no '/': readers that build "feedback/raw/" + name for messages and cut
// the name back out keep working), and RawPath maps that name to the cold file, so every reader of
// the log (learning, rebuild, verify, export, the ingest cache) keeps reading cold events.
inline constexpr std::string_view kColdDir = "feedback/cold";
inline constexpr std::string_view kColdSuffix = ".cold.jsonl";

// True for names like 2025-07-11.cold.jsonl.
bool IsColdFileName(std::string_view name);
// "2025-07-11" -> "2025-07-11.cold.jsonl".
std::string ColdFileName(std::string_view day);

// What recovery found and did, phrased for the person running kaizen.
struct RecoveryNote {
  std::string file;  // relative to the home
  std::string text;
};

class RawLog {
 public:
  // REQUIRES: *fs outlives the RawLog.
  RawLog(std::string home, FileSystem* fs);

  // Takes the home's writer lock; held until the returned object is destroyed. Every Append and
  // every read of files that may be growing happens under it.
  Result<std::unique_ptr<FileLock>> Lock();

  // REQUIRES: the lock is held. Creates the directory layout if missing.
  Status EnsureLayout();
  // Whether the home exists. One that does not holds no events: a verb that only reads it answers
  // as for an empty log and creates nothing (Lock would create the home).
  bool HomeExists() const { return fs_->Exists(home_); }

  // REQUIRES: the lock is held. Cuts a torn last line (no final '\n') from `file` and saves the cut
  // bytes under feedback/recovered/. Returns true if it cut anything.
  Result<bool> CutTornTail(const std::string& file, std::vector<RecoveryNote>* notes);

  // The shared log this home mirrors (store/shared_log.h), or none. With one, Append stores the
  // lines there first (durable there when it returns OK) and then in the files; rewrites
  // (store/file/log_rewrite.h) change it first too. REQUIRES: *remote outlives the RawLog.
  void set_remote(SharedLog* remote) { remote_ = remote; }
  SharedLog* remote() const { return remote_; }

  // REQUIRES: the lock is held; every line in every value ends in '\n'. With a remote, the lines
  // are stored there first (nothing is appended to the files when that fails), then as below.
  Status Append(const std::map<std::string, std::string>& lines_by_day);
  // REQUIRES: the lock is held; every line in every value ends in '\n'.
  // Appends each value to raw/<key>.jsonl and fsyncs each touched file before returning OK. On any
  // failure every touched file is truncated back to its size before the call and the error is
  // returned: nothing of the batch is acknowledged. After an fsync failure the log refuses all
  // further appends (the durable state of the file is unknown), as leveldb does. Never writes to
  // the remote: this is how lines read from it reach the files.
  Status AppendLocal(const std::map<std::string, std::string>& lines_by_day);

  // Raw file names (YYYY-MM-DD.jsonl, and YYYY-MM-DD.cold.jsonl for the cold archive), sorted (a
  // day's cold file before its hot one), and their sizes.
  Result<std::vector<std::pair<std::string, uint64_t>>> ListRawFiles();
  Result<std::string> ReadRaw(const std::string& file, uint64_t offset);
  // Bytes [from, to) of a raw file and `padding` spaces, into *out (its capacity reused).
  Status ReadRawRange(const std::string& file, uint64_t from, uint64_t to, size_t padding,
                      std::string* out);

  const std::string& home() const { return home_; }
  FileSystem* fs() const { return fs_; }
  // The path of a listed file: feedback/raw/NAME, or feedback/cold/YYYY-MM-DD.jsonl for a cold
  // name.
  std::string RawPath(const std::string& file) const;

 private:
  std::string home_;
  FileSystem* fs_;
  SharedLog* remote_ = nullptr;
  bool poisoned_ = false;
  std::string poison_reason_;
};

// Calls `fn(line, line_number)` for every complete line in `data` (a whole raw file, or a suffix
// starting at a line boundary with the given first line number). A trailing '\r' is not removed:
// raw files are written by kaizen and never contain one.
void ForEachLine(std::string_view data, uint64_t first_line_number,
                 const std::function<void(std::string_view, uint64_t)>& fn);

}  // namespace kaizen::store
