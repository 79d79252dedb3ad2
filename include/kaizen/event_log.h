// The public C++ API for embedding kaizen: the same pipeline the CLI, HTTP and MCP doors use.
//
//   kaizen::EventLog log("/path/to/.kaizen");
//   std::vector<kaizen::EventLog::LineOutcome> out;
//   kaizen::Status s = log.Record(R"({"kind":"outcome","bead_id":"bd-1",...})", &out);
//
// Thread-compatible: one EventLog per thread. Several EventLogs and processes may share a home.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"

namespace kaizen {

class EventLog {
 public:
  struct LineOutcome {
    uint64_t line_number = 0;
    bool stored = false;              // durable when true
    std::string id;                   // the stored event's id
    std::vector<std::string> errors;  // "scores[2].score: 11 is out of range 1..10"
  };
  struct Options {
    std::optional<int64_t> now_unix_ms;  // the clock; default: the system clock
    std::optional<std::string> kind;     // events may omit `kind`; others are refused
  };

  explicit EventLog(std::string home);
  ~EventLog();
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  // Validates, enriches and durably stores one JSON object or JSONL. Appends one outcome per
  // non-blank line, in order. A non-OK status is a system failure (I/O, full disk): lines not
  // reported stored were not stored.
  Status Record(std::string_view jsonl, std::vector<LineOutcome>* outcomes, const Options& options);
  Status Record(std::string_view jsonl, std::vector<LineOutcome>* outcomes) {
    return Record(jsonl, outcomes, Options());
  }

  // Calls `fn` with every stored line (without its '\n'), in log order.
  Status ForEachStored(const std::function<void(std::string_view line)>& fn);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kaizen
