#include "store/token_registry.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <sodium.h>
#include <sys/stat.h>

#include <algorithm>

#include "base/hex.h"
#include "store/log_format.h"
#include "store/shared_log.h"

namespace kaizen::store {

std::string_view RoleName(Role role) {
  switch (role) {
    case Role::kReviewer:
      return "reviewer";
    case Role::kAgent:
      return "agent";
    case Role::kAdmin:
      return "admin";
  }
  return "reviewer";
}

std::optional<Role> ParseRole(std::string_view name) {
  if (name == "reviewer") return Role::kReviewer;
  if (name == "agent") return Role::kAgent;
  if (name == "admin") return Role::kAdmin;
  return std::nullopt;
}

std::string CheckTokenName(std::string_view name) {
  if (name.empty() || name.size() > 64) {
    return fmt::format("\"{}\" is {} characters; a token name has 1 to 64", name, name.size());
  }
  for (char ch : name) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '@' || ch == '-';
    if (!ok) {
      return fmt::format(
          "\"{}\" holds '{}'; a token name is letters, digits and . _ @ - (it becomes the "
          "reviewerId of its feedback)",
          name, ch);
    }
  }
  return {};
}

std::string RandomHex(size_t bytes) {
  static const int kSodiumReady = sodium_init();  // idempotent
  (void)kSodiumReady;
  std::vector<unsigned char> random(bytes);
  randombytes_buf(random.data(), random.size());
  return base::HexOf(random.data(), random.size());
}

std::string NewToken() { return "kz_" + RandomHex(32); }

std::string TokenHash(std::string_view token) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(token.data()), token.size());
  char hex[sizeof digest * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return hex;
}

Result<std::vector<TokenEntry>> TokenRegistry::List() {
  if (remote_ != nullptr) return remote_->ListTokens();
  const std::string path = PathIn(home_, kTokensFile);
  std::vector<TokenEntry> out;
  if (!fs_->Exists(path)) return out;
  KZ_ASSIGN_OR_RETURN(std::string text, fs_->ReadFrom(path, 0));
  simdjson::dom::parser parser;
  simdjson::dom::array tokens;
  if (parser.parse(text).get(tokens) != simdjson::SUCCESS) {
    return DataLoss(
        fmt::format("{} is not a JSON array of tokens; kaizen writes it (kaizen token "
                    "create), it is not edited by hand",
                    path));
  }
  for (simdjson::dom::element t : tokens) {
    TokenEntry e;
    std::string_view name, role, hash, created, revoked;
    if (t["name"].get(name) || t["role"].get(role) || t["hash"].get(hash) ||
        t["created"].get(created) || t["revoked"].get(revoked) || !ParseRole(role)) {
      return DataLoss(fmt::format("{}: an entry lacks name, role, hash, created or revoked", path));
    }
    e.name = name;
    e.role = *ParseRole(role);
    e.hash = hash;
    e.created = created;
    e.revoked = revoked;
    out.push_back(std::move(e));
  }
  return out;
}

Status TokenRegistry::Save(const std::vector<TokenEntry>& entries) {
  // Names are checked (CheckTokenName), hashes hex and times ISO 8601: nothing needs escaping.
  std::string text = "[\n";
  for (size_t i = 0; i < entries.size(); ++i) {
    const TokenEntry& e = entries[i];
    text += fmt::format(
        "  "
        "{{\"name\":\"{}\",\"role\":\"{}\",\"hash\":\"{}\",\"created\":\"{}\",\"revoked\":\"{}\"}}"
        "{}\n",
        e.name, RoleName(e.role), e.hash, e.created, e.revoked, i + 1 < entries.size() ? "," : "");
  }
  text += "]\n";
  const std::string path = PathIn(home_, kTokensFile);
  KZ_RETURN_IF_ERROR(fs_->CreateDirs(DirName(path)));
  KZ_RETURN_IF_ERROR(fs_->WriteFileAtomic(path, text, /*durable=*/true));
  ::chmod(path.c_str(), 0600);  // hashes only, but nobody else's business
  return Status::Ok();
}

Status TokenRegistry::Add(const TokenEntry& entry) {
  if (std::string why = CheckTokenName(entry.name); !why.empty()) return InvalidArgument(why);
  if (remote_ != nullptr) return remote_->AddToken(entry);
  KZ_RETURN_IF_ERROR(fs_->CreateDirs(home_));
  KZ_ASSIGN_OR_RETURN(auto lock, fs_->LockFile(PathIn(home_, kLockFile)));
  KZ_ASSIGN_OR_RETURN(std::vector<TokenEntry> entries, List());
  auto same = std::find_if(entries.begin(), entries.end(),
                           [&](const TokenEntry& e) { return e.name == entry.name; });
  if (same != entries.end() && same->revoked.empty()) {
    return AlreadyExists(
        fmt::format("a valid token is named \"{}\" already (kaizen token revoke {} first)",
                    entry.name, entry.name));
  }
  if (same != entries.end()) entries.erase(same);
  entries.push_back(entry);
  std::sort(entries.begin(), entries.end(),
            [](const TokenEntry& a, const TokenEntry& b) { return a.name < b.name; });
  return Save(entries);
}

Status TokenRegistry::Revoke(std::string_view name, std::string_view at) {
  if (remote_ != nullptr) return remote_->RevokeToken(name, at);
  KZ_RETURN_IF_ERROR(fs_->CreateDirs(home_));
  KZ_ASSIGN_OR_RETURN(auto lock, fs_->LockFile(PathIn(home_, kLockFile)));
  KZ_ASSIGN_OR_RETURN(std::vector<TokenEntry> entries, List());
  for (TokenEntry& e : entries) {
    if (e.name == name && e.revoked.empty()) {
      e.revoked = at;
      return Save(entries);
    }
  }
  return NotFound(fmt::format("no valid token is named \"{}\" (kaizen token list)", name));
}

}  // namespace kaizen::store
