// JSON-RPC 2.0 framing for `kaizen mcp` (https://www.jsonrpc.org/specification): one line in, its
// requests (or the error each broken one earns) out. Pure: no I/O, so it is fuzzed
// (fuzz/jsonrpc_fuzz.cc) and unit-tested on strings.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kaizen::serve::jsonrpc {

inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

// One well-formed request or notification.
struct Request {
  std::string id;  // the id as JSON text (a string literal or an integer); empty: a notification
  std::string method;
  std::string params;  // the params object or array as JSON text; empty when absent
  bool notification() const { return id.empty(); }
};

// One member of a line: a request, or the error response a broken message earns (already
// serialized), or nothing at all (a client's response to a request: kaizen sends none, so they
// are dropped).
struct Message {
  std::optional<Request> request;
  std::string error;  // a serialized error response when the message is not a valid request
};

struct Line {
  bool batch = false;             // the line was a JSON array
  std::vector<Message> messages;  // in order; one unless batch
  // Set when the line is not JSON at all, or is an empty batch: the one response to send.
  std::string error;
};

// Parses one line (without its newline). Never fails: every problem becomes an error response
// with the id when one could be read, null otherwise. Rules: a request is an object with
// "jsonrpc": "2.0", a string "method", an optional id that is a string or an integer (MCP: never
// null), and optional params that are an object or an array; an object with "result" or "error"
// and no "method" is a response.
Line ParseLine(std::string_view line);

// `{"jsonrpc":"2.0","id":ID,"result":RESULT}`. REQUIRES: id and result are JSON text.
std::string ResultResponse(std::string_view id, std::string_view result);
// `{"jsonrpc":"2.0","id":ID|null,"error":{"code":C,"message":M[,"data":DATA]}}`; an empty id is
// written as null, an empty data is left out.
std::string ErrorResponse(std::string_view id, int code, std::string_view message,
                          std::string_view data = {});

}  // namespace kaizen::serve::jsonrpc
