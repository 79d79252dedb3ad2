// Rewriting stored day files, the one exception to "append-only": retention (`kaizen compact`)
// and deletion (`kaizen forget`) replace a day file by a version with less in it. Each rewrite is
// atomic (temporary file, fsync, rename, fsync of the directory), so a reader or a crash sees the
// old file or the new one, never a mix.
#pragma once

#include <string>
#include <string_view>

#include "kaizen/status.h"
#include "store/file/raw_log.h"

namespace kaizen::store {

// REQUIRES: the writer lock is held; `file` is a name ListRawFiles returned (hot or cold); every
// line of `content` ends in '\n'. An empty `content` removes the file.
Status RewriteDayFile(RawLog& log, const std::string& file, std::string_view content);

// Moves the hot day file `file` (YYYY-MM-DD.jsonl) into the cold archive with `content` as its
// lines (the caller may have compacted them). When the day already has a cold file, the lines are
// appended to it, except lines it already holds byte for byte: a crash between writing the cold
// file and removing the hot one leaves both, and the next move completes without duplicating.
// The cold file is written and made durable before the hot one is removed.
// REQUIRES: the writer lock is held; every line of `content` ends in '\n'.
Status MoveDayFileToCold(RawLog& log, const std::string& file, std::string_view content);

}  // namespace kaizen::store
