// What `POST /v1/webhooks/github` needs beyond the mapping (signals/github_events.h): the webhook
// secret and GitHub's signature check. GitHub cannot send kaizen's bearer token; the signature,
// an HMAC of the exact body with a secret only GitHub and this server know, stands in for it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::serve {

inline constexpr std::string_view kGithubSecretFile = "config/github-secret";

struct GithubSecret {
  std::string value;
  std::string path;  // the file it came from (empty: KAIZEN_GITHUB_SECRET)
};

// `env_secret` is KAIZEN_GITHUB_SECRET (nullptr or empty: unset), else <home>/config/github-secret
// with its trailing newline removed (the rest of the secret is kept byte for byte: GitHub signs
// with exactly what was typed into its form). nullopt: no secret configured. InvalidArgument for a
// file that is empty or readable by group or others (it names the path, the mode and the fix);
// IoError when it cannot be read.
Result<std::optional<GithubSecret>> LoadGithubSecret(const std::string& home,
                                                     const char* env_secret);

// Whether `header` (X-Hub-Signature-256) is "sha256=" followed by the lower- or upper-case hex
// HMAC-SHA256 of `body` under `secret`. The comparison is constant-time (sodium_memcmp on the
// decoded digests); a missing, malformed or short header is false.
bool GithubSignatureValid(std::string_view body, std::string_view header, std::string_view secret);

// The header GitHub would send for `body` (tests, and `kaizen github ingest` needs none).
std::string GithubSignature(std::string_view body, std::string_view secret);

}  // namespace kaizen::serve
