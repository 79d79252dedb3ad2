#include "serve/http_server.h"

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>

#include <fmt/format.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "serve/http_errors.h"
#include "serve/routes_query.h"

namespace kaizen::serve {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using ErrorCode = beast::error_code;
// One io_context per I/O thread, and their concrete executor everywhere: no strands (a
// connection lives on one thread) and no type-erased executors, which cost a shared_ptr copy
// and a virtual call per operation (about a sixth of the I/O threads' samples when measured).
using Executor = net::io_context::executor_type;
using Stream = beast::basic_stream<tcp, Executor>;
using Socket = tcp::socket::rebind_executor<Executor>::other;
using Acceptor = tcp::acceptor::rebind_executor<Executor>::other;
using Timer = net::steady_timer::rebind_executor<Executor>::other;

sigset_t ShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

// The pages run only their own scripts and styles, talk only to this server, and cannot be
// framed: data from the log is never code.
constexpr std::string_view kWebSecurityPolicy =
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'";

class Session;

// What every connection shares: the routes, the limits, the pool for the routes that block, and
// the set of open connections (shutdown closes the idle ones).
struct Listener {
  const HttpServerOptions& options;
  Routes* routes;
  std::vector<std::unique_ptr<net::io_context>>& ios;  // one per I/O thread
  net::thread_pool& pool;
  Acceptor acceptor;
  Timer accept_retry;
  size_t next_io = 0;  // round robin over `ios` for new connections (the acceptor's thread only)
  bool accept_failing = false;  // the acceptor's thread only
  // Keep run() going while nothing else would (a submission waiting for its fsync holds no I/O
  // operation); released once shutdown has begun and the last connection is gone.
  std::vector<net::executor_work_guard<Executor>> keep_running;

  std::mutex mu;
  std::unordered_set<Session*> sessions;  // GUARDED_BY(mu)
  std::atomic<bool> stopping{false};      // set under mu; read anywhere

  Listener(const HttpServerOptions& o, Routes* r, std::vector<std::unique_ptr<net::io_context>>& i,
           net::thread_pool& p)
      : options(o),
        routes(r),
        ios(i),
        pool(p),
        acceptor(i.front()->get_executor()),
        accept_retry(i.front()->get_executor()) {
    for (auto& io : ios) keep_running.push_back(net::make_work_guard(*io));
  }

  void Accept();
  void BeginShutdown();
  size_t OpenConnections() {
    std::lock_guard<std::mutex> l(mu);
    return sessions.size();
  }
  // Adds a new connection to `sessions`; false once shutdown has begun (it is then dropped).
  bool Admit(const std::shared_ptr<Session>& s);
  void Leave(Session* s);
};

// One connection: reads a request, answers it, and reads the next (keep-alive), all on one I/O
// thread. A request is answered before the next is read, so the views the routes get stay valid.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Socket socket, Listener* listener) : stream_(std::move(socket)), listener_(listener) {}
  // Never runs on LiveState's writer thread, which outlives the io_contexts (see OnRequest's
  // `done`); every other thread that may drop the last reference (an I/O thread, the pool, the
  // signal waiter) is joined before they are destroyed.
  ~Session() { listener_->Leave(this); }

  // On this connection's I/O thread, after Listener::Admit.
  void Start() { ReadHeader(); }

  // Shutdown: a connection waiting for its next request is closed; one with a request in hand
  // answers it (with Connection: close) first.
  void CloseIfIdle() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      if (self->waiting_) self->stream_.close();
    });
  }

 private:
  void ReadHeader() {
    if (buffer_.size() == 0 && listener_->stopping.load()) {
      // Answered with keep-alive just before shutdown began: nothing more is read, and the
      // close is graceful, so the answer already sent is not cut off by a reset.
      return CloseGracefully();
    }
    parser_.emplace();
    parser_->body_limit(listener_->options.max_body);
    // The first request must arrive within the read timeout; later ones within the keep-alive
    // timeout, after which an idle connection is closed.
    stream_.expires_after(std::chrono::seconds(served_ ? listener_->options.keep_alive_seconds
                                                       : listener_->options.timeout_seconds));
    waiting_ = buffer_.size() == 0;
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = shared_from_this()](ErrorCode ec, size_t) {
                              self->waiting_ = false;
                              self->OnHeader(ec);
                            });
  }

  void OnHeader(ErrorCode ec) {
    if (ec) return Failed(ec);
    stream_.expires_after(std::chrono::seconds(listener_->options.timeout_seconds));
    // (HTTP/1.0 has no interim answers: RFC 9110 §10.1.1.)
    if (parser_->get().version() >= 11 &&
        beast::iequals(parser_->get()[http::field::expect], "100-continue")) {
      // curl asks before sending a body over 1 KiB; without this it waits a second.
      auto go_on = std::make_shared<http::response<http::empty_body>>(http::status::continue_,
                                                                      parser_->get().version());
      http::async_write(stream_, *go_on, [self = shared_from_this(), go_on](ErrorCode ec, size_t) {
        if (ec) return self->stream_.close();
        self->ReadBody();
      });
      return;
    }
    ReadBody();
  }

  void ReadBody() {
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](ErrorCode ec, size_t) { self->OnRequest(ec); });
  }

  // A request that could not be read: a clean close or a timeout ends the connection quietly;
  // an oversized or malformed request is answered, then the connection is closed.
  void Failed(ErrorCode ec) {
    if (ec == http::error::body_limit) {
      return AnswerAndClose(
          413, fmt::format("the body is over the limit of {} bytes (--max-body); send fewer "
                           "events per request",
                           listener_->options.max_body));
    }
    if (ec == http::error::header_limit) {
      return AnswerAndClose(431, "the request's headers are over 8 KiB");
    }
    // Any other HTTP error is a malformed request (a client that closed mid-request gets none).
    if (ec.category() == ErrorCode(http::error::end_of_stream).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message) {
      return AnswerAndClose(400,
                            fmt::format("the request is not valid HTTP/1.1: {}", ec.message()));
    }
    ErrorCode ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

  void OnRequest(ErrorCode ec) {
    if (ec) return Failed(ec);
    stream_.expires_never();  // a route may take its time (git, the whole analysis)
    const auto& req = parser_->get();
    version_ = req.version();
    head_ = req.method() == http::verb::head;
    keep_alive_ = req.keep_alive();
    const std::string_view target = req.target();
    const size_t question = target.find('?');
    path_ = DecodeUrl(target.substr(0, question), false);
    params_ = question == std::string_view::npos ? QueryParams()
                                                 : ParseQueryString(target.substr(question + 1));
    request_.method = req.method_string();
    request_.path = path_;
    request_.params = &params_;
    request_.body = req.body();
    request_.authorization = req[http::field::authorization];
    request_.github_event = req["X-GitHub-Event"];
    request_.github_delivery = req["X-GitHub-Delivery"];
    request_.github_signature = req["X-Hub-Signature-256"];

    // The answer goes to this connection's I/O thread: at once when called there (a quick
    // route), else queued (from the writer thread or the pool). The reference to the session
    // moves with it, so the caller keeps none: LiveState's writer, which outlives the I/O
    // threads, must never destroy a session (its socket belongs to their io_context).
    auto owner = std::make_shared<std::shared_ptr<Session>>(shared_from_this());
    Routes::Done done = [owner](HttpResponse out) {
      std::shared_ptr<Session> self = std::move(*owner);
      const Executor on = self->stream_.get_executor();
      net::dispatch(on, [self = std::move(self), out = std::move(out)]() mutable {
        self->Write(std::move(out));
      });
    };
    if (Routes::MayBlock(request_.method, request_.path)) {
      net::post(listener_->pool, [self = shared_from_this(), done = std::move(done)] {
        self->listener_->routes->Handle(self->request_, done);
      });
    } else {
      // An event submission returns at once (answered after the fsync), a quick read answers
      // here: no hop to another thread and back.
      listener_->routes->Handle(request_, done);
    }
  }

  void Write(HttpResponse out) {
    auto& res = response_;
    res = {};
    res.version(version_);
    res.result(static_cast<unsigned>(out.status));
    res.set(http::field::content_type, out.content_type);
    if (!out.www_authenticate.empty()) res.set(http::field::www_authenticate, out.www_authenticate);
    if (!out.allow.empty()) res.set(http::field::allow, out.allow);
    res.set("X-Content-Type-Options", "nosniff");
    if (out.web) {
      res.set("Content-Security-Policy", kWebSecurityPolicy);
      res.set("Referrer-Policy", "no-referrer");
      res.set(http::field::cache_control, "no-cache");
    }
    res.content_length(out.body.size());
    if (!head_) res.body() = std::move(out.body);
    const bool close = out.close || !keep_alive_ || listener_->stopping.load();
    res.keep_alive(!close);
    stream_.expires_after(std::chrono::seconds(listener_->options.timeout_seconds));
    http::async_write(stream_, res, [self = shared_from_this(), close](ErrorCode ec, size_t) {
      if (ec) return self->stream_.close();
      if (close) return self->CloseGracefully();
      self->served_ = true;
      self->ReadHeader();
    });
  }

  // An error answer, then the connection closed (the request may not have been read whole).
  void AnswerAndClose(int status, std::string message) {
    version_ = parser_ && parser_->is_header_done() ? parser_->get().version() : 11;
    head_ = false;
    keep_alive_ = false;
    HttpResponse out;
    out.status = status;
    out.body = ErrorBody(ErrorCodeFor(status), message);
    Write(std::move(out));
  }

  // Ends the connection after its last answer: no more sending, then Drain.
  void CloseGracefully() {
    ErrorCode ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    // One deadline for the whole drain: a client trickling bytes does not extend it.
    stream_.expires_after(std::chrono::seconds(std::min(listener_->options.timeout_seconds, 2)));
    Drain();
  }

  // Reads and drops what the client still sends until it closes (or the deadline), so that
  // closing with unread bytes does not reset the connection before the client has read the
  // answer.
  void Drain() {
    buffer_.clear();
    stream_.async_read_some(buffer_.prepare(64 * 1024),
                            [self = shared_from_this()](ErrorCode ec, size_t) {
                              if (ec) return self->stream_.close();
                              self->Drain();
                            });
  }

  Stream stream_;
  Listener* listener_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  HttpRequest request_;
  std::string path_;
  QueryParams params_;
  unsigned version_ = 0;
  bool head_ = false;
  bool keep_alive_ = true;
  bool served_ = false;  // a request was answered on this connection
  // Waiting for the next request, with nothing of it buffered when the read began (shutdown
  // closes such a connection; a request that has just started arriving is cut off with it).
  bool waiting_ = false;
};

bool Listener::Admit(const std::shared_ptr<Session>& s) {
  std::lock_guard<std::mutex> l(mu);
  if (stopping) return false;
  sessions.insert(s.get());
  return true;
}

void Listener::Leave(Session* s) {
  std::lock_guard<std::mutex> l(mu);
  sessions.erase(s);
  if (stopping && sessions.empty()) keep_running.clear();
}

void Listener::Accept() {
  Executor on = ios[next_io++ % ios.size()]->get_executor();
  acceptor.async_accept(on, [this, on](ErrorCode ec, Socket socket) {
    if (ec == net::error::operation_aborted || !acceptor.is_open()) return;
    if (ec) {
      // Out of descriptors (EMFILE) and the like: try again shortly instead of spinning, and say
      // so once per spell rather than ten times a second.
      if (!accept_failing) {
        fmt::print(stderr,
                   "kaizen serve: cannot accept connections: {} (retrying; {} connections "
                   "open)\n",
                   ec.message(), OpenConnections());
      }
      accept_failing = true;
      accept_retry.expires_after(std::chrono::milliseconds(100));
      accept_retry.async_wait([this](ErrorCode e) {
        if (!e) Accept();
      });
      return;
    }
    if (accept_failing) fmt::print(stderr, "kaizen serve: accepting connections again\n");
    accept_failing = false;
    ErrorCode ignored;
    // Off by default: Nagle + delayed ACK cost 40 ms per answer.
    socket.set_option(tcp::no_delay(true), ignored);
    // Registered before it starts, and started on its own I/O thread (still running: the
    // registered session holds its work guard).
    auto session = std::make_shared<Session>(std::move(socket), this);
    if (Admit(session)) net::dispatch(on, [session] { session->Start(); });
    Accept();
  });
}

void Listener::BeginShutdown() {
  net::dispatch(acceptor.get_executor(), [this] {
    ErrorCode ignored;
    acceptor.close(ignored);
    accept_retry.cancel();
  });
  std::vector<std::shared_ptr<Session>> open;
  {
    std::lock_guard<std::mutex> l(mu);
    stopping = true;
    for (Session* s : sessions) {
      // Null when that session is being destroyed (it waits on `mu` to leave the set).
      if (auto p = s->weak_from_this().lock()) open.push_back(std::move(p));
    }
    if (sessions.empty()) keep_running.clear();
  }
  for (const auto& s : open) s->CloseIfIdle();
}

// Runs `io` until it runs out of work. A handler that throws (std::bad_alloc, Beast's
// length_error on an oversized field) loses its own connection only: the error is said and the
// thread goes on serving the others.
void RunIo(net::io_context& io) {
  while (true) {
    try {
      io.run();
      return;
    } catch (const std::exception& e) {
      fmt::print(stderr, "kaizen serve: a connection failed: {}\n", e.what());
    }
  }
}

}  // namespace

void BlockShutdownSignals() {
  sigset_t set = ShutdownSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

Status RunHttpServer(const HttpServerOptions& options, Routes* routes,
                     const std::function<void(const std::string& host, int port)>& on_listening) {
  // A connection costs a descriptor and no thread: let it have as many as the hard limit allows
  // (the soft limit is often 1,024).
  if (rlimit files; getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  // The I/O threads parse, route event submissions and write answers; the pool runs the routes
  // that may block. One per core: none of them ever waits.
  const unsigned io_threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::unique_ptr<net::io_context>> ios;
  for (unsigned i = 0; i < io_threads; ++i) ios.push_back(std::make_unique<net::io_context>(1));
  net::thread_pool pool(static_cast<size_t>(std::max(1, options.threads)));
  Listener listener(options, routes, ios, pool);

  ErrorCode ec;
  tcp::resolver resolver(*ios.front());
  const auto endpoints =
      resolver.resolve(options.host, std::to_string(options.port),
                       tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  std::string failure = ec ? ec.message() : "no address";
  bool bound = false;
  for (const auto& entry : endpoints) {
    ErrorCode e;
    listener.acceptor.open(entry.endpoint().protocol(), e);
    // SO_REUSEADDR restarts cleanly after TIME_WAIT; no SO_REUSEPORT, so a port in use is an
    // error instead of a second server silently taking half the connections.
    if (!e) listener.acceptor.set_option(tcp::acceptor::reuse_address(true), e);
    if (!e) listener.acceptor.bind(entry.endpoint(), e);
    if (!e) listener.acceptor.listen(net::socket_base::max_listen_connections, e);
    if (!e) {
      bound = true;
      break;
    }
    failure = e.message();
    ErrorCode ignored;
    listener.acceptor.close(ignored);
  }
  if (!bound) {
    return IoError(
        fmt::format("cannot listen on {}:{} ({}); is another server using it? (--host, --port)",
                    options.host, options.port, failure));
  }
  on_listening(options.host, listener.acceptor.local_endpoint().port());
  listener.Accept();

  // The only thread that takes SIGINT/SIGTERM (blocked everywhere else): it begins the shutdown.
  // The I/O threads return once the last connection has answered and closed.
  std::atomic<bool> signalled{false};
  std::thread waiter([&listener, &signalled, routes] {
    sigset_t set = ShutdownSignals();
    int signal = 0;
    sigwait(&set, &signal);
    if (signalled.exchange(true)) return;  // woken by the end of serving below
    routes->BeginShutdown();
    listener.BeginShutdown();
  });

  std::vector<std::thread> runners;
  for (unsigned i = 1; i < io_threads; ++i) {
    runners.emplace_back([&ios, i] { RunIo(*ios[i]); });
  }
  RunIo(*ios.front());
  for (std::thread& t : runners) t.join();
  pool.join();
  // Serving ended without a signal: wake the waiter so it can be joined.
  if (!signalled.exchange(true)) pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  return Status::Ok();
}

}  // namespace kaizen::serve
