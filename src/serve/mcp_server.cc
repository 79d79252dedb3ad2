#include "serve/mcp_server.h"
#include "base/exit_code.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <simdjson.h>

#include "base/json_writer.h"
#include "model/json_access.h"
#include "render/render_all.h"
#include "serve/mcp_line_reader.h"

namespace kaizen::serve {
namespace {

using namespace jsonrpc;  // NOLINT: the error codes

constexpr std::string_view kServerName = "kaizen";
constexpr std::string_view kServerVersion = "0.1.0";  // CMakeLists.txt project(VERSION)
constexpr std::string_view kUriPrefix = "kaizen://";
// The one revision whose JSON-RPC layer allowed batches (added 2025-03-26, removed 2025-06-18).
constexpr std::string_view kBatchVersion = "2025-03-26";

std::string Quoted(std::string_view s) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  base::Str(w, s);
  return b.GetString();
}

// The params object; an absent params reads as {}. False when params is an array (MCP's are
// objects).
bool ParamsObject(const Request& r, simdjson::dom::parser& parser, simdjson::padded_string& text,
                  simdjson::dom::object* out) {
  text = simdjson::padded_string(r.params.empty() ? std::string_view("{}") : r.params);
  return parser.parse(text).get_object().get(*out) == simdjson::SUCCESS;
}

std::string_view MimeType(std::string_view path) {
  if (path.ends_with(".md")) return "text/markdown";
  if (path.ends_with(".json")) return "application/json";
  return "text/plain";
}

bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

McpServer::McpServer(McpOptions options) : options_(std::move(options)) {
  opened_ = opened_promise_.get_future().share();
  opener_ = std::thread([this] {
    Result<std::unique_ptr<LiveState>> live = LiveState::Open(options_.live);
    if (live.ok()) {
      live_ = std::move(live).value();
      tools_ = std::make_unique<Tools>(live_.get());
    } else {
      open_status_ = live.status();
      fmt::print(stderr, "kaizen mcp: cannot open {}: {}\n", options_.live.home,
                 open_status_.message());
    }
    opened_promise_.set_value();
  });
}

McpServer::~McpServer() {
  (void)Finish();
  if (opener_.joinable()) opener_.join();
}

Status McpServer::Finish() {
  opened_.wait();
  if (finished_) return open_status_;
  finished_ = true;
  if (live_) live_->Shutdown();
  return open_status_;
}

LiveState* McpServer::Live(Status* why) {
  opened_.wait();
  *why = open_status_;
  return live_.get();
}

std::string McpServer::Oversized(size_t bytes) const {
  return ErrorResponse({}, kInvalidRequest,
                       fmt::format("Invalid Request: a message of {} bytes is over the limit of {} "
                                   "bytes per line",
                                   bytes, options_.max_line_bytes));
}

std::string McpServer::HandleLine(std::string_view text) {
  if (text.find_first_not_of(" \t\r") == std::string_view::npos) return {};  // a blank line
  Line line = ParseLine(text);
  if (!line.error.empty()) return line.error;
  if (line.batch && (!initialized_ || version_ != kBatchVersion)) {
    return ErrorResponse(
        {}, kInvalidRequest,
        initialized_ ? fmt::format("Invalid Request: JSON-RPC batches are not part of protocol "
                                   "version {} (only {})",
                                   version_, kBatchVersion)
                     : "Invalid Request: initialize must not be part of a batch");
  }
  std::string replies;
  for (const Message& m : line.messages) {
    std::string reply = m.request ? Handle(*m.request) : m.error;
    if (reply.empty()) continue;
    replies += (replies.empty() ? "" : ",") + reply;
  }
  if (!line.batch || replies.empty()) return replies;
  return "[" + replies + "]";
}

std::string McpServer::Handle(const Request& r) {
  const std::string& m = r.method;
  if (r.notification()) return {};  // notifications/initialized, cancelled, ...: nothing owed
  if (m == "ping") return ResultResponse(r.id, "{}");
  if (m == "initialize") return Initialize(r);
  if (!initialized_) {
    return ErrorResponse(r.id, kInvalidRequest,
                         fmt::format("Invalid Request: {} before initialize; the session starts "
                                     "with an initialize request",
                                     model::QuoteForMessage(m)));
  }
  if (m == "tools/list") return ToolsList(r);
  if (m == "tools/call") return ToolsCall(r);
  if (m == "resources/list") return ResourcesList(r);
  if (m == "resources/read") return ResourcesRead(r);
  if (m == "resources/templates/list") return ResultResponse(r.id, R"({"resourceTemplates":[]})");
  return ErrorResponse(
      r.id, kMethodNotFound,
      fmt::format("Method not found: {}; kaizen serves initialize, ping, tools/list, "
                  "tools/call, resources/list, resources/read",
                  model::QuoteForMessage(m)));
}

std::string McpServer::Initialize(const Request& r) {
  if (initialized_) {
    return ErrorResponse(r.id, kInvalidRequest,
                         "Invalid Request: the session is already initialized");
  }
  simdjson::dom::parser parser;
  simdjson::padded_string text;
  simdjson::dom::object params;
  std::string_view requested;
  if (!ParamsObject(r, parser, text, &params) ||
      params["protocolVersion"].get_string().get(requested) != simdjson::SUCCESS) {
    return ErrorResponse(r.id, kInvalidParams,
                         "Invalid params: initialize needs params.protocolVersion, a string");
  }
  version_ = kProtocolVersions[0];
  for (std::string_view v : kProtocolVersions) {
    if (v == requested) version_ = v;
  }
  initialized_ = true;
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "protocolVersion");
  base::Str(w, version_);
  base::Key(w, "capabilities");
  w.StartObject();
  base::Key(w, "tools");
  w.StartObject();
  base::Key(w, "listChanged");
  w.Bool(false);
  w.EndObject();
  base::Key(w, "resources");
  w.StartObject();
  base::Key(w, "subscribe");
  w.Bool(false);
  base::Key(w, "listChanged");
  w.Bool(false);
  w.EndObject();
  w.EndObject();
  base::Key(w, "serverInfo");
  w.StartObject();
  base::Key(w, "name");
  base::Str(w, kServerName);
  base::Key(w, "version");
  base::Str(w, kServerVersion);
  w.EndObject();
  base::Key(w, "instructions");
  base::Str(w,
            "kaizen learns from reviewers' feedback on your work. Before a task call "
            "get_context (and get_hints); before submitting, self_check and validate_output; "
            "record what you submit (record_work), how it went (record_outcome, record_error) "
            "and the feedback you get (record_feedback, log_correction, record_reward).");
  w.EndObject();
  return ResultResponse(r.id, b.GetString());
}

std::string McpServer::ToolsList(const Request& r) {
  std::string tools;
  for (const ToolSpec& t : Tools(nullptr).Specs()) {
    tools += fmt::format(R"({}{{"name":{},"description":{},"inputSchema":{}}})",
                         tools.empty() ? "" : ",", Quoted(t.name), Quoted(t.description),
                         t.input_schema);
  }
  return ResultResponse(r.id, R"({"tools":[)" + tools + "]}");
}

std::string McpServer::ToolsCall(const Request& r) {
  simdjson::dom::parser parser;
  simdjson::padded_string text;
  simdjson::dom::object params;
  std::string_view name;
  if (!ParamsObject(r, parser, text, &params) ||
      params["name"].get_string().get(name) != simdjson::SUCCESS) {
    return ErrorResponse(r.id, kInvalidParams,
                         "Invalid params: tools/call needs params.name, a string");
  }
  std::string arguments = "{}";
  simdjson::dom::element args;
  if (params["arguments"].get(args) == simdjson::SUCCESS && !args.is_null()) {
    if (!args.is_object()) {
      return ErrorResponse(r.id, kInvalidParams,
                           "Invalid params: params.arguments must be an object");
    }
    arguments = simdjson::to_string(args);
  }
  bool known = false;
  for (const ToolSpec& t : Tools(nullptr).Specs()) known = known || t.name == name;
  if (!known) {
    ToolResult ignored;
    Status s = Tools(nullptr).Call(name, arguments, &ignored);  // NotFound naming the tools
    return ErrorResponse(r.id, kInvalidParams, "Invalid params: " + s.message());
  }
  Status why;
  LiveState* live = Live(&why);
  if (live == nullptr) {
    return ErrorResponse(r.id, kInternalError,
                         "Internal error: the kaizen home could not be opened: " + why.message());
  }
  ToolResult result;
  if (Status s = tools_->Call(name, arguments, &result); !s.ok()) {
    fmt::print(stderr, "kaizen mcp: tools/call {}: {}\n", name, s.message());
    return ErrorResponse(r.id, kInternalError, "Internal error: " + s.message());
  }
  if (result.json.empty()) result.json = "{}";
  // The text for the model, then (2025-06-18: "a tool that returns structured content SHOULD
  // also return the serialized JSON in a TextContent block") the JSON itself.
  std::string out =
      fmt::format(R"({{"content":[{{"type":"text","text":{}}},{{"type":"text","text":{}}}])",
                  Quoted(result.text), Quoted(result.json));
  if (version_ >= "2025-06-18") out += R"(,"structuredContent":)" + result.json;
  out += fmt::format(R"(,"isError":{}}})", result.is_error ? "true" : "false");
  return ResultResponse(r.id, out);
}

std::string McpServer::ResourcesList(const Request& r) {
  Status why;
  LiveState* live = Live(&why);
  if (live == nullptr) {
    return ErrorResponse(r.id, kInternalError,
                         "Internal error: the kaizen home could not be opened: " + why.message());
  }
  std::string list;
  live->Read([&](const learn::Learner& learner, int64_t now_ms) {
    for (const render::RenderedFile& f : render::RenderAll(learner, now_ms)) {
      list += fmt::format(R"({}{{"uri":{},"name":{},"mimeType":{},"size":{}}})",
                          list.empty() ? "" : ",", Quoted(std::string(kUriPrefix) + f.path),
                          Quoted(f.path), Quoted(MimeType(f.path)), f.content.size());
    }
  });
  return ResultResponse(r.id, R"({"resources":[)" + list + "]}");
}

std::string McpServer::ResourcesRead(const Request& r) {
  simdjson::dom::parser parser;
  simdjson::padded_string text;
  simdjson::dom::object params;
  std::string_view uri;
  if (!ParamsObject(r, parser, text, &params) ||
      params["uri"].get_string().get(uri) != simdjson::SUCCESS) {
    return ErrorResponse(r.id, kInvalidParams,
                         "Invalid params: resources/read needs params.uri, a string");
  }
  Status why;
  LiveState* live = Live(&why);
  if (live == nullptr) {
    return ErrorResponse(r.id, kInternalError,
                         "Internal error: the kaizen home could not be opened: " + why.message());
  }
  std::string found;
  bool exists = false;
  if (uri.starts_with(kUriPrefix)) {
    const std::string_view path = uri.substr(kUriPrefix.size());
    live->Read([&](const learn::Learner& learner, int64_t now_ms) {
      for (const render::RenderedFile& f : render::RenderAll(learner, now_ms)) {
        if (f.path != path) continue;
        exists = true;
        found = fmt::format(R"({{"contents":[{{"uri":{},"mimeType":{},"text":{}}}]}})", Quoted(uri),
                            Quoted(MimeType(f.path)), Quoted(f.content));
      }
    });
  }
  if (!exists) {
    return ErrorResponse(r.id, kInvalidParams,
                         fmt::format("Resource not found: {}; resources/list names the resources",
                                     model::QuoteForMessage(uri)),
                         R"({"uri":)" + Quoted(uri) + "}");
  }
  return ResultResponse(r.id, found);
}

int McpServer::Serve(int in_fd, int out_fd) {
  LineReader reader(in_fd, options_.max_line_bytes);
  std::string line;
  int code = kExitOk;
  for (;;) {
    size_t dropped = 0;
    const LineReader::Next next = reader.Read(&line, &dropped);
    if (next == LineReader::Next::kEof) break;
    if (next == LineReader::Next::kError) {
      fmt::print(stderr, "kaizen mcp: reading stdin failed: {}\n", std::strerror(errno));
      code = kExitSystem;
      break;
    }
    const std::string reply =
        next == LineReader::Next::kOversized ? Oversized(dropped) : HandleLine(line);
    if (!reply.empty() && !WriteAll(out_fd, reply + "\n")) {
      fmt::print(stderr, "kaizen mcp: writing stdout failed: {}\n", std::strerror(errno));
      code = kExitSystem;
      break;
    }
  }
  Status s = Finish();
  if (code == kExitOk && !s.ok()) {
    code = s.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitSystem;
  }
  return code;
}

}  // namespace kaizen::serve
