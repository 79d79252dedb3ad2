#include "home/serve_client.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rapidjson/document.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "base/sibling.h"
#include "home/clock.h"
#include "home/token.h"
#include "model/timestamp.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::home {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// The record's pid, when the file is there and readable.
std::optional<int64_t> RecordPid(const std::string& text, rapidjson::Document* doc) {
  doc->Parse(text.data(), text.size());
  if (doc->HasParseError() || !doc->IsObject()) return std::nullopt;
  if (!doc->HasMember("pid") || !(*doc)["pid"].IsInt64()) return std::nullopt;
  return (*doc)["pid"].GetInt64();
}

}  // namespace

Status WriteServeRecord(const std::string& home, const std::string& host, int port) {
  const std::string path = store::PathIn(home, std::string(kServeRecord));
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  if (ec) return IoError(fmt::format("create {}: {}", path, ec.message()));
  std::string connect = host;
  if (host == "0.0.0.0" || host.empty()) connect = "127.0.0.1";
  if (host == "::") connect = "::1";
  const std::string text =
      fmt::format(R"({{"pid":{},"host":"{}","port":{}}})", ::getpid(), connect, port) + "\n";
  return store::DefaultFileSystem()->WriteFileAtomic(path, text, /*durable=*/false);
}

void RemoveServeRecord(const std::string& home) {
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string path = store::PathIn(home, std::string(kServeRecord));
  Result<std::string> text = fs->ReadFrom(path, 0);
  if (!text.ok()) return;
  rapidjson::Document doc;
  // Another server of this home may have started since and written its own: leave that one.
  if (RecordPid(*text, &doc) == ::getpid()) (void)fs->Remove(path);
}

std::optional<ServeEndpoint> FindServer(const std::string& home) {
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string path = store::PathIn(home, std::string(kServeRecord));
  if (!fs->Exists(path)) return std::nullopt;
  Result<std::string> text = fs->ReadFrom(path, 0);
  if (!text.ok()) return std::nullopt;
  rapidjson::Document doc;
  const std::optional<int64_t> pid = RecordPid(*text, &doc);
  // A record left by a server that was killed: its process is gone.
  if (!pid || *pid <= 0 || (::kill(static_cast<pid_t>(*pid), 0) != 0 && errno != EPERM)) {
    return std::nullopt;
  }
  if (!doc.HasMember("host") || !doc["host"].IsString() || !doc.HasMember("port") ||
      !doc["port"].IsInt() || doc["port"].GetInt() <= 0 || doc["port"].GetInt() > 65535) {
    return std::nullopt;
  }
  // The token the server checks, read as it reads it (never created here).
  Result<home::BearerToken> token = home::LoadToken(home, std::getenv("KAIZEN_TOKEN"));
  if (!token.ok()) return std::nullopt;
  return ServeEndpoint{doc["host"].GetString(), doc["port"].GetInt(), std::move(token->value)};
}

Result<ServeAnswer> AskServer(const ServeEndpoint& server, std::string_view target,
                              std::string_view body, int64_t timeout_ms, bool* sent) {
  *sent = false;
  net::io_context io(1);
  beast::tcp_stream stream(io);
  beast::error_code ec;
  const net::ip::address address = net::ip::make_address(server.host, ec);
  if (ec) return IoError(fmt::format("serve record: host \"{}\": {}", server.host, ec.message()));
  http::request<http::string_body> request{http::verb::post, target, 11};
  request.set(http::field::host, server.host);
  request.set(http::field::authorization, "Bearer " + server.token);
  request.set(http::field::content_type, "application/json");
  request.body() = std::string(body);
  request.prepare_payload();
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  response.body().reserve(4096);
  beast::error_code failed;
  // The whole exchange runs on this thread within the one deadline (tcp_stream's timeouts hold
  // for asynchronous operations only).
  stream.expires_after(std::chrono::milliseconds(timeout_ms));
  stream.async_connect(net::ip::tcp::endpoint(address, static_cast<uint16_t>(server.port)),
                       [&](beast::error_code e) {
                         if (e) {
                           failed = e;
                           return;
                         }
                         http::async_write(stream, request, [&](beast::error_code w, size_t) {
                           if (w) {
                             failed = w;
                             return;
                           }
                           *sent = true;
                           http::async_read(stream, buffer, response,
                                            [&](beast::error_code r, size_t) { failed = r; });
                         });
                       });
  io.run();
  if (failed) {
    return IoError(
        fmt::format("kaizen serve at {}:{}: {}", server.host, server.port, failed.message()));
  }
  beast::error_code ignored;
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  return ServeAnswer{static_cast<int>(response.result_int()), std::move(response.body())};
}

bool ServerDeclined(int status) {
  return status == 401 || status == 403 || status == 404 || status == 409 || status == 503;
}

std::optional<std::string> ReadFromServer(const std::string& home, std::string_view verb,
                                          std::string_view query) {
  // Long enough for a server that is folding the whole log again (a rewritten log) to answer.
  constexpr int64_t kReadTimeoutMs = 60000;
  std::optional<ServeEndpoint> server = FindServer(home);
  if (!server) return std::nullopt;
  std::string target = fmt::format("/v1/cli/{}", verb);
  if (!query.empty()) target += fmt::format("?{}", query);
  bool sent = false;
  Result<ServeAnswer> answer = AskServer(*server, target, "", kReadTimeoutMs, &sent);
  if (!answer.ok() || answer->status != 200) return std::nullopt;
  return std::move(answer->body);
}

namespace {

int64_t EnvNumber(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long long n = std::strtoll(v, &end, 10);
  return end != nullptr && *end == '\0' && n >= 0 ? n : fallback;
}

void StartServerIfSlow(const std::string& home, std::chrono::steady_clock::duration took) {
  constexpr int64_t kAfterMs = 300;  // a fold of ~150,000 events from the checkpoint
  constexpr int64_t kIdleSeconds = 1800;
  if (const char* on = std::getenv("KAIZEN_AUTOSERVE"); on != nullptr && std::string(on) == "0") {
    return;
  }
  const auto after = std::chrono::milliseconds(EnvNumber("KAIZEN_AUTOSERVE_AFTER_MS", kAfterMs));
  if (took < after || FindServer(home)) return;
  std::error_code ec;
  std::filesystem::create_directories(store::PathIn(home, "run"), ec);
  std::filesystem::create_directories(store::PathIn(home, "logs"), ec);
  // Held by the server for its whole life (the descriptor is inherited through exec): one server
  // started at a time, however many hooks run at once.
  const int lock = ::open(store::PathIn(home, "run/serve.lock").c_str(), O_RDWR | O_CREAT, 0600);
  if (lock < 0) return;
  if (::flock(lock, LOCK_EX | LOCK_NB) != 0) {
    ::close(lock);
    return;
  }
  const std::string self = base::SiblingPath("kaizen");
  const std::string idle = std::to_string(EnvNumber("KAIZEN_AUTOSERVE_IDLE_SECONDS", kIdleSeconds));
  const std::string log = store::PathIn(home, "logs/serve.log");
  const pid_t child = ::fork();
  if (child == 0) {
    // Detached: its own session, reparented to init once this child exits, no terminal.
    ::setsid();
    if (::fork() != 0) ::_exit(0);
    const int null = ::open("/dev/null", O_RDWR);
    // 0600: the first start of a server prints the new bearer token on standard error.
    const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (null >= 0) {
      ::dup2(null, STDIN_FILENO);
      ::dup2(null, STDOUT_FILENO);
    }
    ::dup2(err >= 0 ? err : null, STDERR_FILENO);
    ::execl(self.c_str(), self.c_str(), "serve", "--home", home.c_str(), "--port", "0",
            "--idle-exit", idle.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  if (child > 0) {
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::close(lock);  // the server's copy keeps it locked
}

}  // namespace

Status LoadLearnedStateUnserved(const Common& c, LearnedState* out, learn::Parts parts) {
  const auto started = std::chrono::steady_clock::now();
  KZ_RETURN_IF_ERROR(LoadLearnedState(c, out, nullptr, parts));
  StartServerIfSlow(c.home, std::chrono::steady_clock::now() - started);
  return Status::Ok();
}

std::string NowQuery(const std::string& now_flag) {
  if (!now_flag.empty()) return "now=" + UrlEncode(now_flag);
  Result<int64_t> now = NowMs("");
  return "now=" + UrlEncode(model::FormatUtc(now.ok() ? *now : 0));
}

std::string UrlEncode(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(ch);
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

}  // namespace kaizen::home
