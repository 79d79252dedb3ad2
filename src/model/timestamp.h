// ISO 8601 timestamps: strict parsing, UTC formatting, civil-calendar arithmetic.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::model {

struct Timestamp {
  int64_t unix_ms = 0;     // the instant, UTC
  int offset_minutes = 0;  // the writer's zone offset, kept for local time of day
};

struct CivilTime {
  int year, month, day, hour, minute, second, millis;
  int weekday;  // 0 = Monday .. 6 = Sunday
};

// Accepts YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM); 'T' may be a space. The error message
// states the rule, e.g. `must be ISO 8601 with a zone (2025-07-11T09:30:00Z)`.
Result<Timestamp> ParseTimestamp(std::string_view text);

// 2025-07-11T09:30:00.000Z
std::string FormatUtc(int64_t unix_ms);
// The same text, written into `out` without an allocation; returns it.
inline constexpr size_t kUtcTextMax = 40;  // 24 bytes but for years outside 0..9999
std::string_view FormatUtc(int64_t unix_ms, char (&out)[kUtcTextMax]);
// 2025-07-11 (the UTC day: the raw log file an event goes to)
std::string FormatDay(int64_t unix_ms);
CivilTime ToCivil(int64_t unix_ms);
int64_t DaysFromCivil(int year, int month, int day);

}  // namespace kaizen::model
