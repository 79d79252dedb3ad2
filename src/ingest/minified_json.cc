#include "ingest/minified_json.h"

#include <cstdint>
#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace kaizen::ingest {
namespace {

// The first index at or after `from` whose byte is one of `set` (at most 5 bytes), or json.size().
// 16 bytes at a time with SSE2 (every x86-64 has it): an event is mostly strings, and this skips
// through them instead of stepping byte by byte.
template <size_t N>
size_t FindAny(std::string_view json, size_t from, const char (&set)[N]) {
  static_assert(N >= 2 && N <= 6, "1 to 5 bytes, plus the terminating NUL");
  const size_t n = json.size();
  const char* p = json.data();
#ifdef __SSE2__
  __m128i wanted[N - 1];
  for (size_t k = 0; k + 1 < N; ++k) wanted[k] = _mm_set1_epi8(set[k]);
  for (; from + 16 <= n; from += 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + from));
    __m128i hit = _mm_cmpeq_epi8(block, wanted[0]);
    for (size_t k = 1; k + 1 < N; ++k) hit = _mm_or_si128(hit, _mm_cmpeq_epi8(block, wanted[k]));
    const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask != 0) return from + static_cast<size_t>(__builtin_ctz(mask));
  }
#endif
  for (; from < n; ++from) {
    if (std::memchr(set, p[from], N - 1) != nullptr) return from;
  }
  return n;
}

// Past the closing quote of the string whose opening quote is at `at`.
size_t StringEnd(std::string_view json, size_t at) {
  size_t i = at + 1;
  for (;;) {
    i = FindAny(json, i, "\"\\");
    if (i >= json.size()) return json.size();
    if (json[i] == '"') return i + 1;
    i += 2;  // a backslash and the byte it escapes
  }
}

}  // namespace

size_t MinifiedValueEnd(std::string_view json, size_t at) {
  if (at >= json.size()) return json.size();
  const char first = json[at];
  if (first == '"') return StringEnd(json, at);
  if (first == '{' || first == '[') {
    size_t depth = 0;
    for (size_t i = at; i < json.size();) {
      i = FindAny(json, i, "\"{}[]");
      if (i >= json.size()) break;
      const char c = json[i];
      if (c == '"') {
        i = StringEnd(json, i);
        continue;
      }
      if (c == '{' || c == '[') {
        ++depth;
      } else if (--depth == 0) {
        return i + 1;
      }
      ++i;
    }
    return json.size();
  }
  // A number, true, false or null: up to the next separator.
  return FindAny(json, at, ",}]");
}

}  // namespace kaizen::ingest
