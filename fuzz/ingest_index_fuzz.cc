// libFuzzer target for the ingest index file (ingest/ingest_index.h), which every process that
// records an event maps and trusts after checking its header. The input is the file's bytes.
// Nothing may crash, leak, hang or read outside the mapping, and:
//   - a file is opened only when its size is exactly what its header's counts say;
//   - a state over an opened index answers every lookup (found or not) without reading past it,
//     and applying the same record twice changes nothing the second time.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "ingest/ingest_index.h"
#include "ingest/ingest_state.h"

namespace {

using namespace kaizen;

const std::string& Path() {
  static const std::string path = [] {
    char dir[] = "/tmp/kaizen-index-fuzz-XXXXXX";
    if (mkdtemp(dir) == nullptr) std::abort();
    return std::string(dir) + "/ingest.index";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    std::ofstream out(Path(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  std::shared_ptr<const ingest::IngestIndex> index = ingest::IngestIndex::Open(Path());
  if (!index) return 0;
  size_t entries = 0;
  for (size_t t = 0; t < ingest::kIndexTables; ++t) {
    entries += index->Table(static_cast<ingest::IndexTable>(t)).size();
  }
  if (88 + entries * sizeof(ingest::IndexEntry) != size) std::abort();  // header + tables, exactly

  ingest::IngestState state;
  state.SetBase(index);
  // Keys taken from the input itself, so some lookups hit.
  for (size_t at = 0; at + 16 <= size; at += 24) {
    ingest::Key128 key;
    std::memcpy(&key.hi, data + at, 8);
    std::memcpy(&key.lo, data + at + 8, 8);
    model::Uuid id;
    std::memcpy(id.bytes.data(), data + at, 16);
    (void)state.KindOf(id);
    (void)state.HasModalSession(key);
    (void)state.HasArtifactVersion(key);
    (void)state.Prediction(key);
    (void)state.SessionReviews(key.hi);
    (void)state.LearningOn(key);
    ingest::CacheRecord r;
    std::memcpy(r.id, data + at, 16);
    r.kind = static_cast<uint8_t>(model::EventKind::kAdmin);
    r.flags = ingest::CacheRecord::kConsent;
    r.key_a = key;
    state.Apply(r);
    const bool on = state.LearningOn(key);
    const size_t count = state.event_count();
    state.Apply(r);  // idempotent over the base as in memory
    if (state.LearningOn(key) != on || state.event_count() != count) std::abort();
  }
  (void)state.Tables();
  return 0;
}
