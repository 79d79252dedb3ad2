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

}  // namespace kaizen::model
