#include "serve/github_webhook.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace kaizen::serve {
namespace {

constexpr std::string_view kPrefix = "sha256=";

void Hmac(std::string_view body, std::string_view secret,
          unsigned char (&out)[crypto_auth_hmacsha256_BYTES]) {
  // crypto_auth_hmacsha256 takes a fixed 32-byte key; GitHub's secret is any length, which
  // HMAC allows (a longer key is hashed first): the init/update/final form takes it as it is.
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, reinterpret_cast<const unsigned char*>(secret.data()),
                              secret.size());
  crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(body.data()),
                                body.size());
  crypto_auth_hmacsha256_final(&state, out);
}

}  // namespace

Result<std::optional<GithubSecret>> LoadGithubSecret(const std::string& home,
                                                     const char* env_secret) {
  if (env_secret != nullptr && *env_secret != '\0') {
    return std::optional<GithubSecret>(GithubSecret{env_secret, ""});
  }
  GithubSecret out;
  out.path = home + "/" + std::string(kGithubSecretFile);
  const int fd = ::open(out.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<GithubSecret>();
    return IoError(fmt::format("open {}: {}", out.path, std::strerror(errno)));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || (st.st_mode & 077) != 0) {
    const auto mode = st.st_mode & 07777;
    ::close(fd);
    return InvalidArgument(fmt::format(
        "{}: mode {:04o} lets other users read the GitHub webhook secret; it must be 0600 "
        "(chmod 600 {})",
        out.path, mode, out.path));
  }
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) out.value.append(buf, static_cast<size_t>(n));
  const bool failed = n < 0;
  ::close(fd);
  if (failed) return IoError(fmt::format("read {}: {}", out.path, std::strerror(errno)));
  // `echo SECRET > file` adds a newline that GitHub's form never had.
  if (!out.value.empty() && out.value.back() == '\n') out.value.pop_back();
  if (!out.value.empty() && out.value.back() == '\r') out.value.pop_back();
  if (out.value.empty()) {
    return InvalidArgument(fmt::format(
        "{}: the GitHub webhook secret file is empty; write the secret you gave GitHub into it",
        out.path));
  }
  return std::optional<GithubSecret>(std::move(out));
}

bool GithubSignatureValid(std::string_view body, std::string_view header, std::string_view secret) {
  if (header.substr(0, kPrefix.size()) != kPrefix) return false;
  const std::string_view hex = header.substr(kPrefix.size());
  unsigned char given[crypto_auth_hmacsha256_BYTES];
  size_t length = 0;
  const char* end = nullptr;
  if (hex.size() != 2 * sizeof given ||
      sodium_hex2bin(given, sizeof given, hex.data(), hex.size(), nullptr, &length, &end) != 0 ||
      length != sizeof given || end != hex.data() + hex.size()) {
    return false;
  }
  unsigned char expected[crypto_auth_hmacsha256_BYTES];
  Hmac(body, secret, expected);
  return sodium_memcmp(given, expected, sizeof given) == 0;
}

std::string GithubSignature(std::string_view body, std::string_view secret) {
  unsigned char mac[crypto_auth_hmacsha256_BYTES];
  Hmac(body, secret, mac);
  char hex[2 * sizeof mac + 1];
  sodium_bin2hex(hex, sizeof hex, mac, sizeof mac);
  return std::string(kPrefix) + hex;
}

}  // namespace kaizen::serve
