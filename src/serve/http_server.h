// The HTTP/1.1 transport of `kaizen serve` (Boost.Beast on Boost.Asio, chosen by measurement:
// bench/http/README.md). One I/O thread per core reads requests from every connection (epoll) and
// writes the answers; no thread waits for a client. An event submission is handed to LiveState's
// writer from the I/O thread and answered when the writer has made it durable, so every write in
// flight, from any number of connections, shares the next group commit's fsync. The quick reads
// (context, hints, rules) answer on the I/O thread; the routes that may hold a thread for long
// (Routes::MayBlock: tools, the whole analysis, git) run on a pool of `threads`.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "kaizen/status.h"
#include "serve/routes.h"

namespace kaizen::serve {

struct HttpServerOptions {
  std::string host = "127.0.0.1";
  int port = 8377;   // 0: the system picks one (reported through on_listening)
  int threads = 64;  // the pool for the routes that may block (not a limit on connections)
  size_t max_body = size_t{1} << 20;  // larger bodies: 413, then the connection is closed
  int timeout_seconds = 10;    // to receive a request's headers, its body, or to send an answer
  int keep_alive_seconds = 5;  // an idle keep-alive connection is closed after this
};

// Blocks SIGINT and SIGTERM in the calling thread and every thread it starts afterwards, so that
// RunHttpServer alone receives them. Call it first, before any thread exists (LiveState's writer).
void BlockShutdownSignals();

// Listens, calls on_listening(host, port), and serves until SIGINT or SIGTERM: then it stops
// accepting, closes the connections waiting for a request, answers the requests in flight (those
// already answered by a route before the signal, else 503) with Connection: close, and returns
// OK once every connection is closed. The caller then shuts LiveState down.
// REQUIRES: BlockShutdownSignals() was called. IoError when the address cannot be bound.
Status RunHttpServer(const HttpServerOptions& options, Routes* routes,
                     const std::function<void(const std::string& host, int port)>& on_listening);

}  // namespace kaizen::serve
