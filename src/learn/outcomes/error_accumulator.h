// Error accumulator (seed 002 "Error Accumulator"): errors recorded during subtask execution,
// their resolution, per-bead statistics and the markdown context a retry prompt starts with.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"

namespace kaizen::learn {

// seed 002 "Error Statistics"
struct ErrorStats {
  int64_t total = 0, unresolved = 0;
  std::map<std::string, int64_t, std::less<>> by_type;  // resolved errors included

  template <class Archive>
  void serialize(Archive& ar);
};

struct BeadErrors {
  std::string bead_id;
  int64_t unresolved = 0, total = 0;
};

// The `errors` section of `kaizen analyze --json`.
struct ErrorReport {
  ErrorStats overall;
  std::vector<BeadErrors> beads_with_unresolved;  // most unresolved first, then by bead id
};

class ErrorAccumulator {
 public:
  // seed 002 "Error Types": an error without a type is "unknown".
  static constexpr std::string_view kUnknownType = "unknown";
  static constexpr size_t kTopBeads = 20;

  // An event with `resolves` set marks the error with that id resolved (once; it is not an
  // error itself); a resolve for an id not seen yet is ignored. Any other event is an error of
  // its bead. O(log beads); copies the error's text (stack trace up to kStackChars).
  void Add(const model::ErrorView& error);

  ErrorStats Stats(std::string_view bead_id) const;  // all zero for an unknown bead
  const ErrorStats& Overall() const { return overall_; }
  ErrorReport Report(size_t top_beads = kTopBeads) const;

  // seed 002 "Generating Error Context": the markdown for a retry prompt. Errors are grouped by
  // type in first-seen order, each group in log order; resolved errors only when
  // include_resolved (marked " (resolved)"). Times are UTC ("2024-12-12 10:30 UTC"). A stack
  // trace shows its first kStackChars characters (code points), "..." when cut, with line
  // breaks as spaces. Empty when the bead has no error to show.
  std::string ErrorContext(std::string_view bead_id, bool include_resolved) const;

  static constexpr size_t kStackChars = 100;

 private:
  struct Error {
    int64_t at_ms;
    std::string type, message, context, tool, stack;  // stack: already cut to kStackChars
    bool stack_cut;
    bool resolved;
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct Bead {
    std::vector<uint32_t> errors;  // indices into errors_, log order
    int64_t unresolved = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };
  template <typename T>
  using Map = std::unordered_map<std::string, T, StringHash, std::equal_to<>>;

  void Resolve(std::string_view error_id);
  // Moves bead `bead` in unresolved_order_ as its unresolved count goes from `before` to its
  // current value.
  void Reorder(uint32_t bead, int64_t before);
  // bead_index_ and unresolved_order_ are rebuilt from beads_.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  std::vector<Error> errors_;
  std::vector<uint32_t> error_bead_;  // errors_[i] belongs to beads_[error_bead_[i]]
  Map<uint32_t> by_id_;               // error id -> index into errors_
  Map<uint32_t> bead_index_;          // bead id -> index into beads_
  std::vector<std::pair<std::string, Bead>> beads_;
  // The beads with unresolved errors in Report's order, (-unresolved, bead id), kept as errors
  // arrive and resolve: a session start asks for the top five on every call.
  std::set<std::pair<int64_t, std::string>> unresolved_order_;
  ErrorStats overall_;
};

void WriteJson(base::JsonWriter& w, const ErrorReport& report);

}  // namespace kaizen::learn
