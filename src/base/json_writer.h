// The one JSON writer of kaizen's output (analysis, answers of every door, derived files, the
// events a verb assembles) and its helpers. RapidJSON prints the shortest representation of a
// double, so the same numbers give the same bytes; Num() rounds first so that 0.1 + 0.2 reads as
// 0.3 and outputs stay stable across compilers that fold arithmetic differently. JSON has no
// infinity or NaN, and RapidJSON would write nothing for one: both number helpers write null.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kaizen::base {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

inline double Round6(double x) {
  // Not finite, or too large for x * 1e6: nothing to round.
  if (!std::isfinite(x) || std::fabs(x) >= 1e12) return x;
  double r = std::round(x * 1e6) / 1e6;
  return r == 0 ? 0 : r;  // no "-0"
}

// The number Num writes: rounded to six places; nullopt for none, or one that is not finite.
inline std::optional<double> AsWritten(std::optional<double> x) {
  if (!x) return std::nullopt;
  const double r = Round6(*x);
  if (!std::isfinite(r)) return std::nullopt;
  return r;
}

// A number, or null for one that is not finite (a sum of hand-edited huge values): JSON has no
// infinity, and RapidJSON would write nothing at all.
inline void Num(JsonWriter& w, std::optional<double> x) {
  if (const std::optional<double> r = AsWritten(x)) {
    w.Double(*r);
  } else {
    w.Null();
  }
}
inline void Num(JsonWriter& w, double x) { Num(w, std::optional<double>(x)); }
// A number as it is, unrounded (the dashboard's figures, which its text shows at full precision),
// or null when absent or not finite.
inline void NumExact(JsonWriter& w, std::optional<double> x) {
  if (x && std::isfinite(*x)) {
    w.Double(*x);
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

// A string member.
inline void Field(JsonWriter& w, std::string_view key, std::string_view value) {
  Key(w, key);
  Str(w, value);
}

// One JSON object as text: `fill(w)` writes its members.
template <typename Fill>
std::string JsonObject(Fill&& fill) {
  rapidjson::StringBuffer b;
  JsonWriter w(b);
  w.StartObject();
  fill(w);
  w.EndObject();
  return std::string(b.GetString(), b.GetSize());
}

}  // namespace kaizen::base
