// Large appends written around the page cache (O_DIRECT). A buffered write of a bulk import's
// chunk makes the kernel allocate a page-cache page for every 4 KiB and copy the data into it: on
// the 2-core VM the import is measured on, that copy was a quarter of the import's CPU samples and
// varied from 0.2 to 2.5 s for 900 MB (fresh guest pages fault in the hypervisor first). Written
// directly, the bytes go from one reused buffer to the device and the fdatasync that follows has
// only metadata left to flush.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::store {

// Smaller appends (a server's batch, a `record`) stay buffered: for them the copy is cheap, and
// each direct append rewrites the file's last partial block.
inline constexpr size_t kDirectAppendMinBytes = 1 << 20;
// The file offsets and memory of direct writes are aligned to this: a page, and at least the
// logical block size of every common device.
inline constexpr size_t kDirectAlign = 4096;

// Appends a prefix of `data` at `*end`, the end of the file at `path`: the file's last partial
// block is read back and rewritten together with the data that completes it, then whole blocks
// follow, up to the last whole block. The caller appends the rest (`data` after `*consumed` bytes,
// less than a block) with an ordinary write, so no block is ever written twice in one append and
// nothing past the data is written. Advances `*end` by `*consumed`. Where direct I/O is not
// available (tmpfs before Linux 6.6, a file system or device that refuses the alignment), or a
// short write stops it, `*consumed` is what was written so far and the status is OK: the caller
// writes the rest. Any other write error is returned. REQUIRES: the caller holds whatever excludes
// other writers of the file, and `*end` is its size.
Status AppendDirect(const std::string& path, std::string_view data, uint64_t* end,
                    size_t* consumed);

}  // namespace kaizen::store
