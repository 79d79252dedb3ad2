// The ingest state of the journal's first N records as sorted tables in one immutable file
// (feedback/indexes/ingest.index), read through a mapping: a process that records one event looks
// up the few keys it needs (a binary search each) instead of loading every stored id. The records
// after N are loaded into memory as before; once they pass IngestCache's threshold a new file is
// written (the old tables merged with them) and renamed over the old one, so a reader sees the old
// or the new file, never a mix. Derived like the journal: missing, of another version or
// generation, or damaged (its size does not match its header), it is ignored and rewritten.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::ingest {

// One row of a table: a 128-bit key and two words whose meaning depends on the table.
struct IndexEntry {
  uint64_t hi = 0, lo = 0;
  uint64_t a = 0, b = 0;
  bool operator<(const IndexEntry& o) const { return hi != o.hi ? hi < o.hi : lo < o.lo; }
  bool SameKey(const IndexEntry& o) const { return hi == o.hi && lo == o.lo; }
};
static_assert(sizeof(IndexEntry) == 32, "the index file format depends on this size");

enum class IndexTable : uint8_t {
  kIds,            // event id (its 16 bytes) -> a: kind
  kModalSessions,  // (modalId, sessionId) key
  kArtifacts,      // artifact key -> a: the latest version's prediction (double bits; NaN: none)
  kVersions,       // (artifact, version) key -> a: its prediction, as above
  kSessions,       // hi: session hash -> a: reviews in the session
  kConsent,        // user key -> a: the change's time (unix ms), b: 1 when learning is off
};
inline constexpr size_t kIndexTables = 6;
using IndexTables = std::array<std::vector<IndexEntry>, kIndexTables>;

class IngestIndex {
 public:
  // The index at `path` when it is there and whole; nullptr when it is missing, of another format
  // version, or its size disagrees with its header (then it is rewritten, never trusted).
  static std::unique_ptr<IngestIndex> Open(const std::string& path);
  ~IngestIndex();
  IngestIndex(const IngestIndex&) = delete;
  IngestIndex& operator=(const IngestIndex&) = delete;

  // The file's bytes for tables already sorted by key with no key twice (REQUIRES).
  static std::string Serialize(uint64_t generation, uint64_t records, uint64_t learning_off,
                               const IndexTables& tables);

  // The entry with key (hi, lo), or nullptr.
  const IndexEntry* Find(IndexTable table, uint64_t hi, uint64_t lo) const;
  std::span<const IndexEntry> Table(IndexTable table) const {
    return tables_[static_cast<size_t>(table)];
  }
  // The journal generation the tables were built from, and how many of its records they hold.
  uint64_t generation() const { return generation_; }
  uint64_t records() const { return records_; }
  // Users whose latest consent switched learning off.
  uint64_t learning_off() const { return learning_off_; }

 private:
  IngestIndex() = default;

  void* map_ = nullptr;
  size_t map_bytes_ = 0;
  uint64_t generation_ = 0, records_ = 0, learning_off_ = 0;
  std::array<std::span<const IndexEntry>, kIndexTables> tables_;
};

}  // namespace kaizen::ingest
