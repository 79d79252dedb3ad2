#include "ingest/pii_vault.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include "model/json_access.h"
#include "store/file_system.h"

namespace kaizen::ingest {
namespace {

constexpr std::string_view kMagic = "kaizen-pii-map 1\n";

Status Errno(std::string_view what, const std::string& path) {
  return IoError(fmt::format("{} {}: {}", what, path, std::strerror(errno)));
}

Status MakePrivateDir(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return Errno("cannot create", dir);
  return Status::Ok();
}

Status SyncDirOf(const std::string& path) {
  return store::DefaultFileSystem()->SyncDir(path.substr(0, path.rfind('/')));
}

// Writes `data` to `path` readable by the owner only: temporary file (0600), fdatasync, rename,
// fsync of the directory. A crash leaves the old file or the new one.
Status WritePrivateFileAtomic(const std::string& path, std::string_view data) {
  const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Errno("cannot create", tmp);
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Status s = Errno("cannot write", tmp);
      ::close(fd);
      ::unlink(tmp.c_str());
      return s;
    }
    done += static_cast<size_t>(n);
  }
  if (::fdatasync(fd) != 0) {
    Status s = Errno("cannot fsync", tmp);
    ::close(fd);
    ::unlink(tmp.c_str());
    return s;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    Status s = Errno("cannot rename onto", path);
    ::unlink(tmp.c_str());
    return s;
  }
  return SyncDirOf(path);
}

Result<std::string> ReadAll(const std::string& path) {
  return store::DefaultFileSystem()->ReadFrom(path, 0);
}

std::string EntriesJson(const std::vector<PiiVault::Entry>& entries) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  auto str = [&](std::string_view s) {
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  };
  w.StartArray();
  for (const auto& e : entries) {
    w.StartObject();
    w.Key("token");
    str(e.token());
    w.Key("key");
    str(e.key);
    w.Key("value");
    str(e.value);
    w.Key("sources");
    w.StartArray();
    for (const auto& s : e.sources) {
      w.StartArray();
      str(s.user);
      str(s.session);
      w.EndArray();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  return std::string(b.GetString(), b.GetSize());
}

// Parses "[NAME_12]".
bool ParseToken(std::string_view token, PiiCategory* category, uint64_t* number) {
  if (token.size() < 4 || token.front() != '[' || token.back() != ']') return false;
  size_t us = token.rfind('_');
  if (us == std::string_view::npos) return false;
  auto c = ParsePiiCategory(token.substr(1, us - 1));
  if (!c) return false;
  std::string_view digits = token.substr(us + 1, token.size() - us - 2);
  if (digits.empty() || digits.size() > 18) return false;
  uint64_t n = 0;
  for (char d : digits) {
    if (d < '0' || d > '9') return false;
    n = n * 10 + static_cast<uint64_t>(d - '0');
  }
  *category = *c;
  *number = n;
  return true;
}

}  // namespace

Result<PiiVault> PiiVault::Open(const std::string& home) {
  if (sodium_init() < 0) return Internal("libsodium failed to initialize");
  PiiVault v;
  v.home_ = home;
  const std::string map_path = home + "/" + std::string(kPiiMapFile);
  const std::string key_path = home + "/" + std::string(kPiiKeyFile);
  store::FileSystem* fs = store::DefaultFileSystem();
  if (!fs->Exists(map_path)) return v;
  KZ_ASSIGN_OR_RETURN(std::string data, ReadAll(map_path));
  auto damaged = [&](std::string_view why) {
    return DataLoss(
        fmt::format("{} is damaged ({}); remove it to start an empty PII map", map_path, why));
  };
  if (!std::string_view(data).starts_with(kMagic)) return damaged("no kaizen-pii-map header");
  size_t nl = data.find('\n', kMagic.size());
  if (nl == std::string::npos) return damaged("no `next` line");
  std::string_view next_line(data.data() + kMagic.size(), nl - kMagic.size());
  if (!next_line.starts_with("next")) return damaged("no `next` line");
  for (size_t pos = 4; pos < next_line.size();) {
    size_t end = next_line.find(' ', pos + 1);
    if (end == std::string_view::npos) end = next_line.size();
    std::string_view item = next_line.substr(pos + 1, end - pos - 1);
    size_t eq = item.find('=');
    auto c = eq == std::string_view::npos ? std::nullopt : ParsePiiCategory(item.substr(0, eq));
    if (!c) return damaged(fmt::format("bad counter {}", model::QuoteForMessage(item)));
    v.next_[static_cast<size_t>(*c)] =
        std::strtoull(std::string(item.substr(eq + 1)).c_str(), nullptr, 10);
    pos = end;
  }
  std::string_view box(data.data() + nl + 1, data.size() - nl - 1);
  if (box.size() < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES) {
    return damaged("too short");
  }
  if (!fs->Exists(key_path)) {
    // The key was deleted: the mappings are gone for good. Keep the numbering.
    v.key_was_missing_ = true;
    v.dirty_ = true;
    return v;
  }
  KZ_ASSIGN_OR_RETURN(std::string key, ReadAll(key_path));
  if (key.size() != crypto_secretbox_KEYBYTES) {
    return DataLoss(fmt::format("{} is not a {}-byte key", key_path, crypto_secretbox_KEYBYTES));
  }
  const size_t plain_size = box.size() - crypto_secretbox_NONCEBYTES - crypto_secretbox_MACBYTES;
  std::string plain(plain_size + simdjson::SIMDJSON_PADDING, '\0');
  const auto* nonce = reinterpret_cast<const unsigned char*>(box.data());
  if (crypto_secretbox_open_easy(
          reinterpret_cast<unsigned char*>(plain.data()),
          reinterpret_cast<const unsigned char*>(box.data()) + crypto_secretbox_NONCEBYTES,
          box.size() - crypto_secretbox_NONCEBYTES, nonce,
          reinterpret_cast<const unsigned char*>(key.data())) != 0) {
    sodium_memzero(key.data(), key.size());
    return DataLoss(fmt::format("{} cannot be decrypted with {} (damaged, or another key)",
                                map_path, key_path));
  }
  sodium_memzero(key.data(), key.size());
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(plain.data(), plain_size, false).get(doc) != simdjson::SUCCESS) {
    return damaged("the decrypted map is not JSON");
  }
  simdjson::dom::array items;
  if (doc.get_array().get(items) != simdjson::SUCCESS) return damaged("not a list of entries");
  for (simdjson::dom::element item : items) {
    Entry e;
    if (!ParseToken(model::StringAt(item, "token"), &e.category, &e.number)) {
      return damaged("an entry without a valid token");
    }
    e.key = model::StringAt(item, "key");
    e.value = model::StringAt(item, "value");
    simdjson::dom::array sources;
    if (item["sources"].get_array().get(sources) == simdjson::SUCCESS) {
      for (simdjson::dom::element s : sources) {
        simdjson::dom::array pair;
        if (s.get_array().get(pair) != simdjson::SUCCESS || pair.size() != 2) continue;
        std::string_view user, session;
        if (pair.at(0).get_string().get(user) != simdjson::SUCCESS ||
            pair.at(1).get_string().get(session) != simdjson::SUCCESS) {
          continue;
        }
        e.sources.push_back({std::string(user), std::string(session)});
      }
    }
    v.entries_.push_back(std::move(e));
  }
  sodium_memzero(plain.data(), plain.size());
  v.Index();
  return v;
}

void PiiVault::Index() {
  by_key_.clear();
  by_token_.clear();
  sources_.clear();
  for (size_t i = 0; i < entries_.size(); ++i) {
    by_key_[{entries_[i].category, entries_[i].key}] = i;
    by_token_[entries_[i].token()] = i;
    for (const Source& s : entries_[i].sources) sources_.emplace(i, s.user, s.session);
  }
}

std::string PiiVault::TokenFor(PiiCategory category, std::string_view key, std::string_view value,
                               const Source& source) {
  auto it = by_key_.find({category, std::string(key)});
  if (it != by_key_.end()) {
    Entry& e = entries_[it->second];
    if (sources_.emplace(it->second, source.user, source.session).second) {
      e.sources.push_back(source);
      dirty_ = true;
    }
    return e.token();
  }
  Entry e;
  e.category = category;
  e.number = ++next_[static_cast<size_t>(category)];
  e.key = std::string(key);
  e.value = std::string(value);
  e.sources.push_back(source);
  std::string token = e.token();
  by_key_[{category, e.key}] = entries_.size();
  by_token_[token] = entries_.size();
  sources_.emplace(entries_.size(), source.user, source.session);
  entries_.push_back(std::move(e));
  dirty_ = true;
  return token;
}

const PiiVault::Entry* PiiVault::Find(std::string_view token) const {
  auto it = by_token_.find(token);
  return it == by_token_.end() ? nullptr : &entries_[it->second];
}

size_t PiiVault::ForgetIf(const std::function<bool(const Source&)>& matches) {
  bool removed = false;
  for (Entry& e : entries_) removed |= std::erase_if(e.sources, matches) != 0;
  if (!removed) return 0;
  dirty_ = true;
  const size_t deleted = std::erase_if(entries_, [](const Entry& e) { return e.sources.empty(); });
  Index();
  return deleted;
}

size_t PiiVault::ForgetUser(std::string_view user) {
  return ForgetIf([&](const Source& s) { return s.user == user; });
}

size_t PiiVault::ForgetSession(std::string_view session) {
  return ForgetIf([&](const Source& s) { return s.session == session; });
}

Status PiiVault::Save() {
  if (!dirty_) return Status::Ok();
  const std::string key_path = home_ + "/" + std::string(kPiiKeyFile);
  const std::string map_path = home_ + "/" + std::string(kPiiMapFile);
  KZ_RETURN_IF_ERROR(store::DefaultFileSystem()->CreateDirs(home_));
  KZ_RETURN_IF_ERROR(MakePrivateDir(home_ + "/keys"));
  KZ_RETURN_IF_ERROR(MakePrivateDir(home_ + "/private"));
  std::string key;
  if (store::DefaultFileSystem()->Exists(key_path)) {
    KZ_ASSIGN_OR_RETURN(key, ReadAll(key_path));
    if (key.size() != crypto_secretbox_KEYBYTES) {
      return DataLoss(fmt::format("{} is not a {}-byte key", key_path, crypto_secretbox_KEYBYTES));
    }
  } else {
    key.resize(crypto_secretbox_KEYBYTES);
    crypto_secretbox_keygen(reinterpret_cast<unsigned char*>(key.data()));
    KZ_RETURN_IF_ERROR(WritePrivateFileAtomic(key_path, key));
  }
  std::string plain = EntriesJson(entries_);
  std::string out(kMagic);
  out += "next";
  for (size_t c = 0; c < next_.size(); ++c) {
    out += fmt::format(" {}={}", PiiCategoryName(static_cast<PiiCategory>(c)), next_[c]);
  }
  out += '\n';
  const size_t header = out.size();
  out.resize(header + crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + plain.size());
  auto* nonce = reinterpret_cast<unsigned char*>(out.data() + header);
  randombytes_buf(nonce, crypto_secretbox_NONCEBYTES);
  crypto_secretbox_easy(nonce + crypto_secretbox_NONCEBYTES,
                        reinterpret_cast<const unsigned char*>(plain.data()), plain.size(), nonce,
                        reinterpret_cast<const unsigned char*>(key.data()));
  sodium_memzero(plain.data(), plain.size());
  sodium_memzero(key.data(), key.size());
  KZ_RETURN_IF_ERROR(WritePrivateFileAtomic(map_path, out));
  dirty_ = false;
  key_was_missing_ = false;
  return Status::Ok();
}

}  // namespace kaizen::ingest
