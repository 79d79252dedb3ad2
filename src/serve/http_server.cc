#include "serve/http_server.h"

#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "serve/http_errors.h"

namespace kaizen::serve {
namespace {

sigset_t ShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

// httplib 0.11.4 (Debian builds it as a library) listens with a backlog of 5: a burst of clients
// connecting at once loses SYNs and waits a 1 s retransmit. listen() again widens the backlog of
// the bound socket, which is reachable only from a subclass.
class Server : public httplib::Server {
 public:
  void WidenBacklog() { ::listen(svr_sock_, SOMAXCONN); }
};

void Answer(const HttpResponse& out, httplib::Response& res) {
  res.status = out.status;
  res.set_content(out.body, out.content_type.c_str());
  if (!out.www_authenticate.empty()) res.set_header("WWW-Authenticate", out.www_authenticate);
  if (!out.allow.empty()) res.set_header("Allow", out.allow);
  if (out.close) res.set_header("Connection", "close");
  res.set_header("X-Content-Type-Options", "nosniff");
  if (out.web) {
    // The pages run only their own scripts and styles, talk only to this server, and cannot be
    // framed: data from the log is never code.
    res.set_header("Content-Security-Policy",
                   "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                   "base-uri 'none'; frame-ancestors 'none'; form-action 'self'");
    res.set_header("Referrer-Policy", "no-referrer");
    res.set_header("Cache-Control", "no-cache");
  }
}

}  // namespace

void BlockShutdownSignals() {
  sigset_t set = ShutdownSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

Status RunHttpServer(const HttpServerOptions& options, Routes* routes,
                     const std::function<void(const std::string& host, int port)>& on_listening) {
  Server server;
  const int threads = options.threads;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_tcp_nodelay(true);  // off by default: Nagle + delayed ACK cost 40 ms per answer
  server.set_keep_alive_max_count(1'000'000);  // default 5: a reconnect every 5 requests
  server.set_keep_alive_timeout(options.keep_alive_seconds);
  server.set_read_timeout(options.timeout_seconds, 0);
  server.set_write_timeout(options.timeout_seconds, 0);
  server.set_payload_max_length(options.max_body);
  // httplib's default also sets SO_REUSEPORT, which lets a second `kaizen serve` bind the same
  // port and silently take half the connections; SO_REUSEADDR alone restarts cleanly after
  // TIME_WAIT and makes a port in use an error.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });

  const size_t max_body = options.max_body;
  // Answers httplib gives itself (413 for a body over the cap, 400 for a malformed request
  // line) get the same JSON error body as the routes' own.
  server.set_error_handler(
      httplib::Server::Handler([max_body](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return;
        std::string message = res.status == 413 ? fmt::format(
                                                      "the body is over the limit of {} bytes "
                                                      "(--max-body); send fewer events per request",
                                                      max_body)
                                                : fmt::format("HTTP {}", res.status);
        res.set_content(ErrorBody(ErrorCodeFor(res.status), message), "application/json");
      }));
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        res.status = 500;
        res.set_content(ErrorBody("internal", "internal error"), "application/json");
      });
  const httplib::Server::Handler handler = [routes](const httplib::Request& req,
                                                    httplib::Response& res) {
    HttpRequest request;
    request.method = req.method;
    request.path = req.path;
    request.params = &req.params;
    request.body = req.body;
    const std::string authorization = req.get_header_value("Authorization");
    request.authorization = authorization;
    Answer(routes->Handle(request), res);
  };
  server.Get(".*", handler);
  server.Post(".*", handler);
  server.Put(".*", handler);
  server.Patch(".*", handler);
  server.Delete(".*", handler);
  server.Options(".*", handler);

  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.host);
    if (port < 0) port = -1;
  } else if (!server.bind_to_port(options.host, port)) {
    port = -1;
  }
  if (port < 0) {
    return IoError(
        fmt::format("cannot listen on {}:{} ({}); is another server using it? (--host, "
                    "--port)",
                    options.host, options.port, std::strerror(errno)));
  }
  server.WidenBacklog();
  on_listening(options.host, port);

  // The only thread that takes SIGINT/SIGTERM (blocked everywhere else): it stops the server.
  // listen_after_bind() then returns once the requests in flight are answered.
  std::atomic<bool> signalled{false}, listen_done{false};
  std::thread waiter([&server, &signalled, &listen_done, routes] {
    sigset_t set = ShutdownSignals();
    int signal = 0;
    sigwait(&set, &signal);
    signalled.store(true);
    routes->BeginShutdown();
    // stop() does nothing before listen_after_bind() is running (a signal that arrived while
    // the log was being folded is taken at once), and must be called once only (httplib asserts
    // the socket is still open): wait until it runs, then stop it.
    while (!listen_done.load() && !server.is_running()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!listen_done.load()) server.stop();
  });
  const bool served = server.listen_after_bind();
  listen_done.store(true);
  routes->BeginShutdown();
  // Listening ended without a signal (an accept error): wake the waiter so it can be joined. A
  // SIGTERM that races with this one stays pending and blocked: harmless.
  if (!signalled.load()) pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  if (!served) return IoError(fmt::format("serving on {}:{} failed", options.host, port));
  return Status::Ok();
}

}  // namespace kaizen::serve
