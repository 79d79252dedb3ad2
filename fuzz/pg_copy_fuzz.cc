// libFuzzer target for the rows a PostgreSQL store sends (store/pg/pg_log.h ParseCopyTuple: COPY's
// binary format, one tuple a chunk). The bytes come from a server, so they are not trusted:
// nothing may crash, leak or read out of bounds, and an accepted tuple's five fields are views
// inside the input whose lengths, with their 4-byte length words and the 2-byte field count, add
// up to the whole input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "store/pg/pg_log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* begin = reinterpret_cast<const char*>(data);
  const char* end = begin + size;
  kaizen::store::StoredRow row;
  if (!kaizen::store::ParseCopyTuple(begin, end, &row)) return 0;
  size_t total = 2 + 5 * 4 + 8;  // the count, five lengths, the 8-byte seq
  for (std::string_view f : {row.xid, row.id, row.day, row.body}) {
    if (f.data() < begin || f.data() + f.size() > end) std::abort();
    total += f.size();
  }
  if (total != size) std::abort();
  return 0;
}
