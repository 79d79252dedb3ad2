// libFuzzer target for what `kaizen serve` reads from a request before any work: the query
// parameters of GET /v1/context (and the other GET routes) and the Authorization header. The
// bytes are a query string (ParseQueryString: split on '&' and '=', percent-decoded), and the
// whole input is also an Authorization header. Nothing may crash, leak or hang, and:
//   - decoding never makes a text longer, and leaves one without '%' or '+' as it is;
//   - a parameter set is either accepted (no errors) or every error names a `query.` path;
//   - an accepted budget is in 1..kMaxContextBudget, an accepted windowDays in 1..366;
//   - CheckBearer accepts the header only when it is "Bearer <expected>" (modulo spaces/case).
// Links kaizen_cli (src/serve/routes_query.cc, token.cc live there), not only kaizen_core.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "home/token.h"
#include "serve/routes_query.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace kaizen::serve;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const QueryParams params = ParseQueryString(input);
  // Decoding never grows the text, and a text without '%' or '+' decodes to itself.
  for (bool plus : {false, true}) {
    const std::string decoded = DecodeUrl(input, plus);
    if (decoded.size() > input.size()) std::abort();
    if (input.find_first_of("%+") == std::string_view::npos && decoded != input) std::abort();
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

  const kaizen::home::TokenCheck check = kaizen::home::CheckBearer(input, "0123456789abcdef");
  if (check == kaizen::home::TokenCheck::kOk &&
      input.find("0123456789abcdef") == std::string_view::npos) {
    std::abort();
  }
  return 0;
}
