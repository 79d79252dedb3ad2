// The bearer token that guards every write of `kaizen serve`: KAIZEN_TOKEN when set, else the one
// in <home>/config/token, created on first start (32 random bytes, hex, mode 0600). Reads need no
// token: the server listens on loopback by default and reads reveal what the agent reads anyway.
#pragma once

#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::home {

inline constexpr std::string_view kTokenFile = "config/token";
inline constexpr size_t kTokenRandomBytes = 32;

struct BearerToken {
  std::string value;
  std::string path;      // the file it came from (empty: KAIZEN_TOKEN)
  bool created = false;  // this call created the file: the caller prints it, once
};

// `env_token` is the value of KAIZEN_TOKEN (nullptr or empty: unset). Creating the file is atomic
// and race-free (written beside it with mode 0600, then linked into place: a concurrent first start
// reads the winner's token). InvalidArgument for a token file that is empty or readable by group
// or others (it names the path, the mode and the fix); IoError when the home cannot be written.
Result<BearerToken> LoadOrCreateToken(const std::string& home, const char* env_token);

// The same token, never created: NotFound when KAIZEN_TOKEN is unset and the home has no token
// file (a client of the home's server, home/serve_client.h). The same errors otherwise.
Result<BearerToken> LoadToken(const std::string& home, const char* env_token);

enum class TokenCheck { kOk, kMissing, kWrong };

// Checks an Authorization header ("Bearer <token>", scheme case-insensitive) against `expected`
// in constant time (both sides hashed, then sodium_memcmp): neither the content nor the length of
// the token leaks through timing. An empty header or another scheme is kMissing.
TokenCheck CheckBearer(std::string_view authorization, std::string_view expected);

}  // namespace kaizen::home
