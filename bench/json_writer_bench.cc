// The measurement behind the JSON writer kaizen stores events with. The task is the same for
// every candidate: take the parsed simdjson DOM of each event of the generated batch (`kaizen gen`,
// 20,000 events, seed 1) and write it back as compact JSON text, appended to one output string.
// bytes/s counts the input JSON bytes, so the candidates compare directly.
//
// Candidates (all Debian packages):
//   rapidjson           rapidjson::Writer<StringBuffer>, a fresh buffer per event (what
//                       src/ingest/enrich.cc does), copied into the output
//   rapidjson_reuse     the same writer, one buffer reused (Clear + Reset) for every event
//   nlohmann_ordered    nlohmann::ordered_json built from the DOM, then dump(): keeps key order
//   nlohmann            nlohmann::json (std::map objects), then dump(): REORDERS keys, so it could
//                       not be used for the stored form as is; measured for reference
//   nlohmann_dump_only  dump() of prebuilt ordered_json values (the serializer alone)
//   simdjson_to_string  simdjson::to_string(element), simdjson's own DOM serializer
//   fmt                 a hand-written recursive writer on fmt::memory_buffer (string escaping
//                       by hand, numbers through fmt's shortest round-trip formatting)
//
// Before timing, each candidate's output is re-parsed and compared with the input value by value
// (order-sensitively); the `mismatched_events` counter must be 0 and `keys_reordered` says whether
// only the key order differed.
#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "bench_common.h"
#include "ingest/enrich.h"

namespace kaizen::bench {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// ---- rapidjson: kaizen's own writer, ingest::CopyJson from src/ingest/enrich.cc ----

void WriteRapidjson(element v, std::string* out) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  kaizen::ingest::CopyJson(v, w);
  out->append(buffer.GetString(), buffer.GetSize());
  out->push_back('\n');
}

struct RapidjsonReuse {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w{buffer};
  void operator()(element v, std::string* out) {
    buffer.Clear();
    w.Reset(buffer);
    kaizen::ingest::CopyJson(v, w);
    out->append(buffer.GetString(), buffer.GetSize());
    out->push_back('\n');
  }
};

// ---- nlohmann ----

template <typename Json>
Json ToNlohmann(element v) {
  switch (v.type()) {
    case element_type::OBJECT: {
      Json j = Json::object();
      for (simdjson::dom::object o = v.get_object().value_unsafe(); auto [key, child] : o) {
        j.emplace(std::string(key), ToNlohmann<Json>(child));
      }
      return j;
    }
    case element_type::ARRAY: {
      Json j = Json::array();
      for (simdjson::dom::array a = v.get_array().value_unsafe(); element child : a)
        j.push_back(ToNlohmann<Json>(child));
      return j;
    }
    case element_type::STRING:
      return Json(std::string(v.get_string().value_unsafe()));
    case element_type::INT64:
      return Json(v.get_int64().value_unsafe());
    case element_type::UINT64:
      return Json(v.get_uint64().value_unsafe());
    case element_type::DOUBLE:
      return Json(v.get_double().value_unsafe());
    case element_type::BOOL:
      return Json(v.get_bool().value_unsafe());
    case element_type::NULL_VALUE:
      return Json(nullptr);
  }
  return Json();
}

template <typename Json>
void WriteNlohmann(element v, std::string* out) {
  out->append(ToNlohmann<Json>(v).dump());
  out->push_back('\n');
}

// ---- simdjson ----

void WriteSimdjson(element v, std::string* out) {
  out->append(simdjson::to_string(v));
  out->push_back('\n');
}

// ---- fmt ----

void FmtString(std::string_view s, fmt::memory_buffer& b) {
  b.push_back('"');
  size_t run = 0;  // start of the current run of bytes that need no escape
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    b.append(s.data() + run, s.data() + i);
    run = i + 1;
    switch (c) {
      case '"':
        b.append(std::string_view("\\\""));
        break;
      case '\\':
        b.append(std::string_view("\\\\"));
        break;
      case '\n':
        b.append(std::string_view("\\n"));
        break;
      case '\r':
        b.append(std::string_view("\\r"));
        break;
      case '\t':
        b.append(std::string_view("\\t"));
        break;
      case '\b':
        b.append(std::string_view("\\b"));
        break;
      case '\f':
        b.append(std::string_view("\\f"));
        break;
      default:
        fmt::format_to(std::back_inserter(b), "\\u{:04x}", c);
    }
  }
  b.append(s.data() + run, s.data() + s.size());
  b.push_back('"');
}

void FmtCopy(element v, fmt::memory_buffer& b) {
  switch (v.type()) {
    case element_type::OBJECT: {
      b.push_back('{');
      bool first = true;
      for (simdjson::dom::object o = v.get_object().value_unsafe(); auto [key, child] : o) {
        if (!first) b.push_back(',');
        first = false;
        FmtString(key, b);
        b.push_back(':');
        FmtCopy(child, b);
      }
      b.push_back('}');
      return;
    }
    case element_type::ARRAY: {
      b.push_back('[');
      bool first = true;
      for (simdjson::dom::array a = v.get_array().value_unsafe(); element child : a) {
        if (!first) b.push_back(',');
        first = false;
        FmtCopy(child, b);
      }
      b.push_back(']');
      return;
    }
    case element_type::STRING:
      FmtString(v.get_string().value_unsafe(), b);
      return;
    case element_type::INT64:
      fmt::format_to(std::back_inserter(b), "{}", v.get_int64().value_unsafe());
      return;
    case element_type::UINT64:
      fmt::format_to(std::back_inserter(b), "{}", v.get_uint64().value_unsafe());
      return;
    case element_type::DOUBLE: {
      size_t start = b.size();
      fmt::format_to(std::back_inserter(b), "{}", v.get_double().value_unsafe());
      // Keep it a double when read back: "5" -> "5.0" (fmt prints integral doubles bare).
      std::string_view printed(b.data() + start, b.size() - start);
      if (printed.find_first_of(".eE") == std::string_view::npos) b.append(std::string_view(".0"));
      return;
    }
    case element_type::BOOL:
      b.append(std::string_view(v.get_bool().value_unsafe() ? "true" : "false"));
      return;
    case element_type::NULL_VALUE:
      b.append(std::string_view("null"));
      return;
  }
}

struct FmtWriter {
  fmt::memory_buffer b;
  void operator()(element v, std::string* out) {
    b.clear();
    FmtCopy(v, b);
    out->append(b.data(), b.size());
    out->push_back('\n');
  }
};

// ---- Checking the outputs ----

bool SameValue(element a, element b, bool ordered, bool* reordered) {
  auto is_int = [](element_type t) {
    return t == element_type::INT64 || t == element_type::UINT64;
  };
  if (a.type() != b.type()) {
    if (is_int(a.type()) && is_int(b.type())) {
      return a.get_double().value_unsafe() == b.get_double().value_unsafe();
    }
    return false;
  }
  switch (a.type()) {
    case element_type::OBJECT: {
      simdjson::dom::object oa = a.get_object().value_unsafe();
      simdjson::dom::object ob = b.get_object().value_unsafe();
      if (oa.size() != ob.size()) return false;
      auto ib = ob.begin();
      for (auto [key, child] : oa) {
        std::string_view kb = ib.key();
        if (kb != key) *reordered = true;
        ++ib;
        element other;
        if (ob.at_key(key).get(other) != simdjson::SUCCESS) return false;
        if (!SameValue(child, other, ordered, reordered)) return false;
      }
      return !(ordered && *reordered);
    }
    case element_type::ARRAY: {
      simdjson::dom::array aa = a.get_array().value_unsafe();
      simdjson::dom::array ab = b.get_array().value_unsafe();
      if (aa.size() != ab.size()) return false;
      auto ib = ab.begin();
      for (element child : aa) {
        if (!SameValue(child, *ib, ordered, reordered)) return false;
        ++ib;
      }
      return true;
    }
    case element_type::STRING:
      return a.get_string().value_unsafe() == b.get_string().value_unsafe();
    case element_type::INT64:
      return a.get_int64().value_unsafe() == b.get_int64().value_unsafe();
    case element_type::UINT64:
      return a.get_uint64().value_unsafe() == b.get_uint64().value_unsafe();
    case element_type::DOUBLE:
      return a.get_double().value_unsafe() == b.get_double().value_unsafe();
    case element_type::BOOL:
      return a.get_bool().value_unsafe() == b.get_bool().value_unsafe();
    case element_type::NULL_VALUE:
      return true;
  }
  return false;
}

// Writes every event once and compares the re-parsed output with the input.
template <typename WriteFn>
void Check(benchmark::State& state, WriteFn& write) {
  const auto& docs = ParsedBatch();
  simdjson::dom::parser parser;
  size_t mismatched = 0, reordered_events = 0, out_bytes = 0;
  for (const auto& doc : docs) {
    std::string out;
    write(doc->root(), &out);
    out_bytes += out.size();
    element back;
    bool reordered = false;
    if (out.empty() || out.back() != '\n' ||
        parser.parse(out.data(), out.size() - 1).get(back) != simdjson::SUCCESS ||
        !SameValue(doc->root(), back, /*ordered=*/false, &reordered)) {
      ++mismatched;
    } else if (reordered) {
      ++reordered_events;
    }
  }
  state.counters["mismatched_events"] = static_cast<double>(mismatched);
  state.counters["keys_reordered"] = reordered_events > 0 ? 1 : 0;
  state.counters["out_bytes_per_event"] = static_cast<double>(out_bytes) / docs.size();
}

template <typename WriteFn>
void RunWriter(benchmark::State& state, WriteFn write) {
  const Batch& batch = GeneratedBatch();
  const auto& docs = ParsedBatch();
  Check(state, write);
  std::string out;
  out.reserve(batch.line_bytes * 2 + docs.size());
  for (auto _ : state) {
    out.clear();
    for (const auto& doc : docs) write(doc->root(), &out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * docs.size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * batch.line_bytes));
}

void BM_Write_rapidjson(benchmark::State& state) { RunWriter(state, WriteRapidjson); }
void BM_Write_rapidjson_reuse(benchmark::State& state) { RunWriter(state, RapidjsonReuse()); }
void BM_Write_nlohmann_ordered(benchmark::State& state) {
  RunWriter(state, WriteNlohmann<nlohmann::ordered_json>);
}
void BM_Write_nlohmann(benchmark::State& state) { RunWriter(state, WriteNlohmann<nlohmann::json>); }
void BM_Write_simdjson_to_string(benchmark::State& state) { RunWriter(state, WriteSimdjson); }
void BM_Write_fmt(benchmark::State& state) { RunWriter(state, FmtWriter()); }

// The serializer alone: dump() of values built beforehand.
void BM_Write_nlohmann_dump_only(benchmark::State& state) {
  const Batch& batch = GeneratedBatch();
  std::vector<nlohmann::ordered_json> built;
  for (const auto& doc : ParsedBatch())
    built.push_back(ToNlohmann<nlohmann::ordered_json>(doc->root()));
  std::string out;
  for (auto _ : state) {
    out.clear();
    for (const auto& j : built) {
      out.append(j.dump());
      out.push_back('\n');
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * built.size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * batch.line_bytes));
}

BENCHMARK(BM_Write_rapidjson)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Write_rapidjson_reuse)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Write_nlohmann_ordered)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Write_nlohmann)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Write_nlohmann_dump_only)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Write_simdjson_to_string)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Write_fmt)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kaizen::bench

BENCHMARK_MAIN();
