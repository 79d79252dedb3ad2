// Keeps the hints files of <home>/config/hints.json current while `kaizen serve` runs (issue 28:
// "refreshed when what kaizen knows changes"): when the live state has folded new events, the
// learned section of each file is written again below its marker, and only when its bytes change.
// One thread, woken every `every` or at shutdown; a file that cannot be written is reported on
// stderr (once per message) and tried again at the next change.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "serve/live_state.h"

namespace kaizen::serve {

class HintsKeeper {
 public:
  HintsKeeper(serve::LiveState* state, std::string home, std::chrono::milliseconds every);
  ~HintsKeeper();  // stops and joins the thread
  HintsKeeper(const HintsKeeper&) = delete;
  HintsKeeper& operator=(const HintsKeeper&) = delete;

 private:
  void Run();
  void Refresh();

  serve::LiveState* state_;
  std::string home_;
  std::chrono::milliseconds every_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  uint64_t seen_events_ = UINT64_MAX;  // the first pass always refreshes
  std::set<std::string> reported_;
  std::thread thread_;
};

}  // namespace kaizen::serve
