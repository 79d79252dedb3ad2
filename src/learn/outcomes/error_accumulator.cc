#include "learn/outcomes/error_accumulator.h"

#include <fmt/format.h>

#include <algorithm>

#include "learn/state_archive.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

bool IsUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The first `max_chars` code points of `text`, line breaks as spaces; *cut when text was longer.
std::string StackExcerpt(std::string_view text, size_t max_chars, bool* cut) {
  size_t end = 0, chars = 0;
  while (end < text.size() && chars < max_chars) {
    ++end;
    while (end < text.size() && IsUtf8Continuation(text[end])) ++end;
    ++chars;
  }
  *cut = end < text.size();
  std::string out(text.substr(0, end));
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return out;
}

// 2024-12-12 10:30 UTC
std::string MinuteUtc(int64_t ms) {
  const model::CivilTime t = model::ToCivil(ms);
  return fmt::format("{:04}-{:02}-{:02} {:02}:{:02} UTC", t.year, t.month, t.day, t.hour, t.minute);
}

}  // namespace

void ErrorAccumulator::Add(const model::ErrorView& e) {
  if (!e.resolves.empty()) {
    Resolve(e.resolves);
    return;
  }
  uint32_t bead;
  if (auto it = bead_index_.find(e.bead_id); it != bead_index_.end()) {
    bead = it->second;
  } else {
    bead = static_cast<uint32_t>(beads_.size());
    bead_index_.emplace(std::string(e.bead_id), bead);
    beads_.emplace_back(std::string(e.bead_id), Bead{});
  }
  const auto index = static_cast<uint32_t>(errors_.size());
  Error& err = errors_.emplace_back();
  err.at_ms = e.at_ms;
  err.type = e.error_type.empty() ? kUnknownType : e.error_type;
  err.message = e.message;
  err.context = e.context;
  err.tool = e.tool_name;
  err.stack = StackExcerpt(e.stack_trace, kStackChars, &err.stack_cut);
  err.resolved = false;
  error_bead_.push_back(bead);
  if (!e.id.empty()) by_id_.emplace(std::string(e.id), index);

  Bead& b = beads_[bead].second;
  b.errors.push_back(index);
  ++b.unresolved;
  Reorder(bead, b.unresolved - 1);
  ++overall_.total;
  ++overall_.unresolved;
  if (auto it = overall_.by_type.find(err.type); it != overall_.by_type.end()) {
    ++it->second;
  } else {
    overall_.by_type.emplace(err.type, 1);
  }
}

void ErrorAccumulator::Resolve(std::string_view error_id) {
  auto it = by_id_.find(error_id);
  if (it == by_id_.end()) return;  // unknown (or not yet seen): ignored
  Error& err = errors_[it->second];
  if (err.resolved) return;
  err.resolved = true;
  const uint32_t bead = error_bead_[it->second];
  --beads_[bead].second.unresolved;
  Reorder(bead, beads_[bead].second.unresolved + 1);
  --overall_.unresolved;
}

void ErrorAccumulator::Reorder(uint32_t bead, int64_t before) {
  const auto& [id, b] = beads_[bead];
  if (before > 0) unresolved_order_.erase({-before, id});
  if (b.unresolved > 0) unresolved_order_.emplace(-b.unresolved, id);
}

ErrorStats ErrorAccumulator::Stats(std::string_view bead_id) const {
  ErrorStats s;
  auto it = bead_index_.find(bead_id);
  if (it == bead_index_.end()) return s;
  const Bead& b = beads_[it->second].second;
  s.total = static_cast<int64_t>(b.errors.size());
  s.unresolved = b.unresolved;
  for (uint32_t i : b.errors) ++s.by_type[errors_[i].type];
  return s;
}

ErrorReport ErrorAccumulator::Report(size_t top_beads) const {
  ErrorReport r;
  r.overall = overall_;
  for (const auto& [negative_unresolved, id] : unresolved_order_) {
    if (r.beads_with_unresolved.size() >= top_beads) break;
    const Bead& b = beads_[bead_index_.find(id)->second].second;
    r.beads_with_unresolved.push_back({id, b.unresolved, static_cast<int64_t>(b.errors.size())});
  }
  return r;
}

std::string ErrorAccumulator::ErrorContext(std::string_view bead_id, bool include_resolved) const {
  auto it = bead_index_.find(bead_id);
  if (it == bead_index_.end()) return "";
  std::vector<const Error*> shown;
  std::vector<std::string_view> types;  // first-seen order
  for (uint32_t i : beads_[it->second].second.errors) {
    const Error& err = errors_[i];
    if (err.resolved && !include_resolved) continue;
    shown.push_back(&err);
    if (std::find(types.begin(), types.end(), err.type) == types.end()) types.push_back(err.type);
  }
  if (shown.empty()) return "";

  // seed 002 "Generating Error Context", Output.
  std::string out =
      "## Previous Errors\n\nThe following errors were encountered during execution:\n\n";
  for (std::string_view type : types) {
    const auto n =
        std::count_if(shown.begin(), shown.end(), [&](const Error* e) { return e->type == type; });
    out += fmt::format("### {} ({} error{})\n\n", type, n, n == 1 ? "" : "s");
    for (const Error* e : shown) {
      if (e->type != type) continue;
      out += fmt::format("- **{}**\n", e->message);
      if (!e->context.empty()) out += fmt::format("  - Context: {}\n", e->context);
      if (!e->tool.empty()) out += fmt::format("  - Tool: {}\n", e->tool);
      if (!e->stack.empty()) {
        out += fmt::format("  - Stack: {}{}\n", e->stack, e->stack_cut ? "..." : "");
      }
      out +=
          fmt::format("  - Time: {}{}\n\n", MinuteUtc(e->at_ms), e->resolved ? " (resolved)" : "");
    }
  }
  out +=
      "**Action Required**: Address these errors before proceeding. Consider:\n\n"
      "- What caused each error?\n"
      "- How can you prevent similar errors?\n"
      "- Are there patterns across error types?\n";
  return out;
}

void WriteJson(base::JsonWriter& w, const ErrorReport& r) {
  w.StartObject();
  base::Key(w, "total");
  w.Int64(r.overall.total);
  base::Key(w, "unresolved");
  w.Int64(r.overall.unresolved);
  base::Key(w, "byType");
  w.StartObject();
  for (const auto& [type, n] : r.overall.by_type) {
    base::Key(w, type);
    w.Int64(n);
  }
  w.EndObject();
  base::Key(w, "beadsWithUnresolved");
  w.StartArray();
  for (const BeadErrors& b : r.beads_with_unresolved) {
    w.StartObject();
    base::Key(w, "beadId");
    base::Str(w, b.bead_id);
    base::Key(w, "unresolved");
    w.Int64(b.unresolved);
    base::Key(w, "total");
    w.Int64(b.total);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void ErrorStats::serialize(Archive& ar) {
  ar(total, unresolved, by_type);
}

template <class Archive>
void ErrorAccumulator::Error::serialize(Archive& ar) {
  ar(at_ms, type, message, context, tool, stack, stack_cut, resolved);
}

template <class Archive>
void ErrorAccumulator::Bead::serialize(Archive& ar) {
  ar(errors, unresolved);
}

template <class Archive>
void ErrorAccumulator::serialize(Archive& ar) {
  ar(errors_, error_bead_, state::SortedMap(by_id_), beads_, overall_);
  if constexpr (state::kLoading<Archive>) {
    state::Require(error_bead_.size() == errors_.size(), "errors without their beads");
    for (uint32_t bead : error_bead_) state::Require(bead < beads_.size(), "an error's bead");
    for (const auto& [id, index] : by_id_) state::Require(index < errors_.size(), "an error id");
    bead_index_.clear();
    unresolved_order_.clear();
    for (size_t i = 0; i < beads_.size(); ++i) {
      for (uint32_t e : beads_[i].second.errors)
        state::Require(e < errors_.size(), "a bead's error");
      state::Require(bead_index_.emplace(beads_[i].first, static_cast<uint32_t>(i)).second,
                     "a bead saved twice");
      if (beads_[i].second.unresolved > 0) {
        unresolved_order_.emplace(-beads_[i].second.unresolved, beads_[i].first);
      }
    }
  }
}

KZ_STATE_INSTANTIATE(ErrorStats);
KZ_STATE_INSTANTIATE(ErrorAccumulator);

}  // namespace kaizen::learn
