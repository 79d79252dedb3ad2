// What `kaizen hook` remembers of one agent session between its calls (each call is its own
// process): when the session and the current turn started, the turn's tool calls, failures and
// retries, the files it wrote, and the errors still open. Kept in
// <home>/hooks/sessions/<session>.json, read and rewritten under an exclusive lock (agents run
// hooks of one session concurrently), replaced atomically. Derived scratch state, not the log:
// losing it costs one turn's outcome counts, never an event.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::agents {

struct HookSession {
  int64_t started_ms = 0;       // the session's first call
  int64_t turn_started_ms = 0;  // the turn's first call (0: no turn open)
  int64_t turns = 0;            // turns ended (Stop)
  int64_t tool_calls = 0;       // of the open turn
  int64_t errors = 0, retries = 0;
  bool last_tool_failed = false;
  std::string prompt_hash;                         // of the turn's prompt, when one was seen
  std::vector<std::string> files;                  // written in the open turn, in first-write order
  std::map<std::string, std::string> open_errors;  // failed call key hash -> its error event id
};

// The file that holds a session's state: the session id made safe as a file name (a hash when it
// has other characters than [A-Za-z0-9._-] or is long).
std::string HookSessionPath(const std::string& home, const std::string& session_id);

// Reads the session's state (empty when new or unreadable: a damaged file starts over), lets
// `update` change it, and writes it back, all under the session's lock. `remove` deletes it
// instead (the session ended).
Status UpdateHookSession(const std::string& home, const std::string& session_id,
                         const std::function<void(HookSession*)>& update, bool remove = false);

// Removes the state of sessions untouched for `max_age_ms` (agents that crashed before their
// session ended). Best effort.
void PruneHookSessions(const std::string& home, int64_t now_ms, int64_t max_age_ms);

}  // namespace kaizen::agents
