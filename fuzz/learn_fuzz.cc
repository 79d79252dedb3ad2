// libFuzzer target for the learning engine: the bytes are a raw log as a person may have edited
// it, one stored event per line. Each line goes through EventReader::ReadJson and, when it reads
// as an event, into one Learner (a fresh one per input, as each `kaizen analyze` is a fresh
// process); then the whole analysis (JSON and text) and every kind of explanation run at two
// clocks. Nothing may crash, leak or hang, and:
//   - AnalysisJson is one JSON object ending in '\n' with every contract key;
//   - the queries are pure: asking twice at the same `now` gives the same bytes;
//   - Explain answers OK (with text) or NotFound for a known WHAT, InvalidArgument for another;
//   - reading each line the way `kaizen analyze` does (ReadDurable on an On-Demand document whose
//     buffer outlives the views) learns exactly what ReadJson does.
// A first line starting with '#' is a `config/learning.json` for this input (defaults when it
// is refused), so the rules also run at the edges of their configured ranges. A next line
// starting with '@' is an `analyze --only` list (Sections::Parse); when it is refused, the
// sections come from a hash of the input. A third learner folds only those sections' parts,
// reading whole only their kinds and only the review fields they need (as `kaizen analyze --only`
// does: the other kinds' lines by EventReader::ReadHeaderOnly when they start as ingest writes
// them), and must write each of them as the learner of every part does, whenever it read the
// same lines.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <simdjson.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "learn/config_json.h"
#include "learn/corrections/correction_patterns.h"
#include "learn/event_reader.h"
#include "learn/learner.h"
#include "learn/sections.h"

namespace {

using namespace kaizen;
using namespace kaizen::learn;

constexpr int64_t kNowMs = 1767225600000;  // 2026-01-01T00:00:00Z
constexpr size_t kMaxNames = 12;           // names explained per input
constexpr size_t kMaxNameBytes = 256;

constexpr const char* kContractKeys[] = {
    "now",         "events",   "approval",       "gates",    "calibration", "decisionSpeed",
    "preferences", "autonomy", "communication",  "criteria", "patterns",    "antiPatterns",
    "errors",      "loops",    "contradictions", "kpis",     "alerts"};
constexpr std::string_view kExplainKinds[] = {"pattern",  "criterion",   "gate",
                                              "autonomy", "calibration", "loop"};

// Names worth explaining, copied out of the views (which are valid only until the next read).
class Names {
 public:
  void Add(std::string_view name) {
    if (names_.size() >= kMaxNames) return;
    name = name.substr(0, kMaxNameBytes);
    if (std::find(names_.begin(), names_.end(), name) != names_.end()) return;
    names_.emplace_back(name);
  }
  const std::vector<std::string>& all() const { return names_; }

 private:
  std::vector<std::string> names_;
};

// After Add: the review's references are resolved, so its task type is the one autonomy uses.
void CollectNames(const EventViews& e, Names* names) {
  switch (e.kind) {
    case model::EventKind::kFeedback:
      names->Add(e.review.task_type);
      for (const model::ScoreView& s : e.review.scores) names->Add(s.dimension);
      break;
    case model::EventKind::kOutcome:
      for (std::string_view p : e.outcome.patterns) names->Add(p);
      for (std::string_view c : e.outcome.criteria) names->Add(c);
      break;
    case model::EventKind::kLoop:
      names->Add(e.loop.loop_id);
      break;
    default:
      break;
  }
}

// Returns the analysis; `repeat` asks every query twice (queries change nothing).
std::string CheckAnalysis(const Learner& learner, int64_t now_ms, bool repeat) {
  const std::string json = learner.AnalysisJson(now_ms);
  if (json.empty() || json.back() != '\n') std::abort();
  static simdjson::dom::parser parser;
  simdjson::dom::object root;
  if (parser.parse(json).get_object().get(root) != simdjson::SUCCESS) std::abort();
  for (const char* key : kContractKeys) {
    if (root[key].error() != simdjson::SUCCESS) std::abort();
  }
  if (repeat && learner.AnalysisJson(now_ms) != json) std::abort();

  const std::string text = learner.AnalysisText(now_ms);
  if (text.empty() || (repeat && learner.AnalysisText(now_ms) != text)) std::abort();
  return json;
}

// The CLI's read path (src/home/log_views.cc): each line parsed in place in a padded buffer that
// outlives its views, strings with escapes kept in `escaped`.
class DurableReader {
 public:
  bool Read(std::string_view line, EventViews* out) {
    std::string& buffer = buffers_.emplace_back(line);
    buffer.append(simdjson::SIMDJSON_PADDING, ' ');
    simdjson::ondemand::document doc;
    simdjson::ondemand::object object;
    if (parser_.iterate(buffer.data(), line.size(), buffer.size()).get(doc) != simdjson::SUCCESS ||
        doc.get_object().get(object) != simdjson::SUCCESS) {
      return false;
    }
    return reader_.ReadDurable(object, &escaped_, out);
  }

 private:
  simdjson::ondemand::parser parser_;
  EventReader reader_;
  std::deque<std::string> buffers_, escaped_;
};

void CheckExplain(const Learner& learner, const std::vector<std::string>& names, int64_t now_ms) {
  for (std::string_view what : kExplainKinds) {
    for (const std::string& name : names) {
      std::string text;
      Status s = learner.Explain(what, name, now_ms, &text);
      if (s.ok() ? text.empty() : s.code() != StatusCode::kNotFound) std::abort();
    }
  }
  std::string text;
  if (learner.Explain("patterns", "x", now_ms, &text).code() != StatusCode::kInvalidArgument) {
    std::abort();
  }
}

// `text` without its first span from `begin` to the next `end`: the event counts.
std::string WithoutCounts(const std::string& text, std::string_view begin, std::string_view end) {
  const size_t from = text.find(begin);
  if (from == std::string::npos) std::abort();  // every analysis has its counts
  const size_t to = text.find(end, from + begin.size());
  if (to == std::string::npos) std::abort();
  return text.substr(0, from) + text.substr(to + end.size());
}

// Whether the line is one JSON value, validated whole (simdjson's DOM parser checks every byte).
bool IsValidJson(std::string_view line) {
  static simdjson::dom::parser parser;
  simdjson::dom::element root;
  return parser.parse(simdjson::padded_string(line)).get(root) == simdjson::SUCCESS;
}

// The sections of an '@' line, or some picked by the input's bytes (FNV-1a).
Sections PickSections(std::string_view* input) {
  if (!input->empty() && input->front() == '@') {
    const size_t nl = input->find('\n');
    const std::string_view list = input->substr(1, nl == std::string_view::npos ? nl : nl - 1);
    input->remove_prefix(nl == std::string_view::npos ? input->size() : nl + 1);
    std::string error;
    std::optional<Sections> parsed = Sections::Parse(list, &error);
    if (parsed) return *parsed;
    if (error.empty()) std::abort();  // a refusal says why
  }
  uint64_t h = 1469598103934665603ull;
  for (char c : *input) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
  Sections out;
  std::string list;
  for (size_t i = 0; i < kSectionCount; ++i) {
    if (h >> i & 1) {
      out.Add(static_cast<Section>(i));
      list += (list.empty() ? "" : ",") + std::string(SectionName(static_cast<Section>(i)));
    }
  }
  if (list.empty()) return Sections::All();
  // The list of names parses back to the same sections.
  std::string error;
  std::optional<Sections> back = Sections::Parse(list, &error);
  if (!back || back->Needs() != out.Needs()) std::abort();
  return out;
}

// `kaizen validate` over the input itself: every violation names a pattern that is enforced (so
// never an inconsistent one) and a place inside the text.
void CheckValidation(const Learner& learner, std::string_view text) {
  const std::vector<CorrectionPattern> patterns = learner.corrections().Patterns();
  const std::string_view head = text.substr(0, 1 << 16);
  for (const PatternViolation& v : FindViolations(patterns, head, 0)) {
    auto it = std::find_if(patterns.begin(), patterns.end(),
                           [&](const CorrectionPattern& p) { return p.id == v.pattern_id; });
    if (it == patterns.end() || !it->Enforced(0) || v.line == 0 || v.column == 0) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);

  LearnConfig config;
  if (!input.empty() && input.front() == '#') {
    size_t nl = input.find('\n');
    std::string_view first = input.substr(1, nl == std::string_view::npos ? nl : nl - 1);
    LearnConfig configured;
    if (ApplyConfigJson(first, configured.Fields()).ok()) config = configured;
    input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
  }

  const Sections sections = PickSections(&input);
  Learner learner(config), durable_learner(config), part_learner(config, nullptr, sections.Needs());
  EventReader part_reader;
  part_reader.set_scope(part_learner.scope());
  EventViews part_views;
  bool same_lines = true;  // every line the part reader read, the whole reader read too
  // A review damaged where the part reader skips (below): the learners may differ.
  bool damaged_where_skipped = false;
  const bool skips_review_fields = part_learner.kinds().Has(model::EventKind::kFeedback) &&
                                   !(part_learner.scope().review == ReviewFields::All());
  EventReader reader;
  DurableReader durable_reader;
  EventViews views, durable_views;
  Names names;
  names.Add("all");  // calibration's names: "all" and a bucket's lower bound
  names.Add("0.7");
  bool any = false;
  int64_t latest = 0;
  size_t pos = 0;
  while (pos < input.size()) {
    size_t nl = input.find('\n', pos);
    size_t end = nl == std::string_view::npos ? input.size() : nl;
    std::string_view line = input.substr(pos, end - pos);
    pos = end + 1;
    const bool read = reader.ReadJson(line, &views);
    if (durable_reader.Read(line, &durable_views) != read) std::abort();
    // Reading fewer kinds whole never refuses a line that reading them all accepts (fewer review
    // fields may: below).
    // The part reader reads as `kaizen analyze` does: a line of a kind it does not read whole,
    // written as ingest writes it, without a parser. Where the parser reads the line too, both
    // must find the same kind and time.
    bool part_read = part_reader.ReadHeaderOnly(line, &part_views);
    if (part_read) {
      EventViews parsed;
      if (part_reader.ReadJson(line, &parsed) &&
          (parsed.kind != part_views.kind || EventTime(parsed) != EventTime(part_views))) {
        std::abort();
      }
    } else {
      part_read = part_reader.ReadJson(line, &part_views);
    }
    // A review damaged inside a field the parts skip (Parts::FieldsOfReviews) is not looked into
    // by the part reader: where the line is not valid JSON, the two readers may take or refuse it
    // differently, or read different values (broken JSON throws the skipping off, a `[` closed by
    // `}`, and the next key read is not the one the walk reads); where it is valid, the part
    // reader may read a line whose skipped field has the wrong type, but never refuse one the
    // whole reader reads.
    const bool review = (read && views.kind == model::EventKind::kFeedback) ||
                        (part_read && part_views.kind == model::EventKind::kFeedback);
    if (review && skips_review_fields) {
      const bool valid = IsValidJson(line);
      if (read && !part_read && valid) std::abort();
      if (read != part_read || !valid) damaged_where_skipped = true;
    } else if (read && !part_read) {
      std::abort();
    }
    if (part_read) part_learner.Add(part_views);
    same_lines &= part_read == read;
    if (!read) continue;
    learner.Add(views);
    durable_learner.Add(durable_views);
    CollectNames(views, &names);
    latest = any ? std::max(latest, EventTime(views)) : EventTime(views);
    any = true;
  }
  if (learner.events() == 0 && any) std::abort();

  const std::string analysis = CheckAnalysis(learner, kNowMs, /*repeat=*/true);
  if (durable_learner.AnalysisJson(kNowMs) != analysis) std::abort();
  // When both readers read the same lines, everything is equal; when the part reader also
  // counted lines damaged past their timestamp (of kinds it does not read whole), only the
  // counts and the newest time may differ.
  const std::string part_json = part_learner.AnalysisJson(kNowMs, sections);
  const std::string whole_json = learner.AnalysisJson(kNowMs, sections);
  const std::string part_text = part_learner.AnalysisText(kNowMs, sections);
  const std::string whole_text = learner.AnalysisText(kNowMs, sections);
  if (damaged_where_skipped) {
    // One learner folded a review the other never saw: no comparison holds.
  } else if (same_lines) {
    if (part_json != whole_json || part_text != whole_text ||
        part_learner.newest_ms() != learner.newest_ms()) {
      std::abort();
    }
  } else if (WithoutCounts(part_json, "\"events\":{", "}") !=
                 WithoutCounts(whole_json, "\"events\":{", "}") ||
             WithoutCounts(part_text, "kaizen analysis", "\n\n") !=
                 WithoutCounts(whole_text, "kaizen analysis", "\n\n")) {
    std::abort();
  }
  CheckExplain(learner, names.all(), kNowMs);
  CheckValidation(learner, input);
  if (any) {
    // A day after the newest event: nothing has aged out of the windows yet.
    const int64_t now = latest + model::kMsPerDay;
    CheckAnalysis(learner, now, /*repeat=*/false);
    CheckExplain(learner, names.all(), now);
  }
  return 0;
}
