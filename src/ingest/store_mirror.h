// A home as the working copy of a shared store (store/shared_log.h): its day files hold what the
// database holds, in the database's order, so every reader above the storage layer (learning,
// the doors, verify, export) reads files as it does for a home of its own. New rows are copied
// in under the home's writer lock before a verb reads and before each batch is checked (so the
// checks see every other writer's events); a row met twice (the re-read window) is skipped by
// id, which the ingest cache knows.
//
// A home mirrors one store (its id is in feedback/store.json). A rewrite of the store (forget,
// compact, on any machine) bumps its epoch; a home copied at another epoch copies it again.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ingest/ingest_state.h"
#include "kaizen/status.h"
#include "store/copy_progress.h"
#include "store/file/raw_log.h"
#include "store/shared_log.h"

namespace kaizen::ingest {

// One stored line and the day file it belongs to.
struct DayLine {
  std::string_view day;   // YYYY-MM-DD
  std::string_view line;  // without '\n'
};

// Appends, in order, the lines whose ids the home does not hold yet (the cache knows its ids),
// one group commit; the others are skipped. DataLoss for a line that is not an event.
// REQUIRES: the writer lock is held and `cache` caught up.
Status AppendUnseen(store::RawLog& log, IngestCache& cache, const std::vector<DayLine>& lines,
                    uint64_t* appended);

// Copies the rows the home lacks. REQUIRES: the writer lock is held and log.remote() set; `cache`
// is caught up here when rows need checking against it (a first copy into an empty home goes to
// the files unparsed: the cache reads it when next caught up). A home that mirrors no store yet
// becomes this one's copy when every event it holds is in the store (an empty home; one `kaizen
// migrate` copied there); FailedPrecondition when it holds events the store lacks, or mirrors
// another store. `progress`, when given, learns whether this is a whole copy and each piece of a
// day file as it is written (a reader folds them meanwhile); its Finish is the caller's.
Status PullMirror(store::RawLog& log, IngestCache& cache, uint64_t* pulled,
                  store::CopyProgress* progress = nullptr);

// Lock, catch up, pull: what a verb that reads the log does first. Also writes the ingest index
// when its tail grew long, as an ingest would.
Status SyncMirror(store::RawLog& log, uint64_t* pulled, store::CopyProgress* progress = nullptr);

// SyncMirror on a thread of its own, on a connection of its own to `conninfo`, for a verb that
// folds the log meanwhile: registered as the copy in progress into the home (store/
// copy_progress.h) until Join. A verb that reads the log otherwise waits for the home's writer
// lock, which the copy holds until it ended.
class BackgroundSync {
 public:
  BackgroundSync(std::string home, std::string conninfo);
  ~BackgroundSync();  // joins
  BackgroundSync(const BackgroundSync&) = delete;
  BackgroundSync& operator=(const BackgroundSync&) = delete;
  // Waits for the copy to end: its status.
  Status Join();

 private:
  std::string home_;
  std::shared_ptr<store::CopyProgress> progress_;
};

}  // namespace kaizen::ingest
