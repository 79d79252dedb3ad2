#include "model/timestamp.h"

#include <fmt/format.h>

#include <algorithm>

namespace kaizen::model {
namespace {

bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

// Howard Hinnant's days_from_civil: days since 1970-01-01 in the proleptic Gregorian calendar.
int64_t DaysFromCivil(int y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

CivilTime ToCivil(int64_t unix_ms) {
  int64_t days = FloorDiv(unix_ms, 86400000);
  int64_t ms_of_day = unix_ms - days * 86400000;
  // civil_from_days
  int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  CivilTime c{};
  c.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  c.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  c.year = static_cast<int>(yoe + era * 400 + (c.month <= 2));
  c.hour = static_cast<int>(ms_of_day / 3600000);
  c.minute = static_cast<int>(ms_of_day / 60000 % 60);
  c.second = static_cast<int>(ms_of_day / 1000 % 60);
  c.millis = static_cast<int>(ms_of_day % 1000);
  // 1970-01-01 was a Thursday (weekday 3 with Monday = 0).
  c.weekday = static_cast<int>(((days % 7) + 7 + 3) % 7);
  return c;
}

Result<Timestamp> ParseTimestamp(std::string_view s) {
  const auto bad = [] {
    return InvalidArgument("must be ISO 8601 with a zone, e.g. 2025-07-11T09:30:00Z");
  };
  int y, mo, d, h, mi, sec;
  if (s.size() < 20 || !Digits(s, 0, 4, &y) || s[4] != '-' || !Digits(s, 5, 2, &mo) ||
      s[7] != '-' || !Digits(s, 8, 2, &d) || (s[10] != 'T' && s[10] != ' ') ||
      !Digits(s, 11, 2, &h) || s[13] != ':' || !Digits(s, 14, 2, &mi) || s[16] != ':' ||
      !Digits(s, 17, 2, &sec)) {
    return bad();
  }
  if (mo < 1 || mo > 12 || d < 1 || d > DaysInMonth(y, mo) || h > 23 || mi > 59 || sec > 59) {
    return InvalidArgument("is not a real calendar date and time");
  }
  size_t pos = 19;
  int millis = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    size_t start = pos;
    int scale = 100;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (scale > 0) millis += (s[pos] - '0') * scale;  // digits past milliseconds are dropped
      scale /= 10;
      ++pos;
    }
    if (pos == start || pos - start > 9) return bad();
  }
  int offset = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!Digits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !Digits(s, pos + 4, 2, &om) || oh > 14 || om > 59) {
      return bad();
    }
    offset = (oh * 60 + om) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return bad();
  }
  if (pos != s.size()) return bad();
  int64_t local_ms = (DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec) * 1000 + millis;
  return Timestamp{local_ms - static_cast<int64_t>(offset) * 60000, offset};
}

namespace {
// Writes `value` as exactly `width` decimal digits. On the ingest hot path, so no fmt.
char* PutDigits(char* p, int value, int width) {
  for (int i = width - 1; i >= 0; --i) {
    p[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  return p + width;
}
}  // namespace

std::string FormatUtc(int64_t unix_ms) {
  char out[kUtcTextMax];
  return std::string(FormatUtc(unix_ms, out));
}

std::string_view FormatUtc(int64_t unix_ms, char (&out)[kUtcTextMax]) {
  CivilTime c = ToCivil(unix_ms);
  if (c.year < 0 || c.year > 9999) {
    const auto r = fmt::format_to_n(out, sizeof out, "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
                                    c.year, c.month, c.day, c.hour, c.minute, c.second, c.millis);
    return std::string_view(out, std::min(r.size, sizeof out));
  }
  char* p = PutDigits(out, c.year, 4);
  *p++ = '-';
  p = PutDigits(p, c.month, 2);
  *p++ = '-';
  p = PutDigits(p, c.day, 2);
  *p++ = 'T';
  p = PutDigits(p, c.hour, 2);
  *p++ = ':';
  p = PutDigits(p, c.minute, 2);
  *p++ = ':';
  p = PutDigits(p, c.second, 2);
  *p++ = '.';
  p = PutDigits(p, c.millis, 3);
  *p++ = 'Z';
  return std::string_view(out, static_cast<size_t>(p - out));
}

std::string FormatDay(int64_t unix_ms) { return FormatUtc(unix_ms).substr(0, 10); }

}  // namespace kaizen::model
