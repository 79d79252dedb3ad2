// libFuzzer target for the JSON-RPC framing of `kaizen mcp` (serve/json_rpc.h): the bytes are one
// line from the client. Nothing may crash, leak or hang, and:
//   - every reply kaizen would send is one JSON object with "jsonrpc":"2.0", an id that is null,
//     a string or an integer, and an error with a JSON-RPC code and a message;
//   - every request read has a method, an id that reads back as a string or an integer, and
//     params (when given) that read back as an object or an array;
//   - a tool's argument checker (serve/tool_args.h) run on those params, against an event's
//     schema, returns errors with paths and messages, never a crash.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "serve/json_rpc.h"
#include "serve/tool_args.h"

namespace {

using namespace kaizen;

void CheckReply(simdjson::dom::parser& parser, const std::string& reply) {
  simdjson::dom::object o;
  if (parser.parse(reply).get_object().get(o) != simdjson::SUCCESS) std::abort();
  std::string_view version;
  if (o["jsonrpc"].get_string().get(version) != simdjson::SUCCESS || version != "2.0") {
    std::abort();
  }
  simdjson::dom::element id;
  if (o["id"].get(id) != simdjson::SUCCESS) std::abort();
  if (!id.is_null() && !id.is_string() && !id.is_int64() && !id.is_uint64()) std::abort();
  int64_t code;
  std::string_view message;
  if (o["error"]["code"].get_int64().get(code) != simdjson::SUCCESS) std::abort();
  if (code != serve::jsonrpc::kParseError && code != serve::jsonrpc::kInvalidRequest) {
    std::abort();
  }
  if (o["error"]["message"].get_string().get(message) != simdjson::SUCCESS || message.empty()) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static simdjson::dom::parser parser;
  const serve::jsonrpc::Line line = serve::jsonrpc::ParseLine(text);
  if (!line.error.empty()) {
    if (!line.messages.empty()) std::abort();
    CheckReply(parser, line.error);
    return 0;
  }
  if (line.messages.empty()) std::abort();
  if (!line.batch && line.messages.size() != 1) std::abort();
  for (const serve::jsonrpc::Message& m : line.messages) {
    if (!m.error.empty()) {
      if (m.request) std::abort();
      CheckReply(parser, m.error);
      continue;
    }
    if (!m.request) continue;  // a client's response: dropped
    const serve::jsonrpc::Request& r = *m.request;
    if (!r.id.empty()) {
      simdjson::dom::element id;
      if (parser.parse(r.id).get(id) != simdjson::SUCCESS) std::abort();
      if (!id.is_string() && !id.is_int64() && !id.is_uint64()) std::abort();
    }
    if (!r.params.empty()) {
      simdjson::dom::parser params_parser;
      simdjson::dom::element params;
      if (params_parser.parse(r.params).get(params) != simdjson::SUCCESS) std::abort();
      if (!params.is_object() && !params.is_array()) std::abort();
      for (const auto& e :
           serve::CheckArguments(params, model::SchemaFor(model::EventKind::kFeedback))) {
        if (e.path.empty() || e.message.empty()) std::abort();
      }
    }
    // A reply to it is well formed too.
    CheckReply(parser, serve::jsonrpc::ErrorResponse(r.id, serve::jsonrpc::kInvalidRequest,
                                                     r.method.empty() ? "x" : r.method));
  }
  return 0;
}
