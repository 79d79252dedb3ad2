// The on-disk layout of a kaizen home (docs/log-format.md is the spec page for this header).
//
//   <home>/.lock                        exclusive writer lock (flock)
//   <home>/feedback/raw/YYYY-MM-DD.jsonl the truth: one event per line, '\n'-terminated,
//                                        file chosen by the event's UTC day, append-only
//   <home>/feedback/recovered/           torn tails cut from raw files, kept for inspection
//   <home>/feedback/indexes/             derived: by-*.json, ingest.cache + ingest.watermark +
//   ingest.index <home>/feedback/aggregates/          derived: weekly/, monthly/, rolling-30d.json
//
// A raw line is complete only when its '\n' is on disk: a last line without one is a torn write
// from a crash and is cut away on the next open, never parsed as an event.
#pragma once

#include <string>
#include <string_view>

namespace kaizen::store {

inline constexpr std::string_view kLockFile = ".lock";
inline constexpr std::string_view kRawDir = "feedback/raw";
inline constexpr std::string_view kRecoveredDir = "feedback/recovered";
inline constexpr std::string_view kIndexDir = "feedback/indexes";
// The learned state's checkpoint (home/learned_checkpoint.h): derived, removed with the log it
// was folded from.
inline constexpr std::string_view kLearnedCheckpoint = "feedback/indexes/learned.ckpt";
inline constexpr std::string_view kAggregateDir = "feedback/aggregates";
inline constexpr std::string_view kRawSuffix = ".jsonl";

inline std::string PathIn(const std::string& home, std::string_view rel) {
  return home + "/" + std::string(rel);
}

// True for names like 2025-07-11.jsonl.
bool IsRawFileName(std::string_view name);

}  // namespace kaizen::store
