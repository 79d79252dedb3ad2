// Shared by the benchmark executables: the generated batch every benchmark runs on, split into
// lines and (once) parsed into simdjson DOM documents that stay alive for the whole run.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/limits.h"
#include "sim/gen_history.h"

namespace kaizen::bench {

inline constexpr uint64_t kBatchEvents = 20000;
inline constexpr uint64_t kSeed = 1;

struct Batch {
  simdjson::padded_string text;         // the whole JSONL batch, padded for simdjson
  std::vector<std::string_view> lines;  // views into `text`, without the '\n'
  size_t line_bytes = 0;                // sum of lines[i].size() (no newlines)
  int64_t now_ms = 0;                   // a "now" after the whole history
};

inline const Batch& GeneratedBatch() {
  static const Batch* batch = [] {
    sim::GenOptions options;
    options.events = kBatchEvents;
    options.seed = kSeed;
    std::string jsonl;
    sim::GenerateHistory(options, &jsonl);
    auto* b = new Batch;
    b->text = simdjson::padded_string(jsonl);
    std::string_view all(b->text.data(), b->text.size());
    size_t pos = 0;
    while (pos < all.size()) {
      size_t nl = all.find('\n', pos);
      if (nl == std::string_view::npos) nl = all.size();
      if (nl > pos) {
        b->lines.push_back(all.substr(pos, nl - pos));
        b->line_bytes += nl - pos;
      }
      pos = nl + 1;
    }
    b->now_ms = options.start_unix_ms + (options.span_days + 2) * 86400000LL;
    if (b->lines.size() != kBatchEvents) {
      std::fprintf(stderr, "GenerateHistory produced %zu lines, expected %llu\n", b->lines.size(),
                   static_cast<unsigned long long>(kBatchEvents));
      std::abort();
    }
    return b;
  }();
  return *batch;
}

// Each generated line parsed once into a document of its own, with the token offsets of its parse
// (what ingest::JsonTokens reads from a parser).
struct ParsedLines {
  std::vector<std::unique_ptr<simdjson::dom::document>> docs;
  std::vector<std::vector<uint32_t>> tokens;
};

inline const ParsedLines& ParsedBatchWithTokens() {
  static const auto* parsed = [] {
    const Batch& b = GeneratedBatch();
    auto* p = new ParsedLines;
    simdjson::dom::parser parser;
    for (std::string_view line : b.lines) {
      auto doc = std::make_unique<simdjson::dom::document>();
      simdjson::dom::element root;
      if (parser.parse_into_document(*doc, line.data(), line.size()).get(root)) {
        std::fprintf(stderr, "a generated line does not parse\n");
        std::abort();
      }
      p->docs.push_back(std::move(doc));
      const uint32_t* at = parser.implementation->structural_indexes.get();
      p->tokens.emplace_back(at, at + parser.implementation->n_structural_indexes);
    }
    return p;
  }();
  return *parsed;
}

inline const std::vector<std::unique_ptr<simdjson::dom::document>>& ParsedBatch() {
  return ParsedBatchWithTokens().docs;
}

}  // namespace kaizen::bench
