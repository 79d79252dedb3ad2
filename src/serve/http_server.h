// The HTTP/1.1 transport of `kaizen serve` (cpp-httplib, chosen by measurement:
// bench/http/README.md): a pool of threads, one per connection being served, each running
// serve::Routes. A request that writes blocks its thread in LiveState::Submit until its events are
// durable, so the pool is also what lets group commit batch concurrent writes: with N threads, up
// to N writes share one fsync.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "kaizen/status.h"
#include "serve/routes.h"

namespace kaizen::serve {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8377;  // 0: the system picks one (reported through on_listening)
  int threads = 64;
  size_t max_body = size_t{1} << 20;  // larger bodies: discarded unbuffered, then 413
  int timeout_seconds = 10;           // per read or write on a socket: slow clients are cut off
  int keep_alive_seconds = 5;         // an idle keep-alive connection is closed after this
};

// Blocks SIGINT and SIGTERM in the calling thread and every thread it starts afterwards, so that
// RunHttpServer alone receives them. Call it first, before any thread exists (LiveState's writer).
void BlockShutdownSignals();

// Listens, calls on_listening(host, port), and serves until SIGINT or SIGTERM: then it stops
// accepting, answers 503 to any request still arriving on an open connection, waits for the
// requests in flight to finish, and returns OK. The caller then shuts LiveState down.
// REQUIRES: BlockShutdownSignals() was called. IoError when the address cannot be bound.
Status RunHttpServer(const HttpServerOptions& options, Routes* routes,
                     const std::function<void(const std::string& host, int port)>& on_listening);

}  // namespace kaizen::serve
