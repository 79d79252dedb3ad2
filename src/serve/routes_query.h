// The query strings `kaizen serve` reads, checked before any work: an unknown or repeated
// parameter, or a bad value, is a 400 naming `query.<name>`, the value and the rule, so a typo
// (`serverType` for `server_type`) is reported instead of silently matching everything.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/validate.h"
#include "render/context.h"

namespace kaizen::serve {

using QueryParams = std::multimap<std::string, std::string>;

// A request target's percent-escapes decoded (%2F -> '/'); with `plus_is_space` also '+' -> ' '
// (the query string's form encoding, not the path's). A '%' not followed by two hex digits is
// kept as it is: the route or the parameter check then names the odd value.
std::string DecodeUrl(std::string_view text, bool plus_is_space);

// "a=1&b=x%20y&c" -> {a:1, b:"x y", c:""}: names and values decoded, empty pairs dropped, a name
// given twice kept twice (CheckParams reports it).
QueryParams ParseQueryString(std::string_view query);

// GET /v1/context?server_type=&type=&stage=&dimensions=a,b&budget=&format=json|md
struct ContextRequest {
  render::ContextQuery query;
  int64_t budget = 0;  // 0: memory.context_budget_tokens
  bool markdown = false;
};

inline constexpr int64_t kMaxContextBudget = 10'000'000;  // as `kaizen context --budget`

// Fills *out; returns one error per bad parameter (empty: all good).
std::vector<ingest::FieldError> ParseContextParams(const QueryParams& params, ContextRequest* out);

// The parameter's value, or nullptr when absent.
const std::string* Param(const QueryParams& params, const std::string& name);

// A whole number in lo..hi into *out (left alone when absent); else the error naming it.
std::optional<ingest::FieldError> ParseIntParam(const QueryParams& params, const std::string& name,
                                                int64_t lo, int64_t hi, int64_t* out);

// The errors for parameters not in `allowed`, and for any given more than once.
std::vector<ingest::FieldError> CheckParams(const QueryParams& params,
                                            const std::vector<std::string_view>& allowed);

// `format=json|md` (default json), for the GET routes that have a text rendering.
std::vector<ingest::FieldError> ParseFormat(const QueryParams& params, bool* markdown);

}  // namespace kaizen::serve
