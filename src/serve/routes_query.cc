#include "serve/routes_query.h"

#include <fmt/format.h>

#include <charconv>

#include "base/hex.h"

namespace kaizen::serve {
namespace {

std::string Joined(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

}  // namespace

std::string DecodeUrl(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const int hi = c == '%' && i + 2 < text.size() ? base::HexValue(text[i + 1]) : -1;
    const int lo = hi >= 0 ? base::HexValue(text[i + 2]) : -1;
    if (lo >= 0) {
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(plus_is_space && c == '+' ? ' ' : c);
    }
  }
  return out;
}

QueryParams ParseQueryString(std::string_view query) {
  QueryParams params;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    std::string_view value;
    if (eq != std::string_view::npos) value = pair.substr(eq + 1);
    params.emplace(DecodeUrl(pair.substr(0, eq), true), DecodeUrl(value, true));
  }
  return params;
}

const std::string* Param(const QueryParams& params, const std::string& name) {
  auto it = params.find(name);
  return it == params.end() ? nullptr : &it->second;
}

std::optional<ingest::FieldError> ParseIntParam(const QueryParams& params, const std::string& name,
                                                int64_t lo, int64_t hi, int64_t* out) {
  const std::string* v = Param(params, name);
  if (v == nullptr) return std::nullopt;
  int64_t n = 0;
  const char* end = v->data() + v->size();
  auto [ptr, ec] = std::from_chars(v->data(), end, n);
  if (v->empty() || ec != std::errc() || ptr != end || n < lo || n > hi) {
    return ingest::FieldError{"query." + name,
                              fmt::format("\"{}\" is not a whole number in {}..{}", *v, lo, hi)};
  }
  *out = n;
  return std::nullopt;
}

std::vector<ingest::FieldError> CheckParams(const QueryParams& params,
                                            const std::vector<std::string_view>& allowed) {
  std::vector<ingest::FieldError> errors;
  for (auto it = params.begin(); it != params.end(); it = params.upper_bound(it->first)) {
    const std::string path = "query." + it->first;
    bool known = false;
    for (std::string_view a : allowed) known = known || a == it->first;
    if (!known) {
      errors.push_back({path, allowed.empty()
                                  ? std::string("this route takes no query parameters")
                                  : fmt::format("unknown parameter; known: {}", Joined(allowed))});
    } else if (params.count(it->first) > 1) {
      errors.push_back({path, "given more than once"});
    }
  }
  return errors;
}

std::vector<ingest::FieldError> ParseFormat(const QueryParams& params, bool* markdown) {
  *markdown = false;
  const std::string* f = Param(params, "format");
  if (f == nullptr || *f == "json") return {};
  if (*f == "md") {
    *markdown = true;
    return {};
  }
  return {{"query.format", fmt::format("\"{}\" is not json or md", *f)}};
}

std::vector<ingest::FieldError> ParseContextParams(const QueryParams& params, ContextRequest* out) {
  std::vector<ingest::FieldError> errors = CheckParams(
      params, {"server_type", "type", "stage", "dimensions", "project", "budget", "format"});
  if (!errors.empty()) return errors;
  *out = ContextRequest{};
  if (const std::string* v = Param(params, "server_type")) out->query.server_type = *v;
  if (const std::string* v = Param(params, "type")) out->query.work_type = *v;
  if (const std::string* v = Param(params, "stage")) out->query.stage = *v;
  if (const std::string* v = Param(params, "project")) out->query.project = *v;
  if (const std::string* v = Param(params, "dimensions"); v != nullptr && !v->empty()) {
    if (Status s = render::ParseDimensions(*v, &out->query.dimensions); !s.ok()) {
      errors.push_back({"query.dimensions", s.message()});
    }
  }
  if (const std::string* v = Param(params, "budget")) {
    int64_t budget = 0;
    const char* end = v->data() + v->size();
    auto [ptr, ec] = std::from_chars(v->data(), end, budget);
    if (v->empty() || ec != std::errc() || ptr != end || budget < 1 || budget > kMaxContextBudget) {
      errors.push_back({"query.budget", fmt::format("\"{}\" is not a whole number of tokens in "
                                                    "1..{}",
                                                    *v, kMaxContextBudget)});
    } else {
      out->budget = budget;
    }
  }
  std::vector<ingest::FieldError> format = ParseFormat(params, &out->markdown);
  errors.insert(errors.end(), format.begin(), format.end());
  return errors;
}

}  // namespace kaizen::serve
