// Answers from a running `kaizen serve` of the same home. A learning verb (`kaizen hook`,
// `kaizen context`, `kaizen hints`) run while the home's server is up asks the server's live
// learner instead of folding the log itself: the fold costs time that grows with the history (a
// second at a million events, even from the checkpoint), a local request does not.
//
// The server says where it listens in <home>/run/serve.json ({"pid", "host", "port"}), written
// once it listens and removed when it stops. Requests go to POST /v1/cli/<verb> with the home's
// bearer token, so a server of another home (another token) refuses them. Whenever the server
// cannot answer (none running, a stale record, another token, a config changed since it
// started), the verb folds the log itself: the answer is the same either way. A call that folded
// the log itself slowly starts a server for the next ones (LoadLearnedStateUnserved).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "home/common.h"
#include "home/learned_state.h"
#include "kaizen/status.h"
#include "learn/learner.h"

namespace kaizen::home {

inline constexpr std::string_view kServeRecord = "run/serve.json";

// Written by `kaizen serve` once it listens (atomically), removed when it stops (when it is
// still its own). `host` is where it listens ("0.0.0.0" and "::" are asked on loopback).
Status WriteServeRecord(const std::string& home, const std::string& host, int port);
void RemoveServeRecord(const std::string& home);

struct ServeEndpoint {
  std::string host;  // an address to connect to
  int port = 0;
  std::string token;  // $KAIZEN_TOKEN, else <home>/config/token
};

// The home's running server: nullopt when no record names a live process (or the record, or the
// token, cannot be read).
std::optional<ServeEndpoint> FindServer(const std::string& home);

struct ServeAnswer {
  int status = 0;
  std::string body;
};

// Sends `POST target` with `body` and reads the answer, all within `timeout_ms`. `*sent` is set
// once the whole request was written: after that the server may have acted on it even when no
// answer arrives, so the caller must not redo what it asked. IoError when the request failed.
Result<ServeAnswer> AskServer(const ServeEndpoint& server, std::string_view target,
                              std::string_view body, int64_t timeout_ms, bool* sent);

// Whether an answer's status says the server did nothing and the caller should answer itself:
// it is not this home's (401, 403), does not have the route (404, an older kaizen), or cannot
// answer as a fresh fold would (409: its config changed; 503: it is stopping).
bool ServerDeclined(int status);

// For the verbs that only read (context, hints): the body the home's server answers
// POST /v1/cli/<verb>?<query> with, or nullopt when no server answered 200 (the caller folds the
// log itself; a read may safely be asked twice).
std::optional<std::string> ReadFromServer(const std::string& home, std::string_view verb,
                                          std::string_view query);

// The `now=` query parameter that makes the server answer for the time this process would: the
// verb's --now (a time, or `end`), else this process's clock, so a server started with its own
// --now answers the CLI as the CLI's own fold would.
std::string NowQuery(const std::string& now_flag);

// LoadLearnedState for a verb no server answered. When the fold took long (the learned-state
// checkpoint of a large home: over a second at a million events), the home's server is started
// for the calls after it: `kaizen serve --port 0 --idle-exit 1800`, detached (its own session,
// standard error to <home>/logs/serve.log), so it leaves after half an hour nobody asks it
// anything. Not when the fold took under KAIZEN_AUTOSERVE_AFTER_MS (default 300), when
// KAIZEN_AUTOSERVE=0, or when a server it started holds <home>/run/serve.lock (still starting, or
// running); failing to start one changes nothing (the next call folds the log itself again).
// KAIZEN_AUTOSERVE_IDLE_SECONDS sets --idle-exit.
Status LoadLearnedStateUnserved(const Common& c, LearnedState* out, learn::Parts parts);

// `text` with every byte a URL query value may not hold percent-encoded.
std::string UrlEncode(std::string_view text);

}  // namespace kaizen::home
