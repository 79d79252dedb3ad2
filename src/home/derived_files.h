#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "ingest/derived.h"
#include "kaizen/status.h"
#include "store/file/raw_log.h"

namespace kaizen::home {

// A stored line that is not a readable event: file:line and why.
struct BadLine {
  std::string file;
  uint64_t line;
  std::string why;
};

// Calls `fn` for every stored event in log order (files by day, lines in order); lines that do
// not parse are passed to `bad`. REQUIRES: the writer lock is held, or torn tails may be seen.
Status ScanLog(store::RawLog& log,
               const std::function<void(simdjson::dom::element, std::string_view text,
                                        std::string_view file, uint64_t line)>& fn,
               const std::function<void(const BadLine&)>& bad);

// Rewrites every derived index and aggregate from the raw log; removes derived files the log no
// longer produces. Returns the builder for summaries.
Status RebuildDerived(store::RawLog& log, ingest::DerivedBuilder* builder, uint64_t* files_written);

// Marks derived files stale after an append; RebuildDerived clears the mark.
Status MarkDerivedStale(store::RawLog& log);
bool DerivedAreStale(store::RawLog& log);

}  // namespace kaizen::home
