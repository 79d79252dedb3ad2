// The people and agents who may write to a team's kaizen, each with a bearer token of their own
// (`kaizen token create --name NAME --role reviewer|agent|admin`). Only a token's hash is kept: the
// token itself is printed once, when it is made. The registry lives where the log lives: in the
// home (config/tokens.json, mode 0600) or, for a shared store, in its database (kaizen_tokens),
// so every server of a team knows every token and a revocation reaches them all.
//
// With no named token, kaizen serve keeps the single-token mode of one person (home/token.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"
#include "store/file_system.h"

namespace kaizen::store {

class SharedLog;

enum class Role { kReviewer, kAgent, kAdmin };
std::string_view RoleName(Role role);
std::optional<Role> ParseRole(std::string_view name);

struct TokenEntry {
  std::string name;  // a reviewer's becomes the reviewerId of their feedback
  Role role = Role::kReviewer;
  std::string hash;     // SHA-256 of the token, hex
  std::string created;  // ISO 8601
  std::string revoked;  // ISO 8601; empty while the token is valid
};

inline constexpr std::string_view kTokensFile = "config/tokens.json";

// A name kaizen accepts: 1-64 of letters, digits and . _ @ - (it is a reviewerId in events).
// Empty when valid, else why not.
std::string CheckTokenName(std::string_view name);

// `bytes` random bytes (libsodium's CSPRNG) as lowercase hex.
std::string RandomHex(size_t bytes);
// A fresh token (kz_ and 64 hex digits of 32 random bytes) and the hash the registry keeps.
std::string NewToken();
std::string TokenHash(std::string_view token);

class TokenRegistry {
 public:
  // The home's file, or the store's table when `remote` is set. REQUIRES: *fs and *remote
  // outlive the registry; one registry per thread (a SharedLog is).
  TokenRegistry(std::string home, FileSystem* fs, SharedLog* remote)
      : home_(std::move(home)), fs_(fs), remote_(remote) {}

  // Every token ever made, revoked ones too, by name.
  Result<std::vector<TokenEntry>> List();
  // AlreadyExists when a valid token has that name (revoke it first). A revoked name is reused.
  Status Add(const TokenEntry& entry);
  // NotFound when no valid token has that name.
  Status Revoke(std::string_view name, std::string_view at);

 private:
  Status Save(const std::vector<TokenEntry>& entries);

  std::string home_;
  FileSystem* fs_;
  SharedLog* remote_;
};

}  // namespace kaizen::store
