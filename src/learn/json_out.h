// The JSON writer every analysis section uses. RapidJSON prints the shortest representation of
// a double, so the same numbers give the same bytes; Num() rounds first so that 0.1 + 0.2
// reads as 0.3 and outputs stay stable across compilers that fold arithmetic differently.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kaizen::learn {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

inline double Round6(double x) {
  // Not finite, or too large for x * 1e6: nothing to round.
  if (!std::isfinite(x) || std::fabs(x) >= 1e12) return x;
  double r = std::round(x * 1e6) / 1e6;
  return r == 0 ? 0 : r;  // no "-0"
}

// A number, or null for one that is not finite (a sum of hand-edited huge values): JSON has no
// infinity, and RapidJSON would write nothing at all.
inline void Num(JsonWriter& w, double x) {
  double r = Round6(x);
  if (std::isfinite(r)) {
    w.Double(r);
  } else {
    w.Null();
  }
}
inline void Num(JsonWriter& w, std::optional<double> x) {
  if (x) {
    Num(w, *x);
  } else {
    w.Null();
  }
}
inline void Str(JsonWriter& w, std::string_view s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}
inline void Key(JsonWriter& w, std::string_view s) {
  w.Key(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}
// An array of strings, in their order.
inline void StrArray(JsonWriter& w, const std::vector<std::string>& items) {
  w.StartArray();
  for (const std::string& s : items) Str(w, s);
  w.EndArray();
}

}  // namespace kaizen::learn
