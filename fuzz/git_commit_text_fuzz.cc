// libFuzzer target for the commit text `kaizen git scan` reads: a commit message (its
// Co-authored-by trailers) and the author name and e-mail, all bytes a repository may hold. The
// first byte splits the input into name, e-mail and message. Nothing may crash or hang, and:
//   - every co-author CoAuthors returns is non-empty, trimmed, and one line of the message;
//   - AgentMatcher::Match returns the author's identity or one of the co-authors;
//   - GitSignalLabel keeps the signal_id within 256 bytes, with no control bytes;
//   - GitAgentNameEmail gives valid UTF-8 without control bytes, and the reward event built from
//     the identity and a repository name from the same bytes is JSON that simdjson (strict UTF-8)
//     reads, as ingest does.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "signals/git_agent.h"
#include "signals/git_reward.h"

namespace {

using namespace kaizen::signals;

const AgentMatcher& Matcher() {
  static const AgentMatcher m = AgentMatcher::Create(kDefaultAgentPattern).value();
  return m;
}

bool Printable(std::string_view s) {
  if (!simdjson::validate_utf8(s.data(), s.size())) return false;
  for (char ch : s) {
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t a = std::min<size_t>(in.size(), data[0] & 0x3F);
  const size_t b = std::min<size_t>(in.size() - a, (data[0] >> 6) * 16);
  std::string_view name = in.substr(0, a), email = in.substr(a, b), message = in.substr(a + b);

  for (const std::string& co : CoAuthors(message)) {
    if (co.empty() || co.find('\n') != std::string::npos) std::abort();
    if (co.front() == ' ' || co.back() == ' ') std::abort();
    if (message.find(co) == std::string_view::npos) std::abort();
  }
  if (auto who = Matcher().Match(name, email, message)) {
    std::string author = std::string(name) + " <" + std::string(email) + ">";
    bool co_author = false;
    for (const std::string& co : CoAuthors(message)) co_author = co_author || co == *who;
    if (*who != author && !co_author) std::abort();
  }

  GitSignal s;
  s.detector = GitDetector::kHumanEdit;
  s.shas = {std::string(40, 'a'), std::string(40, 'b')};
  s.agent_commit = s.shas.front();
  s.agent = std::string(name) + " <" + std::string(email) + ">";
  s.raw_json = "0.25";
  const std::string label = GitSignalLabel(s);
  if (label.size() > 256 || !Printable(label)) std::abort();
  auto [agent_name, agent_email] = GitAgentNameEmail(s.agent);
  if (!Printable(agent_name) || !Printable(agent_email)) std::abort();

  // The repository path is bytes too (a directory name); a merge signal also puts it in task_id.
  for (GitDetector d : {GitDetector::kHumanEdit, GitDetector::kMerge}) {
    s.detector = d;
    const std::string event = GitRewardEvent(s, message.substr(0, 300));
    static simdjson::dom::parser parser;
    simdjson::dom::element e;
    if (parser.parse(event).get(e) != simdjson::SUCCESS) std::abort();
  }
  return 0;
}
