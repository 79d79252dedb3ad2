#include "serve/json_rpc.h"

#include <simdjson.h>

#include "base/json_writer.h"
#include "model/json_access.h"

namespace kaizen::serve::jsonrpc {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// The message of an invalid request, with the id when it was readable.
Message Invalid(std::string_view id, std::string_view why) {
  Message m;
  m.error = ErrorResponse(id, kInvalidRequest, why);
  return m;
}

Message ParseMessage(element e) {
  simdjson::dom::object obj;
  if (e.get_object().get(obj) != simdjson::SUCCESS) {
    return Invalid({}, "Invalid Request: a message must be a JSON object");
  }
  // The id first, so that every later error can carry it.
  std::string id;
  element id_value;
  if (obj["id"].get(id_value) == simdjson::SUCCESS) {
    switch (id_value.type()) {
      case element_type::STRING:
      case element_type::INT64:
      case element_type::UINT64:
        id = simdjson::to_string(id_value);
        break;
      default:
        return Invalid({}, "Invalid Request: id must be a string or an integer, got " +
                               std::string(id_value.is_null() ? "null" : "another type"));
    }
  }
  std::string_view version;
  if (obj["jsonrpc"].get_string().get(version) != simdjson::SUCCESS || version != "2.0") {
    return Invalid(id, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
  }
  element method_value;
  if (obj["method"].get(method_value) != simdjson::SUCCESS) {
    element ignored;
    if (obj["result"].get(ignored) == simdjson::SUCCESS ||
        obj["error"].get(ignored) == simdjson::SUCCESS) {
      return Message{};  // a response: kaizen sends no requests, so nothing is waiting for it
    }
    return Invalid(id, "Invalid Request: \"method\" is missing");
  }
  std::string_view method;
  if (method_value.get_string().get(method) != simdjson::SUCCESS) {
    return Invalid(id, "Invalid Request: \"method\" must be a string");
  }
  Request r;
  r.id = std::move(id);
  r.method = std::string(method);
  element params;
  if (obj["params"].get(params) == simdjson::SUCCESS) {
    if (!params.is_object() && !params.is_array()) {
      return Invalid(r.id, "Invalid Request: \"params\" must be an object or an array");
    }
    r.params = simdjson::to_string(params);
  }
  Message m;
  m.request = std::move(r);
  return m;
}

}  // namespace

Line ParseLine(std::string_view text) {
  Line line;
  simdjson::dom::parser parser;
  simdjson::padded_string padded(text);
  element root;
  if (auto err = parser.parse(padded).get(root); err != simdjson::SUCCESS) {
    line.error =
        ErrorResponse({}, kParseError, std::string("Parse error: ") + simdjson::error_message(err));
    return line;
  }
  simdjson::dom::array batch;
  if (root.get_array().get(batch) == simdjson::SUCCESS) {
    line.batch = true;
    if (batch.size() == 0) {
      line.error = ErrorResponse({}, kInvalidRequest, "Invalid Request: an empty batch");
      return line;
    }
    for (element item : batch) line.messages.push_back(ParseMessage(item));
    return line;
  }
  line.messages.push_back(ParseMessage(root));
  return line;
}

std::string ResultResponse(std::string_view id, std::string_view result) {
  std::string out;
  out.reserve(result.size() + id.size() + 40);
  out += R"({"jsonrpc":"2.0","id":)";
  out += id;
  out += R"(,"result":)";
  out += result;
  out += '}';
  return out;
}

std::string ErrorResponse(std::string_view id, int code, std::string_view message,
                          std::string_view data) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "code");
  w.Int(code);
  base::Key(w, "message");
  base::Str(w, message);
  w.EndObject();
  std::string error = b.GetString();
  if (!data.empty()) {
    error.pop_back();
    error += R"(,"data":)";
    error += data;
    error += '}';
  }
  return std::string(R"({"jsonrpc":"2.0","id":)") + (id.empty() ? "null" : std::string(id)) +
         R"(,"error":)" + error + "}";
}

}  // namespace kaizen::serve::jsonrpc
