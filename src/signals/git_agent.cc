#include "signals/git_agent.h"

#include <re2/re2.h>

#include "model/json_access.h"

namespace kaizen::signals {
namespace {

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char a = s[i], b = prefix[i];
    if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
    if (a != b) return false;
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

std::vector<std::string> CoAuthors(std::string_view message) {
  constexpr std::string_view kKey = "co-authored-by:";
  std::vector<std::string> out;
  while (!message.empty()) {
    size_t end = message.find('\n');
    std::string_view line = Trim(message.substr(0, end));
    message = end == std::string_view::npos ? std::string_view() : message.substr(end + 1);
    if (StartsWithNoCase(line, kKey)) {
      std::string_view value = Trim(line.substr(kKey.size()));
      if (!value.empty()) out.emplace_back(value);
    }
  }
  return out;
}

Result<AgentMatcher> AgentMatcher::Create(std::string_view pattern) {
  RE2::Options options;
  options.set_case_sensitive(false);
  options.set_log_errors(false);
  auto re =
      std::make_shared<const re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  if (!re->ok()) {
    return InvalidArgument("--agent " + model::QuoteForMessage(pattern) +
                           " is not a valid RE2 regular expression: " + re->error());
  }
  return AgentMatcher(std::move(re));
}

std::optional<std::string> AgentMatcher::Match(std::string_view author_name,
                                               std::string_view author_email,
                                               std::string_view message) const {
  std::string author = std::string(author_name) + " <" + std::string(author_email) + ">";
  if (RE2::PartialMatch(author, *re_)) return author;
  for (std::string& co : CoAuthors(message)) {
    if (RE2::PartialMatch(co, *re_)) return co;
  }
  return std::nullopt;
}

bool AgentMatcher::Matches(std::string_view text) const {
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

}  // namespace kaizen::signals
