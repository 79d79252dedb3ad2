// What the stateful checks and enrichments of one new event need to know about the whole log:
// which ids, (modalId, sessionId) pairs and artifacts exist, the agent's predictions, and how many
// reviews each session has had. It is derived from the raw log, cached on disk as an append-only
// journal of fixed-size records (feedback/indexes/ingest.cache) with a watermark of the raw bytes
// it covers (ingest.watermark), so opening a home with a million events does not re-read them.
// It also holds the consent state (seed 004 "User Consent": learning mode on or off per user),
// derived from `admin` consent events like everything else, so it survives restarts.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <simdjson.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ingest/ingest_index.h"
#include "kaizen/status.h"
#include "model/event_kind.h"
#include "model/uuid.h"
#include "store/file/raw_log.h"

namespace kaizen::ingest {

struct Key128 {
  uint64_t hi = 0, lo = 0;
  bool operator==(const Key128&) const = default;
  bool empty() const { return hi == 0 && lo == 0; }
};
struct Key128Hash {
  size_t operator()(const Key128& k) const {
    return static_cast<size_t>(k.hi ^ (k.lo * 0x9E3779B97F4A7C15ull));
  }
};
// SipHash-2-4 with a 128-bit output (libsodium's siphashx24) of `a` NUL `b`: equal keys mean
// equal inputs, since a chance collision in 128 bits is not a practical concern. The key is fixed
// and not secret (the cache must read the same across processes and builds), so the hash does not
// stop a writer who sets out to craft a collision; the log trusts its writers anyway, and the
// most such a collision could do is have that writer's own event refused as a duplicate or
// given another artifact's prediction. BLAKE2b-128 before: 0.35-0.5 us a key here, against
// 0.07 us, with two or three keys an event.
Key128 HashKey(std::string_view a, std::string_view b = {});
uint64_t HashSession(std::string_view session_id);
// The consent state's key for a user id, the same for the id and its Pseudonym (consent events
// store the pseudonym).
Key128 UserKey(std::string_view user_id);

// One stored event's contribution to the state. 80 bytes on disk in host byte order (the cache
// is rebuilt, never migrated).
struct CacheRecord {
  uint8_t kind = 0;
  uint8_t flags = 0;  // kHasPrediction; kConsent, kLearningOff
  uint16_t reserved = 0;
  uint32_t reserved2 = 0;
  double prediction = 0;  // work: bubaScorePrediction, exact so deltas do not depend on the path
  uint8_t id[16] = {};
  Key128 key_a;          // feedback: (modalId, sessionId); work: artifact id; consent: UserKey
  Key128 key_b;          // work: (artifact id, version)
  uint64_t session = 0;  // feedback: HashSession(sessionId); consent: the timestamp (unix ms)
  uint64_t checksum = 0;
  static constexpr uint8_t kHasPrediction = 1;
  static constexpr uint8_t kConsent = 2;      // an admin consent event
  static constexpr uint8_t kLearningOff = 4;  // ... with learning_mode false
};
static_assert(sizeof(CacheRecord) == 80, "the cache file format depends on this size");

// The record for a stored event; nullopt if it has no valid kind or id. At ingest the input event
// is passed with the kind and id it will be stored with.
std::optional<CacheRecord> RecordOf(simdjson::dom::element event,
                                    const model::EventKind* kind_override = nullptr,
                                    const model::Uuid* id_override = nullptr);

class IngestState {
 public:
  std::optional<model::EventKind> KindOf(const model::Uuid& id) const;
  bool HasModalSession(const Key128& key) const {
    return modal_sessions_.count(key) != 0 || InBase(IndexTable::kModalSessions, key);
  }
  bool HasArtifact(const Key128& artifact) const {
    return artifacts_.count(artifact) != 0 || InBase(IndexTable::kArtifacts, artifact);
  }
  bool HasArtifactVersion(const Key128& v) const {
    return versions_.count(v) != 0 || InBase(IndexTable::kVersions, v);
  }
  // The agent's score prediction for the latest recorded version of an artifact, or a version.
  std::optional<double> Prediction(const Key128& artifact_or_version) const;
  uint32_t SessionReviews(uint64_t session) const;
  // False when the user's latest consent event (by timestamp; equal timestamps: the later in the
  // log) switched learning mode off. Users never asked are on: seed 004's opt-in is the door's
  // job (a consent event with learning_mode true), the log does not refuse what it was given.
  bool LearningOn(const Key128& user) const;
  bool AnyLearningOff() const { return learning_off_ != 0; }
  // Users whose latest consent switched learning off (the base's too).
  size_t learning_off() const { return learning_off_; }
  size_t event_count() const {
    return ids_.size() + (base_ ? base_->Table(IndexTable::kIds).size() : 0);
  }

  // Idempotent: a record whose id is known changes nothing. True when the id was new.
  bool Apply(const CacheRecord& record);
  // Apply for a journal record past the base, without looking its id up in the base: the journal
  // holds each id once (IngestCache appends only records new to the state) and the base holds a
  // prefix of it. At a million events the base's lookups of a 16k-record tail were most of a
  // `kaizen record`. True when the id was new to the records applied since the base.
  bool ApplyPastBase(const CacheRecord& record);
  // Makes room for `more` events, so a large import does not rehash a million entries repeatedly.
  void Reserve(size_t more);
  // Drops everything, the base too.
  void Clear();

  // Starts from `base` (the state of the journal's first base->records() records): the tables in
  // memory then hold only what was applied since. REQUIRES: the state is empty.
  void SetBase(std::shared_ptr<const IngestIndex> base);
  const IngestIndex* base() const { return base_.get(); }
  // Events applied since the base.
  size_t applied_since_base() const { return ids_.size(); }
  // The whole state (base and what was applied since) as the index's sorted tables.
  IndexTables Tables() const;

 private:
  bool InBase(IndexTable table, const Key128& key) const {
    return base_ && base_->Find(table, key.hi, key.lo) != nullptr;
  }
  // Only what was applied since the base: with one, the tables below are a delta over it (the
  // session counts are added to the base's; every other entry replaces the base's).
  std::shared_ptr<const IngestIndex> base_;
  // Open addressing (Abseil's Swiss tables), not std::unordered_map: `kaizen import` looks up and
  // inserts every event's id in order on one thread, and a node per entry made that the import's
  // longest serial step.
  absl::flat_hash_map<model::Uuid, uint8_t, model::UuidHash> ids_;
  absl::flat_hash_set<Key128, Key128Hash> modal_sessions_;
  absl::flat_hash_map<Key128, double, Key128Hash> artifacts_;  // NaN: no prediction
  absl::flat_hash_map<Key128, double, Key128Hash> versions_;
  absl::flat_hash_map<uint64_t, uint32_t> session_reviews_;
  struct Consent {
    int64_t at_ms = 0;
    bool off = false;
  };
  absl::flat_hash_map<Key128, Consent, Key128Hash> consent_;
  std::optional<Consent> ConsentOf(const Key128& user) const;
  size_t learning_off_ = 0;  // users whose consent is off (the base's too)
  size_t reserved_ = 0;      // ids_ holds this many without growing
};

// The on-disk cache of IngestState. Every method REQUIRES the home's writer lock.
class IngestCache {
 public:
  explicit IngestCache(store::RawLog* log) : log_(log) {}

  // Brings the state up to date with the raw log: applies journal records other processes wrote,
  // cuts torn tails, and scans raw bytes the journal does not cover yet (after a crash, or when
  // the cache was deleted). Lines that are not valid events are reported, never applied.
  Status CatchUp(std::vector<store::RecoveryNote>* notes);
  // Records events just appended durably; `appended` gives the bytes added per raw file.
  Status Commit(const std::vector<CacheRecord>& records,
                const std::map<std::string, uint64_t>& appended);
  // Writes the index (ingest_index.h) of everything caught up, when the records read past the
  // current one number kIndexTail or more (any number with `force`), and continues from it.
  // Derived: a failure leaves the state as it was.
  Status WriteIndex(bool force = false);
  // Deletes the cache files; the next CatchUp rebuilds from the raw log.
  Status Reset();

  // Journal records a process reads before the index is rewritten: at most 320 KB, so loading
  // them stays a small part of a one-event `kaizen record`. The rewrite is O(events), once per
  // kIndexTail events, so its cost per event recorded stays small (docs/performance.md, "Figures
  // behind the source's choices").
  static constexpr uint64_t kIndexTail = 4096;
  // Drops the in-memory state (after a batch failed to commit); the next CatchUp reloads it.
  void Forget();

  IngestState& state() { return state_; }

 private:
  Status ReadWatermark(uint64_t* generation, uint64_t* journal_bytes,
                       std::map<std::string, uint64_t>* covered, bool* found);
  Status WriteWatermark();
  Status AppendJournal(const std::vector<CacheRecord>& records);

  store::RawLog* log_;
  IngestState state_;
  // Changes whenever the cache is rebuilt (by any process): a rebuilt journal can have the same
  // size but another order, so offsets into the old one mean nothing.
  uint64_t generation_ = 0;
  uint64_t journal_applied_ = 0;             // bytes of the journal folded into state_
  std::map<std::string, uint64_t> covered_;  // raw file -> bytes the journal covers
};

}  // namespace kaizen::ingest
