// libFuzzer target for what `kaizen serve` reads from a request before any work: the query
// parameters of GET /v1/context (and the other GET routes) and the Authorization header. The
// bytes are split on '&' into name=value pairs (as httplib decodes them), and the whole input is
// also an Authorization header. Nothing may crash, leak or hang, and:
//   - a parameter set is either accepted (no errors) or every error names a `query.` path;
//   - an accepted budget is in 1..kMaxContextBudget, an accepted windowDays in 1..366;
//   - CheckBearer accepts the header only when it is "Bearer <expected>" (modulo spaces/case).
// Links kaizen_cli (src/serve/routes_query.cc, token.cc live there), not only kaizen_core.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "serve/routes_query.h"
#include "serve/token.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace kaizen::serve;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  QueryParams params;
  size_t start = 0;
  while (start <= input.size()) {
    size_t end = input.find('&', start);
    if (end == std::string_view::npos) end = input.size();
    const std::string_view pair = input.substr(start, end - start);
    const size_t eq = pair.find('=');
    params.emplace(std::string(pair.substr(0, eq)),
                   eq == std::string_view::npos ? std::string() : std::string(pair.substr(eq + 1)));
    start = end + 1;
  }
  ContextRequest request;
  const auto errors = ParseContextParams(params, &request);
  for (const auto& e : errors) {
    if (e.path.rfind("query.", 0) != 0 || e.message.empty()) std::abort();
  }
  if (errors.empty() && (request.budget < 0 || request.budget > kMaxContextBudget)) std::abort();
  bool markdown = false;
  (void)ParseFormat(params, &markdown);
  (void)CheckParams(params, {"format"});
  // The dashboard's window parameters: an accepted value lies in its range.
  int64_t window_days = 7;
  if (!ParseIntParam(params, "windowDays", 1, 366, &window_days) &&
      (window_days < 1 || window_days > 366)) {
    std::abort();
  }

  const TokenCheck check = CheckBearer(input, "0123456789abcdef");
  if (check == TokenCheck::kOk && input.find("0123456789abcdef") == std::string_view::npos) {
    std::abort();
  }
  return 0;
}
