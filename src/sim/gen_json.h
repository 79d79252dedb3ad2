// The JSON writer of `kaizen gen`, which writes every byte of the history. Header-only and inline:
// writing lines is most of the run time, and these calls must inline into the emitters.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string_view>

#include "base/json_escape.h"
#include "model/event_fields.h"
#include "model/timestamp.h"
#include "model/uuid.h"
#include "sim/gen_time.h"

namespace kaizen::sim::gen {

// ---- JSON ------------------------------------------------------------------------------------

// Copies a short piece with fixed-size moves: most pieces are a few bytes, and a call into libc's
// memcpy per piece costs more than the copy.
[[gnu::always_inline]] inline char* Copy(char* to, std::string_view s) {
  const char* from = s.data();
  size_t n = s.size();
  if (n > 64) {
    std::memcpy(to, from, n);
    return to + n;
  }
  for (; n >= 8; n -= 8, from += 8, to += 8) std::memcpy(to, from, 8);
  if (n >= 4) {
    std::memcpy(to, from, 4);
    std::memcpy(to + n - 4, from + n - 4, 4);
  } else if (n > 0) {
    to[0] = from[0];
    to[n / 2] = from[n / 2];
    to[n - 1] = from[n - 1];
  }
  return to + n;
}

// Writes through a raw pointer into a buffer that the generator keeps at least kMaxLineBytes
// ahead of the cursor, so no write checks capacity: a million events are several hundred MB, and
// per-character bounds checks or a DOM would dominate the run time. Every method works on a local
// copy of the cursor: a store through char* may alias any member, so writing through p_ directly
// would reload and store it around every byte.
class Json {
 public:
  void Reset(char* at) { p_ = at; }
  char* pos() const { return p_; }

  [[gnu::always_inline]] Json& Key(model::FieldName field) {
    const std::string_view k = field.view();
    char* p = p_;
    if (!first_[depth_]) *p++ = ',';
    first_[depth_] = false;
    after_key_ = true;
    *p++ = '"';
    p = Copy(p, k);
    p[0] = '"';
    p[1] = ':';
    p_ = p + 2;
    return *this;
  }
  [[gnu::always_inline]] void Object() { Open('{'); }
  [[gnu::always_inline]] void EndObject() { Close('}'); }
  [[gnu::always_inline]] void Array() { Open('['); }
  [[gnu::always_inline]] void EndArray() { Close(']'); }
  void Str(std::string_view s) {
    char* p = Value(p_);
    *p++ = '"';
    p = Escaped(p, s);
    *p++ = '"';
    p_ = p;
  }
  // A string from the generator's own tables (gen_world.h), which hold no character JSON must
  // escape: skipping the check is a good part of the cost of writing a line.
  [[gnu::always_inline]] void Lit(std::string_view s) {
    assert(!base::NeedsJsonEscaping(s));
    char* p = Value(p_);
    *p++ = '"';
    p = Copy(p, s);
    *p++ = '"';
    p_ = p;
  }
  // A string assembled from pieces: BeginStr(), then Esc/Raw/RawNum/RawHex..., then EndStr().
  [[gnu::always_inline]] void BeginStr() {
    char* p = Value(p_);
    *p++ = '"';
    p_ = p;
  }
  [[gnu::always_inline]] void EndStr() { *p_++ = '"'; }
  void Esc(std::string_view s) { p_ = Escaped(p_, s); }
  // REQUIRES: no '"', '\\' or control characters (slugs, digits, fixed words).
  [[gnu::always_inline]] void Raw(std::string_view s) { p_ = Copy(p_, s); }
  void Raw(std::initializer_list<std::string_view> parts) {
    char* p = p_;
    for (std::string_view s : parts) p = Copy(p, s);
    p_ = p;
  }
  // Decimal digits, zero-padded to `width`.
  void RawNum(uint64_t v, int width = 0) {
    char b[40];  // digits end at b[20]; a fixed 20-byte copy beats a variable one
    int n = 0;
    do {
      b[19 - n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    char* p = p_;
    for (int pad = width - n; pad > 0; --pad) *p++ = '0';
    std::memcpy(p, b + 20 - n, 20);
    p_ = p + n;
  }
  void RawHex(uint64_t v, int digits) { p_ = Hex(p_, v, digits); }
  void Int(int64_t v) {
    char* p = Value(p_);
    if (v < 0) {
      *p++ = '-';
      v = -v;
    }
    p_ = p;
    RawNum(static_cast<uint64_t>(v));
  }
  // Fixed-point with trailing zeros dropped: 0.850 -> 0.85, 7.0 -> 7. REQUIRES: |v| < 1e12.
  // (std::to_chars with a precision costs hundreds of instructions per number.)
  void Num(double v, int decimals) {
    static constexpr std::array<int64_t, 7> kScale = {1, 10, 100, 1000, 10000, 100000, 1000000};
    char* p = Value(p_);
    const double x = v * static_cast<double>(kScale[decimals]);
    int64_t scaled = static_cast<int64_t>(x < 0 ? x - 0.5 : x + 0.5);
    if (scaled < 0) {
      *p++ = '-';
      scaled = -scaled;
    }
    p_ = p;
    RawNum(static_cast<uint64_t>(scaled / kScale[decimals]));
    p = p_;
    int64_t frac = scaled % kScale[decimals];
    if (frac != 0) {
      int digits = decimals;
      while (frac % 10 == 0) {
        frac /= 10;
        --digits;
      }
      *p++ = '.';
      for (int i = digits - 1; i >= 0; --i, frac /= 10) p[i] = static_cast<char>('0' + frac % 10);
      p += digits;
    }
    p_ = p;
  }
  [[gnu::always_inline]] void Bool(bool v) {
    p_ = Copy(Value(p_), v ? std::string_view("true") : std::string_view("false"));
  }
  void Timestamp(int64_t unix_ms) {
    // Most consecutive events fall on the same day: reuse its calendar date.
    const int64_t day = unix_ms >= 0 ? unix_ms / kDay : (unix_ms - kDay + 1) / kDay;
    if (day != cached_day_) {
      const model::CivilTime c = model::ToCivil(day * kDay);
      std::memcpy(date_, "0000-00-00T", 11);
      Digits(date_, c.year, 4);
      Digits(date_ + 5, c.month, 2);
      Digits(date_ + 8, c.day, 2);
      cached_day_ = day;
    }
    const int64_t ms = unix_ms - day * kDay;
    char* p = Value(p_);
    *p++ = '"';
    std::memcpy(p, date_, 11);
    char* t = p + 11;
    std::memcpy(t, "00:00:00.000Z\"", 14);
    Digits(t, static_cast<int>(ms / kHour), 2);
    Digits(t + 3, static_cast<int>(ms / kMinute % 60), 2);
    Digits(t + 6, static_cast<int>(ms / kSecond % 60), 2);
    Digits(t + 9, static_cast<int>(ms % 1000), 3);
    p_ = t + 14;
  }
  void Uuid(const model::Uuid& u) {
    static constexpr auto kPairs = [] {
      std::array<char, 512> t{};
      constexpr char kHex[] = "0123456789abcdef";
      for (int i = 0; i < 256; ++i) {
        t[2 * i] = kHex[i >> 4];
        t[2 * i + 1] = kHex[i & 15];
      }
      return t;
    }();
    // "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx": byte i goes to kAt[i].
    static constexpr std::array<uint8_t, 16> kAt = {1,  3,  5,  7,  10, 12, 15, 17,
                                                    20, 22, 25, 27, 29, 31, 33, 35};
    char* p = Value(p_);
    std::memcpy(p, "\"------------------------------------\"", 38);
    for (size_t i = 0; i < 16; ++i) std::memcpy(p + kAt[i], &kPairs[2 * u.bytes[i]], 2);
    p_ = p + 38;
  }
  void EndLine() { *p_++ = '\n'; }

 private:
  static void Digits(char* at, int v, int n) {
    for (int i = n - 1; i >= 0; --i, v /= 10) at[i] = static_cast<char>('0' + v % 10);
  }
  static char* Hex(char* p, uint64_t v, int digits) {
    static constexpr char kHex[] = "0123456789abcdef";
    for (int i = digits - 1; i >= 0; --i) *p++ = kHex[(v >> (4 * i)) & 15];
    return p;
  }
  // The separator before a value: none after a key, a comma between array elements.
  [[gnu::always_inline]] char* Value(char* p) {
    if (after_key_) {
      after_key_ = false;
      return p;
    }
    if (depth_ > 0) {
      if (!first_[depth_]) *p++ = ',';
      first_[depth_] = false;
    }
    return p;
  }
  [[gnu::always_inline]] void Open(char c) {
    char* p = Value(p_);
    *p++ = c;
    p_ = p;
    first_[++depth_] = true;
  }
  [[gnu::always_inline]] void Close(char c) {
    *p_++ = c;
    --depth_;
  }
  static char* Escaped(char* p, std::string_view s) {
    if (!base::NeedsJsonEscaping(s)) return Copy(p, s);
    for (char ch : s) {
      const unsigned char c = static_cast<unsigned char>(ch);
      if (c >= 0x20 && c != '"' && c != '\\') {
        *p++ = ch;
        continue;
      }
      *p++ = '\\';
      switch (c) {
        case '"':
          *p++ = '"';
          break;
        case '\\':
          *p++ = '\\';
          break;
        case '\n':
          *p++ = 'n';
          break;
        case '\t':
          *p++ = 't';
          break;
        default:
          *p++ = 'u';
          *p++ = '0';
          *p++ = '0';
          p = Hex(p, c, 2);
      }
    }
    return p;
  }

  char* p_ = nullptr;
  int depth_ = 0;
  bool after_key_ = false;
  std::array<bool, 16> first_{};
  int64_t cached_day_ = INT64_MIN;
  char date_[11] = {};
};

}  // namespace kaizen::sim::gen
