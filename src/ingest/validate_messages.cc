// How values and parse failures are phrased in error messages, apart from the rules that find
// them: the HTTP routes, the MCP tools and the GitHub payload readers speak in the same words.
#include <fmt/format.h>
#include <simdjson.h>

#include <string>
#include <string_view>

#include "ingest/validate.h"
#include "model/json_access.h"
#include "model/limits.h"

namespace kaizen::ingest {

static std::string DescribeParseErrorCode(simdjson::error_code code);

std::string ShowValue(simdjson::dom::element v) {
  switch (v.type()) {
    case simdjson::dom::element_type::OBJECT:
      return "an object";
    case simdjson::dom::element_type::ARRAY:
      return "an array";
    case simdjson::dom::element_type::NULL_VALUE:
      return "null";
    case simdjson::dom::element_type::STRING:
      return model::QuoteForMessage(v.get_string().value());
    default:
      return simdjson::to_string(v);
  }
}

std::string DescribeParseError(simdjson::error_code code, std::string_view text) {
  std::string message = DescribeParseErrorCode(code);
  const bool non_finite =
      text.find("NaN") != std::string_view::npos || text.find("Infinity") != std::string_view::npos;
  if (non_finite && message.find("NaN") == std::string::npos) {
    message += " (NaN and Infinity are not JSON numbers)";
  }
  return message;
}

static std::string DescribeParseErrorCode(simdjson::error_code code) {
  switch (code) {
    case simdjson::DEPTH_ERROR:
      return fmt::format("is nested deeper than the limit of {} levels", model::kMaxDepth);
    case simdjson::UTF8_ERROR:
      return "is not valid UTF-8";
    case simdjson::CAPACITY:
      return fmt::format("is larger than the limit of {} bytes", model::kMaxEventBytes);
    case simdjson::NUMBER_ERROR:
      return "is not JSON: a number is malformed or out of range (NaN and Infinity are not JSON)";
    case simdjson::UNCLOSED_STRING:
      return "is not JSON: a string is not closed";
    case simdjson::EMPTY:
      return "is empty";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR:
      return "is not JSON: a bare word that is not true, false or null (NaN and Infinity are not "
             "JSON)";
    default:
      return fmt::format("is not JSON ({})", simdjson::error_message(code));
  }
}

}  // namespace kaizen::ingest
