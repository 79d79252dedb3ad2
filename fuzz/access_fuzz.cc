// libFuzzer target for what a token's role lets it write (serve/access.h Admit, AdmitLines): the
// bodies of POST /v1/events and /v1/<kind>, any bytes. Nothing may crash, leak or hang, and:
//   - an admin is admitted and the body left as it was;
//   - a reviewer's admitted body differs from what was sent only by inserted reviewerId fields
//     naming the reviewer (it only grows, by that field a line at most);
//   - an agent's admitted body is the body sent, a newline added after a last line without one.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "serve/access.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using kaizen::serve::AdmitLines;
  using kaizen::serve::Principal;
  using kaizen::store::Role;
  const std::string sent(reinterpret_cast<const char*>(data), size);
  std::string body = sent;
  if (!AdmitLines(Principal{"root", Role::kAdmin}, &body).empty() || body != sent) std::abort();
  body = sent;
  if (AdmitLines(Principal{"ci", Role::kAgent}, &body).empty()) {
    std::string expected = sent;
    if (!expected.empty() && expected.back() != '\n') expected.push_back('\n');
    if (body != expected) std::abort();
  }
  body = sent;
  if (AdmitLines(Principal{"priya", Role::kReviewer}, &body).empty()) {
    const std::string field = "\"reviewerId\":\"priya\"";
    size_t lines = 1;
    for (char c : sent) lines += c == '\n';
    if (body.size() < sent.size() || body.size() > sent.size() + 1 + lines * (field.size() + 1)) {
      std::abort();
    }
  }
  return 0;
}
