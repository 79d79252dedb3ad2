// Minimal Boost.Beast server for the HTTP library comparison (bench/http/README.md): the same two
// routes as httplib_server.cc, asynchronous, one io_context run by N threads, keep-alive, a body
// limit and a per-request timeout. Not part of the build.
// Boost 1.74 asio/awaitable.hpp uses std::exchange without <utility> under C++20: include first.
#include <optional>
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

class Session : public std::enable_shared_from_this<Session> {
 public:
  explicit Session(tcp::socket socket) : stream_(std::move(socket)) {}
  void Start() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->Read(); });
  }

 private:
  void Read() {
    parser_.emplace();
    parser_->body_limit(1 << 20);
    stream_.expires_after(std::chrono::seconds(5));
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }
  void OnRead(beast::error_code ec) {
    if (ec) {
      stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
      return;
    }
    auto req = parser_->release();
    res_ = {};
    res_.version(req.version());
    res_.keep_alive(req.keep_alive());
    res_.set(http::field::content_type, "application/json");
    if (req.method() == http::verb::get && req.target() == "/healthz") {
      res_.result(http::status::ok);
      res_.body() = R"({"status":"ok"})";
    } else if (req.method() == http::verb::post && req.target() == "/v1/echo") {
      res_.result(http::status::ok);
      res_.body() = "{\"stored\":true,\"bytes\":" + std::to_string(req.body().size()) + "}";
    } else {
      res_.result(http::status::not_found);
      res_.body() = R"({"error":{"code":"not_found"}})";
    }
    res_.prepare_payload();
    http::async_write(stream_, res_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec || !self->res_.keep_alive()) {
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        return;
      }
      self->Read();
    });
  }
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> res_;
};

void Accept(tcp::acceptor& acceptor, net::io_context& ioc) {
  acceptor.async_accept(net::make_strand(ioc), [&](beast::error_code ec, tcp::socket socket) {
    if (!ec) std::make_shared<Session>(std::move(socket))->Start();
    Accept(acceptor, ioc);
  });
}

int main(int argc, char** argv) {
  const unsigned short port = argc > 1 ? std::atoi(argv[1]) : 18081;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 2;
  net::io_context ioc(threads);
  tcp::acceptor acceptor(ioc, {net::ip::make_address("127.0.0.1"), port});
  Accept(acceptor, ioc);
  std::fprintf(stderr, "listening 127.0.0.1:%d\n", port);
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();
}
