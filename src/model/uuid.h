// UUIDs: parsing, formatting and version 7 generation (RFC 9562: 48-bit Unix milliseconds, then
// random bits), so ids sort by time.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace kaizen::model {

struct Uuid {
  std::array<uint8_t, 16> bytes{};
  bool operator==(const Uuid&) const = default;
  static constexpr size_t kTextSize = 36;
  std::string ToString() const;  // lowercase 8-4-4-4-12
  // The same text, written into `out` without an allocation; returns it.
  std::string_view ToChars(char (&out)[kTextSize]) const;
};

std::optional<Uuid> ParseUuid(std::string_view text);
// A v7 UUID for `unix_ms` with 74 random bits from `random16` (16 bytes, only 10 used).
Uuid MakeUuidV7(int64_t unix_ms, const uint8_t* random16);
// A v7 UUID for `unix_ms` with random bits from libsodium's CSPRNG.
Uuid NewUuidV7(int64_t unix_ms);

struct UuidHash {
  size_t operator()(const Uuid& u) const {
    uint64_t a, b;
    __builtin_memcpy(&a, u.bytes.data(), 8);
    __builtin_memcpy(&b, u.bytes.data() + 8, 8);
    return static_cast<size_t>(a * 0x9E3779B97F4A7C15ull ^ b);
  }
};

}  // namespace kaizen::model
