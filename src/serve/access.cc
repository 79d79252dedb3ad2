#include "serve/access.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <sodium.h>

#include "store/file_system.h"

namespace kaizen::serve {
namespace {

// The token in an Authorization header ("Bearer <token>", scheme case-insensitive); empty when
// there is none.
std::string_view BearerOf(std::string_view authorization) {
  constexpr std::string_view kScheme = "bearer ";
  if (authorization.size() < kScheme.size()) return {};
  for (size_t i = 0; i < kScheme.size(); ++i) {
    const char c = authorization[i];
    if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != kScheme[i]) return {};
  }
  std::string_view given = authorization.substr(kScheme.size());
  while (!given.empty() && given.front() == ' ') given.remove_prefix(1);
  while (!given.empty() && given.back() == ' ') given.remove_suffix(1);
  return given;
}

// Gives the event the token's name as its reviewerId (REQUIRES: it has none). The name needs no
// escaping (store::CheckTokenName).
void FillReviewer(const std::string& name, std::string* line) {
  const size_t brace = line->find('{');
  line->insert(brace + 1, fmt::format("\"reviewerId\":\"{}\",", name));
  if (line->compare(brace + 1 + name.size() + 16, 1, "}") == 0) {
    line->erase(brace + 1 + name.size() + 15, 1);  // it was {}: no trailing comma
  }
}

}  // namespace

Authenticator::Authenticator(std::string home_token, std::string home, std::string store)
    : home_token_(std::move(home_token)), home_(std::move(home)), store_(std::move(store)) {}

Authenticator::~Authenticator() = default;

Status Authenticator::Reload() {
  if (!store_.empty() && pg_ == nullptr) {
    KZ_ASSIGN_OR_RETURN(pg_, store::OpenSharedLog(store_));
  }
  store::TokenRegistry registry(home_, store::DefaultFileSystem(), pg_.get());
  KZ_ASSIGN_OR_RETURN(std::vector<store::TokenEntry> all, registry.List());
  entries_.clear();
  for (store::TokenEntry& e : all) {
    if (e.revoked.empty()) entries_.push_back(std::move(e));
  }
  return Status::Ok();
}

Authenticator::Outcome Authenticator::Check(std::string_view authorization) {
  Outcome out;
  const std::string_view given = BearerOf(authorization);
  if (given.empty()) return out;
  if (home::CheckBearer(authorization, home_token_) == home::TokenCheck::kOk) {
    out.check = home::TokenCheck::kOk;
    return out;  // the home's own token: an admin's
  }
  out.check = home::TokenCheck::kWrong;
  const std::string hash = store::TokenHash(given);
  std::lock_guard<std::mutex> l(mu_);
  const auto now = std::chrono::steady_clock::now();
  if (!ever_read_ || now - read_ >= std::chrono::seconds(1)) {
    // A registry that cannot be read keeps the last one read (a store briefly away must not lock
    // everyone out); never read, it admits only the home's token.
    if (Reload().ok()) {
      ever_read_ = true;
      read_ = now;
    }
  }
  for (const store::TokenEntry& e : entries_) {
    // Equal-length hex digests: sodium_memcmp's time does not depend on where they differ.
    if (e.hash.size() == hash.size() &&
        sodium_memcmp(e.hash.data(), hash.data(), hash.size()) == 0) {
      out.check = home::TokenCheck::kOk;
      out.who.name = e.name;
      out.who.role = e.role;
      return out;
    }
  }
  return out;
}

std::string Admit(const Principal& who, std::optional<model::EventKind> kind, std::string* line) {
  if (who.role == store::Role::kAdmin) return {};
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  if (parser.parse(*line).get(e) != simdjson::SUCCESS || !e.is_object()) return {};
  if (!kind) {
    std::string_view k;
    if (e["kind"].get(k) != simdjson::SUCCESS) return {};
    kind = model::ParseKind(k);
    if (!kind) return {};
  }
  const std::string_view role = store::RoleName(who.role);
  if (*kind == model::EventKind::kAdmin) {
    std::string_view action;
    (void)e["action"].get(action);
    if (action == "submit") return {};
    if (who.role == store::Role::kReviewer && action == "dismiss") return {};
    if (who.role == store::Role::kReviewer && (action == "reserve" || action == "release")) {
      std::string_view holder;
      if (e["reviewerId"].get(holder) != simdjson::SUCCESS) {
        FillReviewer(who.name, line);
        return {};
      }
      if (holder == who.name) return {};
      return fmt::format("the {} token \"{}\" may {} work only for itself, not for \"{}\"", role,
                         who.name, action, holder);
    }
    if (who.role == store::Role::kReviewer && action == "consent") {
      std::string_view user;
      if (e["user_id"].get(user) == simdjson::SUCCESS && user == who.name) return {};
      return fmt::format("the {} token \"{}\" may set only its own consent (user_id \"{}\")", role,
                         who.name, who.name);
    }
    return fmt::format("an admin {} event needs an admin token; \"{}\" is a {}'s",
                       action.empty() ? "(no action)" : action, who.name, role);
  }
  if (*kind != model::EventKind::kFeedback) return {};
  if (who.role == store::Role::kAgent) {
    return fmt::format(
        "the agent token \"{}\" cannot write feedback: a review is a person's "
        "(give the reviewer a reviewer token)",
        who.name);
  }
  std::string_view reviewer;
  if (e["reviewerId"].get(reviewer) == simdjson::SUCCESS) {
    if (reviewer == who.name) return {};
    return fmt::format(
        "reviewerId \"{}\" is not the token's name \"{}\": a reviewer's token "
        "writes only their own feedback",
        reviewer, who.name);
  }
  FillReviewer(who.name, line);  // absent: the review is the token's
  return {};
}

std::string AdmitLines(const Principal& who, std::string* jsonl) {
  if (who.role == store::Role::kAdmin) return {};
  std::string out;
  out.reserve(jsonl->size() + 64);
  size_t start = 0, number = 0;
  while (start < jsonl->size()) {
    size_t end = jsonl->find('\n', start);
    if (end == std::string::npos) end = jsonl->size();
    std::string line = jsonl->substr(start, end - start);
    ++number;
    if (line.find_first_not_of(" \t\r") != std::string::npos) {
      if (std::string why = Admit(who, std::nullopt, &line); !why.empty()) {
        return fmt::format("line {}: {}", number, why);
      }
    }
    out += line;
    out.push_back('\n');
    start = end + 1;
  }
  *jsonl = std::move(out);
  return {};
}

}  // namespace kaizen::serve
