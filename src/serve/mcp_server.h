// `kaizen mcp`: a Model Context Protocol server over stdio (MCP base protocol, lifecycle, tools
// and resources). JSON-RPC 2.0, one message per line; stdout carries only protocol messages.
//
//   initialize        answers at once (the home is opened in the background; tool calls and
//                     resource reads wait for it). The client's protocolVersion when supported
//                     (kProtocolVersions), else the latest. Capabilities: tools, resources.
//   before initialize only ping (and notifications) are served; other requests get -32600.
//   tools/list        the 14 tools of serve/tools.h with their inputSchema.
//   tools/call        a tool error (bad arguments, a refused event) is a result with isError and
//                     the field errors in the text and in structuredContent; an unknown tool is
//                     -32602; a system failure -32603.
//   resources/list, resources/read
//                     every file `kaizen render` writes (memory files, prompt artifacts), rendered
//                     from the live learner, as kaizen://<path under the home>. An unknown URI is
//                     -32602 (SEP-2164), its uri in the error's data.
//   batches           only in protocol version 2025-03-26, the one revision that had them; else
//                     the whole batch gets one -32600.
//   a line over max_line_bytes (4 MiB) is dropped as it is read and answered with -32600.
//   EOF on stdin: every acknowledged write is durable (LiveState::Shutdown), exit 0.
#pragma once

#include <array>
#include <cstddef>
#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "kaizen/status.h"
#include "serve/json_rpc.h"
#include "serve/live_state.h"
#include "serve/tools.h"

namespace kaizen::serve {

// Newest first.
inline constexpr std::array<std::string_view, 4> kProtocolVersions = {"2025-11-25", "2025-06-18",
                                                                      "2025-03-26", "2024-11-05"};
inline constexpr size_t kMaxMcpLineBytes = 4 << 20;

struct McpOptions {
  LiveOptions live;
  size_t max_line_bytes = kMaxMcpLineBytes;
};

class McpServer {
 public:
  // Starts opening the home in the background.
  explicit McpServer(McpOptions options);
  ~McpServer();  // Finish(), then joins the opener
  McpServer(const McpServer&) = delete;
  McpServer& operator=(const McpServer&) = delete;

  // Answers lines from in_fd on out_fd until EOF, then Finish(). Returns the exit code
  // (cli/commands.h): 0 at EOF; 3 when stdin or stdout failed; 2 or 3 when the home could not be
  // opened (a bad config; the I/O failed), after serving the session with errors.
  int Serve(int in_fd, int out_fd);

  // One line in (without its newline), the reply out: one JSON-RPC message or a batch array, or
  // empty when nothing is owed (notifications, responses).
  std::string HandleLine(std::string_view line);
  // The reply to a line of `bytes` bytes dropped for being over the cap.
  std::string Oversized(size_t bytes) const;

  // Waits for the opener, then for every queued write to be durable. Idempotent.
  Status Finish();

 private:
  // The reply to one request, or empty for a notification.
  std::string Handle(const jsonrpc::Request& r);
  std::string Initialize(const jsonrpc::Request& r);
  std::string ToolsList(const jsonrpc::Request& r);
  std::string ToolsCall(const jsonrpc::Request& r);
  std::string ResourcesList(const jsonrpc::Request& r);
  std::string ResourcesRead(const jsonrpc::Request& r);
  // The live state, once open; nullptr with *why set when it could not be opened.
  LiveState* Live(Status* why);

  McpOptions options_;
  std::thread opener_;
  std::promise<void> opened_promise_;
  std::shared_future<void> opened_;
  std::unique_ptr<LiveState> live_;  // set by the opener before opened_ is ready
  Status open_status_;
  std::unique_ptr<Tools> tools_;
  bool initialized_ = false;
  std::string version_;  // negotiated
  bool finished_ = false;
};

}  // namespace kaizen::serve
