// Documented caps on input (docs/log-format.md "Limits"). Anything larger is refused with an error
// that names the cap, never truncated silently.
#pragma once

#include <cstddef>

namespace kaizen::model {

inline constexpr size_t kMaxEventBytes = 1 << 20;    // one event (one JSONL line) as received
inline constexpr size_t kMaxStringBytes = 64 << 10;  // any one string value
inline constexpr size_t kMaxDepth = 16;              // nesting of objects and arrays
inline constexpr size_t kMaxArrayItems = 10000;      // elements of any one array
inline constexpr size_t kMaxIdentifierBytes = 256;   // ids, names, enum-like strings

// A stored line is the received event plus what ingest adds (free-text analysis, computed meta),
// so readers of the log accept more than writers receive. Ingest refuses an event whose stored
// form would exceed this, so every stored line can be read back.
inline constexpr size_t kMaxStoredEventBytes = 4 << 20;
inline constexpr size_t kMaxActionableItems = 100;  // freeText._actionableItems kept per event

// What one refused event's report holds: at most this many errors (then one that counts the rest),
// and of a longer key in a field path its first bytes and "[...]". An event of 20,000 duplicate
// keys under a 500 KB key made 10 GB of messages before.
inline constexpr size_t kMaxErrorsListed = 100;
inline constexpr size_t kMaxKeyShown = 60;
static_assert(kMaxStoredEventBytes >= 2 * kMaxEventBytes, "room for enrichment");

}  // namespace kaizen::model
