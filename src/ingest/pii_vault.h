// The PII map (seed 004: "Store mapping separately with encryption"): which original value each
// token stands for, and the users and sessions it came from, so `kaizen forget` can delete them.
// Kept apart from the log, encrypted with libsodium:
//
//   <home>/keys/pii.key          32 random bytes (crypto_secretbox key), mode 0600, made on first
//   use <home>/private/pii-map.bin   "kaizen-pii-map 1\n"
//                                "next EMAIL=n PHONE=n SECRET=n NAME=n COMPANY=n\n"   (clear text)
//                                24-byte nonce, then crypto_secretbox_easy(JSON entries)
//
// The `next` line holds no PII, only how many tokens each category has handed out, so numbering
// stays unique even when the key is gone. Deleting pii.key makes every mapping unreadable for
// good (crypto-shredding): the next write starts an empty map under a new key, and the tokens
// already in the log can no longer be resolved. Every method REQUIRES the home's writer lock.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <absl/container/flat_hash_set.h>

#include "ingest/privacy.h"
#include "kaizen/status.h"

namespace kaizen::ingest {

inline constexpr std::string_view kPiiKeyFile = "keys/pii.key";
inline constexpr std::string_view kPiiMapFile = "private/pii-map.bin";

class PiiVault {
 public:
  struct Source {
    std::string user, session;  // either may be empty (an outcome has neither)
    bool operator==(const Source&) const = default;
  };
  struct Entry {
    PiiCategory category = PiiCategory::kEmail;
    uint64_t number = 0;
    std::string key;    // PiiMatch::key: what makes two occurrences the same value
    std::string value;  // the first spelling seen
    std::vector<Source> sources;
    std::string token() const { return PiiToken(category, number); }
  };

  // Reads the map of `home` (an empty vault when there is none). A map whose key file is gone is
  // read as empty, keeping its numbering. DataLoss when the file is damaged or the key does not
  // open it.
  static Result<PiiVault> Open(const std::string& home);

  // The token for a value: the same (category, key) always gets the same token; a new one gets
  // the next number of its category. Records `source` with the entry.
  std::string TokenFor(PiiCategory category, std::string_view key, std::string_view value,
                       const Source& source);
  // nullptr when the token is unknown (never handed out, forgotten, or its key deleted).
  const Entry* Find(std::string_view token) const;

  // Drops `user` (or `session`) from every entry's sources and deletes the entries left without
  // a source. Returns how many entries were deleted.
  size_t ForgetUser(std::string_view user);
  size_t ForgetSession(std::string_view session);

  // True when the map changed since Open or the last Save.
  bool dirty() const { return dirty_; }
  size_t size() const { return entries_.size(); }
  bool key_was_missing() const { return key_was_missing_; }

  // Writes the map atomically (temporary file, fsync, rename, fsync of the directory), mode 0600;
  // makes the key first when there is none.
  Status Save();

 private:
  size_t ForgetIf(const std::function<bool(const Source&)>& matches);
  void Index();

  std::string home_;
  std::vector<Entry> entries_;
  std::array<uint64_t, kPiiCategoryCount> next_{};  // numbers handed out so far, per category
  std::map<std::pair<PiiCategory, std::string>, size_t> by_key_;
  std::map<std::string, size_t, std::less<>> by_token_;
  // (entry, user, session) of every entry's sources: recording a source the entry has is one
  // lookup, not a scan of its sources, which is quadratic when one email appears in reviews from
  // many sessions (docs/performance.md, "Figures behind the source's choices"). Never iterated.
  absl::flat_hash_set<std::tuple<size_t, std::string, std::string>> sources_;
  bool dirty_ = false;
  bool key_was_missing_ = false;
};

}  // namespace kaizen::ingest
