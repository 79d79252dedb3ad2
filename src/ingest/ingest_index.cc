#include "ingest/ingest_index.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace kaizen::ingest {
namespace {

// 1: 32-byte entries, six tables.
constexpr char kMagic[16] = {'k', 'a', 'i', 'z', 'e',  'n',  '-',  'i',
                             'x', '-', 'v', '1', '\0', '\0', '\0', '\0'};

struct Header {
  char magic[16];
  uint64_t generation;
  uint64_t records;
  uint64_t learning_off;
  uint64_t counts[kIndexTables];
};
static_assert(sizeof(Header) == 88);
// Tables start 8-byte aligned right after the header.
static_assert(sizeof(Header) % alignof(IndexEntry) == 0);

}  // namespace

IngestIndex::~IngestIndex() {
  if (map_ != nullptr) munmap(map_, map_bytes_);
}

std::unique_ptr<IngestIndex> IngestIndex::Open(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<uint64_t>(st.st_size) < sizeof(Header)) {
    close(fd);
    return nullptr;
  }
  const auto size = static_cast<size_t>(st.st_size);
  void* map = mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);  // the mapping keeps the file
  if (map == MAP_FAILED) return nullptr;
  std::unique_ptr<IngestIndex> index(new IngestIndex());
  index->map_ = map;
  index->map_bytes_ = size;
  Header h;
  std::memcpy(&h, map, sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) return nullptr;
  uint64_t entries = 0;
  for (uint64_t n : h.counts) {
    if (n > size / sizeof(IndexEntry)) return nullptr;  // no overflow in the sum below
    entries += n;
  }
  if (size != sizeof(Header) + entries * sizeof(IndexEntry)) return nullptr;
  // Random access follows binary searches: no read-ahead of pages nobody asked for.
  madvise(map, size, MADV_RANDOM);
  const auto* at = reinterpret_cast<const IndexEntry*>(static_cast<const char*>(map) + sizeof h);
  for (size_t t = 0; t < kIndexTables; ++t) {
    index->tables_[t] = {at, static_cast<size_t>(h.counts[t])};
    at += h.counts[t];
  }
  index->generation_ = h.generation;
  index->records_ = h.records;
  index->learning_off_ = h.learning_off;
  return index;
}

std::string IngestIndex::Serialize(uint64_t generation, uint64_t records, uint64_t learning_off,
                                   const IndexTables& tables) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.generation = generation;
  h.records = records;
  h.learning_off = learning_off;
  size_t entries = 0;
  for (size_t t = 0; t < kIndexTables; ++t) {
    h.counts[t] = tables[t].size();
    entries += tables[t].size();
  }
  std::string out;
  out.reserve(sizeof h + entries * sizeof(IndexEntry));
  out.append(reinterpret_cast<const char*>(&h), sizeof h);
  for (const auto& table : tables) {
    out.append(reinterpret_cast<const char*>(table.data()), table.size() * sizeof(IndexEntry));
  }
  return out;
}

const IndexEntry* IngestIndex::Find(IndexTable table, uint64_t hi, uint64_t lo) const {
  const std::span<const IndexEntry> t = tables_[static_cast<size_t>(table)];
  const IndexEntry key{hi, lo};
  // Outside the table's range: no search. kaizen's own ids are UUIDv7, later than every id the
  // index holds, and catching up with the journal's tail looks each one up: at a million events
  // the searches' page faults on the mapped table were most of a `kaizen record`.
  if (t.empty() || t.back() < key || key < t.front()) return nullptr;
  auto it = std::lower_bound(t.begin(), t.end(), key);
  return it != t.end() && it->SameKey(key) ? &*it : nullptr;
}

}  // namespace kaizen::ingest
