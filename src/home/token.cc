#include "home/token.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include <fmt/format.h>

namespace kaizen::home {
namespace {

Status Errno(std::string_view what, const std::string& path) {
  return IoError(fmt::format("{} {}: {}", what, path, std::strerror(errno)));
}

// mkdir -p with mode 0700 for the directories it creates (the home holds reviewers' words).
Status MakeDirs(const std::string& dir) {
  std::string partial;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    partial = dir.substr(0, pos);
    if (partial.empty()) continue;
    if (::mkdir(partial.c_str(), 0700) != 0 && errno != EEXIST) return Errno("create", partial);
  }
  return Status::Ok();
}

std::string Trimmed(std::string s) {
  const char* ws = " \t\r\n";
  s.erase(s.find_last_not_of(ws) + 1);
  s.erase(0, s.find_first_not_of(ws) == std::string::npos ? s.size() : s.find_first_not_of(ws));
  return s;
}

Result<std::string> ReadTokenFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Errno("open", path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return Errno("stat", path);
  }
  if ((st.st_mode & 077) != 0) {
    ::close(fd);
    return InvalidArgument(fmt::format(
        "{}: mode {:04o} lets other users read the bearer token; it must be 0600 (chmod 600 {})",
        path, st.st_mode & 07777, path));
  }
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
  const bool failed = n < 0;
  ::close(fd);
  if (failed) return Errno("read", path);
  text = Trimmed(std::move(text));
  if (text.empty()) {
    return InvalidArgument(fmt::format(
        "{}: the bearer token file is empty; delete it to have a new one created", path));
  }
  return text;
}

// Writes a new token beside `path`, then links it into place: link() fails with EEXIST when a
// concurrent first start won, and nobody ever sees a half-written token file.
Result<bool> CreateTokenFile(const std::string& path, const std::string& token) {
  const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  ::unlink(tmp.c_str());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return Errno("create", tmp);
  const std::string line = token + "\n";
  const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) &&
                  ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) {
    Status s = Errno("write", tmp);
    ::unlink(tmp.c_str());
    return s;
  }
  const bool linked = ::link(tmp.c_str(), path.c_str()) == 0;
  const int link_errno = errno;
  ::unlink(tmp.c_str());
  if (!linked && link_errno != EEXIST) {
    errno = link_errno;
    return Errno("create", path);
  }
  if (linked) {
    const std::string dir = path.substr(0, path.rfind('/'));
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);  // the name is durable too: a restart finds the token it printed
      ::close(dfd);
    }
  }
  return linked;
}

}  // namespace

Result<BearerToken> LoadToken(const std::string& home, const char* env_token) {
  BearerToken out;
  if (env_token != nullptr && *env_token != '\0') {
    out.value = Trimmed(env_token);
    if (out.value.empty()) return InvalidArgument("KAIZEN_TOKEN: blank; unset it or give a token");
    return out;
  }
  out.path = home + "/" + std::string(kTokenFile);
  if (::access(out.path.c_str(), F_OK) != 0) return NotFound(out.path + ": no bearer token yet");
  KZ_ASSIGN_OR_RETURN(out.value, ReadTokenFile(out.path));
  return out;
}

Result<BearerToken> LoadOrCreateToken(const std::string& home, const char* env_token) {
  Result<BearerToken> found = LoadToken(home, env_token);
  if (found.ok() || found.status().code() != StatusCode::kNotFound) return found;
  BearerToken out;
  out.path = home + "/" + std::string(kTokenFile);
  KZ_RETURN_IF_ERROR(MakeDirs(out.path.substr(0, out.path.rfind('/'))));
  if (sodium_init() < 0) return Internal("libsodium failed to initialize");
  unsigned char bytes[kTokenRandomBytes];
  randombytes_buf(bytes, sizeof bytes);
  char hex[kTokenRandomBytes * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, bytes, sizeof bytes);
  // A concurrent first start may have won the link: read whichever token is in place.
  KZ_ASSIGN_OR_RETURN(out.created, CreateTokenFile(out.path, hex));
  KZ_ASSIGN_OR_RETURN(out.value, ReadTokenFile(out.path));
  return out;
}

TokenCheck CheckBearer(std::string_view authorization, std::string_view expected) {
  constexpr std::string_view kScheme = "bearer ";
  if (authorization.size() < kScheme.size()) return TokenCheck::kMissing;
  for (size_t i = 0; i < kScheme.size(); ++i) {
    const char c = authorization[i];
    if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != kScheme[i]) return TokenCheck::kMissing;
  }
  std::string_view given = authorization.substr(kScheme.size());
  while (!given.empty() && given.front() == ' ') given.remove_prefix(1);
  while (!given.empty() && given.back() == ' ') given.remove_suffix(1);
  if (given.empty()) return TokenCheck::kMissing;
  // Equal-length digests, so sodium_memcmp's time depends on neither token.
  unsigned char a[crypto_generichash_BYTES], b[crypto_generichash_BYTES];
  crypto_generichash(a, sizeof a, reinterpret_cast<const unsigned char*>(given.data()),
                     given.size(), nullptr, 0);
  crypto_generichash(b, sizeof b, reinterpret_cast<const unsigned char*>(expected.data()),
                     expected.size(), nullptr, 0);
  return sodium_memcmp(a, b, sizeof a) == 0 ? TokenCheck::kOk : TokenCheck::kWrong;
}

}  // namespace kaizen::home
