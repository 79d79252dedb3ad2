// Which home a call works on, and how: the options every verb shares (--home, --json, --now,
// --store), resolved before the verb runs. The learning verbs, the hook steps and the doors take
// it to open and fold a home (home/learned_state.h).
#pragma once

#include <string>

namespace kaizen::store {
class SharedLog;
}

namespace kaizen::home {

struct Common {
  std::string home;  // resolved: --home, else $KAIZEN_HOME, else ./.kaizen
  bool json = false;
  std::string now;  // --now: ISO 8601; empty = the system clock
  // --store, else $KAIZEN_STORE: a PostgreSQL database the home is the working copy of; empty:
  // the home's own files are the log.
  std::string store;
  store::SharedLog* remote =
      nullptr;  // opened from `store` before the verb runs (home/store_open.h)
};

}  // namespace kaizen::home
