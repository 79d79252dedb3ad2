#include "model/uuid.h"

#include <sodium.h>

#include "base/hex.h"

namespace kaizen::model {

std::string_view Uuid::ToChars(char (&out)[kTextSize]) const {
  static constexpr char kHex[] = "0123456789abcdef";
  size_t j = 0;
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out[j++] = '-';
    out[j++] = kHex[bytes[i] >> 4];
    out[j++] = kHex[bytes[i] & 15];
  }
  return std::string_view(out, sizeof out);
}

std::string Uuid::ToString() const {
  char out[kTextSize];
  return std::string(ToChars(out));
}

std::optional<Uuid> ParseUuid(std::string_view s) {
  if (s.size() != 36) return std::nullopt;
  Uuid u;
  size_t j = 0;
  for (size_t i = 0; i < 36; ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return std::nullopt;
      continue;
    }
    int hi = base::HexValue(s[i]), lo = base::HexValue(s[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    u.bytes[j++] = static_cast<uint8_t>(hi << 4 | lo);
    ++i;
  }
  return u;
}

Uuid MakeUuidV7(int64_t unix_ms, const uint8_t* random16) {
  Uuid u;
  uint64_t ms = static_cast<uint64_t>(unix_ms) & 0xFFFFFFFFFFFFull;
  for (int i = 0; i < 6; ++i) u.bytes[i] = static_cast<uint8_t>(ms >> (40 - 8 * i));
  for (int i = 6; i < 16; ++i) u.bytes[i] = random16[i];
  u.bytes[6] = static_cast<uint8_t>(0x70 | (u.bytes[6] & 0x0F));  // version 7
  u.bytes[8] = static_cast<uint8_t>(0x80 | (u.bytes[8] & 0x3F));  // variant 10
  return u;
}

Uuid NewUuidV7(int64_t unix_ms) {
  static const int kSodiumReady = sodium_init();  // idempotent; -1 only if no entropy source
  (void)kSodiumReady;
  uint8_t r[16];
  randombytes_buf(r, sizeof r);
  return MakeUuidV7(unix_ms, r);
}

}  // namespace kaizen::model
