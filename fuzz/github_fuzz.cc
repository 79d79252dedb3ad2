// libFuzzer target for the GitHub mapping (signals/github_events.h), which reads bodies from the
// network (POST /v1/webhooks/github, once the signature checked out) and files (`kaizen github
// ingest`). The first byte picks the event and whether --repo/--pr stand in; the rest is the
// payload. Nothing may crash, leak or hang, and:
//   - a payload is either mapped or refused with a message that names a path ("field: rule");
//   - every event it maps is one line that passes the event schema as ingest checks it (so a
//     payload can never make the webhook store half a delivery because of its own bytes), with
//     the id the mapping reports;
//   - mapping the same payload again gives the same events (ids derive from the objects).
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "ingest/validate.h"
#include "signals/github_events.h"

namespace {

using namespace kaizen;

const signals::AgentMatcher& Agents() {
  // Matches the example payloads' author too, so the fuzzer reaches every mapping from them.
  static const signals::AgentMatcher m =
      signals::AgentMatcher::Create(std::string(signals::kDefaultAgentPattern) + "|codertocat")
          .value();
  return m;
}

constexpr std::string_view kEvents[] = {signals::kGithubPullRequest, signals::kGithubReview,
                                        signals::kGithubReviewComment, signals::kGithubPing};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view payload(reinterpret_cast<const char*>(data) + 1, size - 1);
  signals::GithubSource source;
  source.event = kEvents[data[0] & 3];
  if (data[0] & 4) {
    source.repo = "acme/shop";
    source.pr = 7;
  }
  auto mapped = signals::MapGithubPayload(payload, source, Agents());
  if (!mapped.ok()) {
    const std::string& m = mapped.status().message();
    if (m.find(": ") == std::string::npos || m.find(": ") == 0) std::abort();
    return 0;
  }
  auto again = signals::MapGithubPayload(payload, source, Agents());
  if (!again.ok() || again->events.size() != mapped->events.size()) std::abort();
  static simdjson::dom::parser parser;
  for (size_t i = 0; i < mapped->events.size(); ++i) {
    const signals::GithubEvent& e = mapped->events[i];
    if (e.json != again->events[i].json || e.json.find('\n') != std::string::npos) std::abort();
    simdjson::dom::element doc;
    if (parser.parse(e.json).get(doc) != simdjson::SUCCESS) std::abort();
    ingest::ValidateOptions options;
    options.now_ms = 253402300799999LL;  // any timestamp the mapping accepts is in the past
    options.max_future_ms = 0;
    ingest::EventFacts facts;
    const auto errors = ingest::ValidateEvent(doc, options, &facts);
    for (const auto& err : errors) {
      std::fprintf(stderr, "%s\n%s\n", e.json.c_str(), err.ToString().c_str());
    }
    if (!errors.empty()) std::abort();
    if (!facts.id || facts.id->ToString() != e.id) std::abort();
  }
  return 0;
}
