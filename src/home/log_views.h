// Reads the raw log as the learning rules' event views, fast: a snapshot of the files' sizes is
// taken under the writer lock, then the files are read without it (appends past the snapshot are
// not seen; acknowledged bytes never change), a line at a time on several threads.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "home/derived_files.h"
#include "kaizen/status.h"
#include "learn/event_reader.h"
#include "store/file/raw_log.h"

namespace kaizen::home {

// Unreadable lines reported by place; the rest are only counted.
inline constexpr size_t kMaxBadLinesKept = 10;

struct LogScan {
  uint64_t events = 0;
  uint64_t bytes = 0;
  uint64_t unreadable = 0;                // lines that are not stored events
  std::vector<BadLine> first_unreadable;  // the first kMaxBadLinesKept, with file:line
  // Each raw file read (as RawLog::ListRawFiles names it) and the bytes of it that were read: up
  // to the last complete line of the snapshot. A live reader folds on from there.
  std::vector<std::pair<std::string, uint64_t>> files;
  // Complete lines read of the last file in `files` (from its start, also when reading began
  // further in): where its line numbers go on.
  uint64_t last_file_lines = 0;
};

// Where a read of the log begins: files named before `file` are skipped, `file` is read from
// byte `offset` (a line start; its line numbers go on after `lines`), later files whole. The
// default reads everything.
struct LogPosition {
  std::string file;
  uint64_t offset = 0;
  uint64_t lines = 0;
};

// The log is read in slices of about this many bytes, cut at line starts: a thread reads a slice
// and folds it itself in its turn, while its bytes and views are still in that core's cache.
inline constexpr uint64_t kLogSliceBytes = 256 << 10;

// Calls `fn` with every stored event of the log, in log order. `fn` runs on several threads, one
// slice at a time, never two at once: each call happens after the previous one. `prepare`, when
// given, is called first on each event by the thread that read it (several threads at once, ahead
// of `fn`): work that depends on the event alone (learn::Learner::Prepare) runs in parallel. Events
// of kinds outside `scope.kinds` are read up to their timestamp only, and reviews without the
// optional fields outside `scope.review` (EventReader::set_scope). `threads`: how many threads
// read, this one included; 0 for one per core, at most 4 (tests ask for more than the machine has).
// `from`: where to begin (a checkpoint's end); scan->files then lists only the files read, with
// their absolute ends.
Status ReadLogViews(store::RawLog& log, const std::function<void(learn::EventViews&)>& fn,
                    LogScan* scan, const std::function<void(learn::EventViews*)>& prepare = nullptr,
                    const learn::ReadScope& scope = {}, uint64_t slice_bytes = kLogSliceBytes,
                    size_t threads = 0, const LogPosition& from = {});

}  // namespace kaizen::home
