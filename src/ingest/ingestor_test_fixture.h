// For the Ingestor's tests only: a temporary home per test, events to ingest and what on_line
// reported, shared by the ingestor_*test.cc files (one per kind of behaviour they check).
#pragma once

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/test_files.h"
#include "ingest/ingestor.h"
#include "store/log_format.h"

namespace kaizen::ingest::ingestor_test {

using base::test_files::ReadAll;

namespace fs = std::filesystem;

inline constexpr int64_t kNowMs = 1752969600000;  // 2025-07-20T00:00:00Z
inline constexpr char kDay[] = "2025-07-19";      // the UTC day of kTimestamp
inline constexpr char kTimestamp[] = "2025-07-19T10:00:00Z";

// Deterministic ids: 00000000-0000-7000-8000-0000000000NN.
inline std::string Id(int n) { return fmt::format("00000000-0000-7000-8000-{:012d}", n); }

inline std::string Outcome(int n, const std::string& timestamp = kTimestamp) {
  return fmt::format(
      R"({{"kind":"outcome","id":"{}","timestamp":"{}","bead_id":"bd-{}","duration_ms":1000,)"
      R"("error_count":0,"retry_count":0,"success":true}})",
      Id(n), timestamp, n);
}

inline std::string FullWorkProduct(const std::string& artifact, const std::string& version) {
  return fmt::format(
      R"({{"type":"code-module","id":"{}","version":"{}","summary":"a module",)"
      R"("bubaConfidence":0.5,"bubaScorePrediction":7,"generationContext":{{"promptHash":"ph",)"
      R"("memorySnapshot":[],"modelUsed":"model-x","generationTimeMs":10,"iterationCount":1}}}})",
      artifact, version);
}

inline std::string Work(int n, const std::string& artifact, const std::string& version = "v1") {
  return fmt::format(R"({{"kind":"work","id":"{}","timestamp":"{}","workProduct":{}}})", Id(n),
                     kTimestamp, FullWorkProduct(artifact, version));
}

// `work_product` is a JSON object: a reference {"id":...} or a full WorkProductRef.
inline std::string Feedback(int n, const std::string& session, const std::string& modal,
                            const std::string& work_product, const std::string& extra = "") {
  return fmt::format(
      R"({{"kind":"feedback","id":"{}","timestamp":"{}","sessionId":"{}","modalId":"{}",)"
      R"("workProduct":{},"pipelineStage":"review"{},"meta":{{"timeToDecisionMs":1000}}}})",
      Id(n), kTimestamp, session, modal, work_product, extra);
}

// Feedback that needs no recorded work: it carries the full WorkProductRef.
inline std::string FreeFeedback(int n, const std::string& session, const std::string& modal) {
  return Feedback(n, session, modal, FullWorkProduct("inline-art", "v1"));
}

inline std::string Jsonl(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// What on_line reported, copied out of the input.
struct Reported {
  uint64_t line_number = 0;
  bool stored = false;
  std::string id;
  std::vector<FieldError> errors;

  bool HasError(const std::string& path, const std::string& fragment) const {
    return std::any_of(errors.begin(), errors.end(), [&](const FieldError& e) {
      return e.path == path && e.message.find(fragment) != std::string::npos;
    });
  }
  std::string ErrorText() const {
    std::string out;
    for (const auto& e : errors) out += e.ToString() + "; ";
    return out;
  }
};

struct IngestRun {
  Status status;
  IngestSummary summary;
  std::vector<Reported> lines;

  const Reported* Line(uint64_t n) const {
    for (const auto& r : lines) {
      if (r.line_number == n) return &r;
    }
    return nullptr;
  }
  std::vector<uint64_t> StoredLines() const {
    std::vector<uint64_t> out;
    for (const auto& r : lines) {
      if (r.stored) out.push_back(r.line_number);
    }
    return out;
  }
};

inline IngestRun IngestText(Ingestor& ingestor, const std::string& text,
                            size_t chunk_events = 50000) {
  IngestRun run;
  simdjson::padded_string input(text);
  IngestOptions options;
  options.now_ms = kNowMs;
  options.chunk_events = chunk_events;
  options.on_line = [&](const LineResult& r) {
    run.lines.push_back({r.line_number, r.stored, r.id, r.errors});
  };
  run.status = ingestor.Ingest(std::string_view(input), options, &run.summary);
  return run;
}

class IngestorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    home_ = base::test_files::MakeTempDir("kaizen-ingestor");
    ASSERT_FALSE(home_.empty());
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(home_, ec);
  }

  std::string RawDir() const { return store::PathIn(home_, store::kRawDir); }
  std::string RawFile(const std::string& day = kDay) const {
    return RawDir() + "/" + day + ".jsonl";
  }

  // Every complete stored line of every raw file, in file order.
  std::vector<std::string> StoredLines() const {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(RawDir(), ec)) {
      files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    std::vector<std::string> lines;
    for (const auto& f : files) {
      std::string data = ReadAll(f);
      store::ForEachLine(data, 1,
                         [&](std::string_view line, uint64_t) { lines.emplace_back(line); });
    }
    return lines;
  }
  // How many stored lines carry the event id.
  int CountStored(const std::string& id) const {
    int n = 0;
    for (const auto& line : StoredLines()) {
      if (line.find("\"id\":\"" + id + "\"") != std::string::npos) ++n;
    }
    return n;
  }
  // meta.sessionFatigue of the stored event with this id; -1 if absent.
  int64_t StoredFatigue(const std::string& id) const {
    for (const auto& line : StoredLines()) {
      if (line.find("\"id\":\"" + id + "\"") == std::string::npos) continue;
      simdjson::dom::parser parser;
      simdjson::dom::element e;
      if (parser.parse(line).get(e) != simdjson::SUCCESS) return -1;
      int64_t fatigue;
      if (e["meta"]["sessionFatigue"].get_int64().get(fatigue) != simdjson::SUCCESS) return -1;
      return fatigue;
    }
    return -1;
  }

  std::string home_;
};

}  // namespace kaizen::ingest::ingestor_test
