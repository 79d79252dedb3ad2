// The learned state checkpointed in the home (feedback/indexes/learned.ckpt), so a verb folds only
// the log's tail instead of the whole history. Derived like every index: it names the binary that
// wrote it (its ELF build id), the learning config it was folded under (a digest of
// config/learning.json and config/themes.json) and the log it covers (every raw file's size and
// last bytes); it is used only when all three still hold and the log only grew at its end (the
// last file it read grew, or files after it appeared). Otherwise, or when its bytes do not match
// their digest, the whole log is folded and the checkpoint rewritten. The results are the same
// bytes either way (learn::Learner::SaveState/LoadState).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "home/log_views.h"
#include "kaizen/status.h"
#include "learn/learner.h"

namespace kaizen::home {

// Events read past a checkpoint before a verb writes a new one: folding this many costs a few
// milliseconds, writing a checkpoint of a large home far more.
inline constexpr uint64_t kCheckpointTail = 2000;

struct CheckpointUse {
  bool loaded = false;   // a valid checkpoint was found and loaded
  bool written = false;  // a new one was written
  uint64_t tail = 0;     // events folded past it (all of them when none was loaded)
  std::string why_not;   // when not loaded: why (missing, stale, another build, ...)
};

// How a fold writes the checkpoint it calls for.
enum class CheckpointWrite {
  kDetached,  // by a detached process: the caller (an agent's hook) never waits for a save
  kNow,       // before returning, waiting for another writer's lock (kaizen import)
};

// Folds the home's log into *learner, from the checkpoint when it is valid. When the log holds
// kCheckpointTail events or more and no checkpoint was valid, or the tail was that long, a new
// one is written as `write` says (a detached writer's failures are ignored: it is derived; kNow
// returns them). `make_learner` builds a fresh learner (the one given is replaced when a
// checkpoint fails to load). REQUIRES: *learner is fresh and folds learn::Parts::All().
Status FoldWithCheckpoint(const std::string& home,
                          const std::function<std::unique_ptr<learn::Learner>()>& make_learner,
                          std::unique_ptr<learn::Learner>* learner, LogScan* scan,
                          CheckpointUse* use = nullptr,
                          CheckpointWrite write = CheckpointWrite::kDetached);

// What `kaizen stats` says of the checkpoint: whether a verb would start from it, the events it
// holds, and otherwise why not.
struct CheckpointInfo {
  bool usable = false;
  uint64_t events = 0;
  std::string why_not;
};
Result<CheckpointInfo> InspectCheckpoint(const std::string& home);

// What a learner is folded under besides the log: a digest of the bytes of config/learning.json and
// config/themes.json (each may be missing).
Result<std::string> LearningConfigDigest(const std::string& home);

// For a server process (many threads; forking one to write is not safe): verbs it runs read
// checkpoints but never write one. The next CLI verb writes it.
void DisableCheckpointWrites();

// Removes the checkpoint (verbs that rewrite the log call it; the next fold writes a new one).
Status RemoveCheckpoint(const std::string& home);

}  // namespace kaizen::home
