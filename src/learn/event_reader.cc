// The reader itself: the line scanner and the dispatch to each kind's decoder, which live in
// event_reader_*.cc so that no one file holds every kind; and the resolution in log order.
#include "learn/event_reader.h"

#include <optional>

#include "learn/event_reader_internal.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

namespace od = simdjson::ondemand;
using internal::AdminField;
using internal::CorrectionField;
using internal::ErrorField;
using internal::LoopField;
using internal::OutcomeField;
using internal::PromptField;
using internal::RawKey;
using internal::ReadReviewField;
using internal::ResetReview;
using internal::Resolve;
using internal::RewardField;
using internal::Str;
using internal::tls_escaped;
using internal::WorkField;
using simdjson::SUCCESS;

// Empties the view of `kind` for a new event (the vectors keep their capacity).
void StartView(model::EventKind kind, EventViews* out) {
  out->kind = kind;
  switch (kind) {
    case model::EventKind::kFeedback:
      ResetReview(&out->review);
      break;
    case model::EventKind::kWork:
      out->work = model::WorkView();
      break;
    case model::EventKind::kOutcome:
      out->outcome.files_touched.clear();
      out->outcome.criteria.clear();
      out->outcome.patterns.clear();
      out->outcome = model::OutcomeView{0,
                                        {},
                                        {},
                                        {},
                                        {},
                                        {},
                                        {},
                                        0,
                                        0,
                                        0,
                                        false,
                                        std::move(out->outcome.files_touched),
                                        std::move(out->outcome.criteria),
                                        std::move(out->outcome.patterns)};
      break;
    case model::EventKind::kError:
      out->error = model::ErrorView();
      break;
    case model::EventKind::kReward:
      out->reward = model::RewardView();
      break;
    case model::EventKind::kCorrection:
      out->correction = model::CorrectionView();
      break;
    case model::EventKind::kLoop:
      out->loop = model::LoopView();
      break;
    case model::EventKind::kAdmin:
      out->admin = model::AdminView();
      break;
    case model::EventKind::kPrompt:
      out->prompt.themes.clear();
      out->prompt = model::PromptView{.themes = std::move(out->prompt.themes)};
      break;
  }
}

// The time field of the kind's view: one place for EventTime to read and the readers to set.
template <typename Views>  // EventViews, or const EventViews
auto& TimeOf(Views& e) {
  switch (e.kind) {
    case model::EventKind::kFeedback:
      return e.review.at_ms;
    case model::EventKind::kWork:
      return e.work.at_ms;
    case model::EventKind::kOutcome:
      return e.outcome.at_ms;
    case model::EventKind::kError:
      return e.error.at_ms;
    case model::EventKind::kReward:
      return e.reward.at_ms;
    case model::EventKind::kCorrection:
      return e.correction.at_ms;
    case model::EventKind::kLoop:
      return e.loop.at_ms;
    case model::EventKind::kPrompt:
      return e.prompt.at_ms;
    case model::EventKind::kAdmin:
      break;
  }
  return e.admin.at_ms;
}

// The string value of `"<key>":` at *pos, when it has no escape sequence and only printable ASCII
// (what ingest writes for kind, id and timestamp), and *pos moved past its closing quote.
std::optional<std::string_view> PlainStringField(std::string_view line, std::string_view key,
                                                 size_t* pos) {
  // key, with its quotes and colon, then the value's opening quote.
  if (line.size() < *pos + key.size() + 4 || line[*pos] != '"' ||
      line.compare(*pos + 1, key.size(), key) != 0 || line[*pos + 1 + key.size()] != '"' ||
      line[*pos + 2 + key.size()] != ':' || line[*pos + 3 + key.size()] != '"') {
    return std::nullopt;
  }
  const size_t start = *pos + key.size() + 4;
  for (size_t i = start; i < line.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(line[i]);
    if (c == '"') {
      *pos = i + 1;
      return line.substr(start, i - start);
    }
    if (c == '\\' || c < 0x20 || c >= 0x7f) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

bool EventReader::ReadHeaderOnly(std::string_view line, EventViews* out) const {
  // {"kind":K,["id":I,]"timestamp":T then `,` or `}` (the order ingest writes), on a line that
  // ends with `}`: a torn or truncated one is left to the parser, which reports it.
  const size_t last = line.find_last_not_of(" \t\r");
  if (line.empty() || line[0] != '{' || last == std::string_view::npos || line[last] != '}') {
    return false;
  }
  size_t pos = 1;
  const std::optional<std::string_view> kind_name = PlainStringField(line, "kind", &pos);
  if (!kind_name) return false;
  const std::optional<model::EventKind> kind = model::ParseKind(*kind_name);
  if (!kind || read_whole_.Has(*kind)) return false;
  if (pos >= line.size() || line[pos++] != ',') return false;
  if (PlainStringField(line, "id", &pos)) {
    if (pos >= line.size() || line[pos++] != ',') return false;
  }
  const std::optional<std::string_view> time = PlainStringField(line, "timestamp", &pos);
  if (!time || pos >= line.size() || (line[pos] != ',' && line[pos] != '}')) return false;
  Result<model::Timestamp> ts = model::ParseTimestamp(*time);
  if (!ts.ok()) return false;
  out->prepared.by = nullptr;
  StartView(*kind, out);
  TimeOf(*out) = ts.value().unix_ms;
  return true;
}

bool EventReader::ReadDurable(od::object event, std::deque<std::string>* escaped, EventViews* out) {
  std::deque<std::string>* saved = tls_escaped;
  tls_escaped = escaped;
  bool ok = Read(event, out);
  tls_escaped = saved;
  return ok;
}

bool EventReader::Read(od::object event, EventViews* out) {
  out->prepared.by = nullptr;
  std::optional<model::EventKind> kind;
  int64_t at = 0;
  bool have_time = false;
  bool first = true;
  for (auto result : event) {
    od::field field;
    if (std::move(result).get(field) != SUCCESS) return false;
    std::string_view key = RawKey(field);
    od::value x = field.value();
    if (first) {
      // A stored line starts with its kind; anything else is not one of ours.
      if (key != "kind") return false;
      kind = model::ParseKind(Str(x));
      if (!kind) return false;
      StartView(*kind, out);
      first = false;
      continue;
    }
    if (key == "timestamp") {
      // The first one counts: a reader that stops after it (set_read_whole) sees no other. A
      // stored line has one; a hand-edited one may repeat the key.
      if (have_time) continue;
      Result<model::Timestamp> ts = model::ParseTimestamp(Str(x));
      if (!ts.ok()) return false;
      at = ts.value().unix_ms;
      have_time = true;
      if (!read_whole_.Has(*kind)) break;  // the rest is left unread
      continue;
    }
    if (!read_whole_.Has(*kind)) continue;
    bool ok = true;
    switch (*kind) {
      case model::EventKind::kFeedback:
        ok = ReadReviewField(key, x, {review_fields_, &meta_parser_, &meta_padded_}, &out->review);
        break;
      case model::EventKind::kWork:
        ok = WorkField(key, x, &out->work);
        break;
      case model::EventKind::kOutcome:
        ok = OutcomeField(key, x, &out->outcome);
        break;
      case model::EventKind::kError:
        ok = ErrorField(key, x, &out->error);
        break;
      case model::EventKind::kReward:
        ok = RewardField(key, x, &out->reward);
        break;
      case model::EventKind::kCorrection:
        ok = CorrectionField(key, x, &out->correction);
        break;
      case model::EventKind::kLoop:
        ok = LoopField(key, x, &out->loop);
        break;
      case model::EventKind::kAdmin:
        ok = AdminField(key, x, &out->admin);
        break;
      case model::EventKind::kPrompt:
        ok = PromptField(key, x, &out->prompt);
        break;
    }
    if (!ok) return false;
  }
  if (!kind || !have_time) return false;
  TimeOf(*out) = at;
  return true;
}

int64_t EventTime(const EventViews& e) { return TimeOf(e); }

void ResolveInLogOrder(WorkRegistry* registry, EventViews* event) {
  if (event->kind == model::EventKind::kWork) {
    // The same strings, now the registry's: the review queue keeps them without copying.
    event->work = registry->Register(event->work);
    return;
  }
  if (event->kind != model::EventKind::kFeedback) return;
  model::ReviewView& r = event->review;
  if (!r.work_known) r.work_known = Resolve(*registry, &r.work);
  if (r.comparison) {
    Resolve(*registry, &r.comparison->option_a);
    Resolve(*registry, &r.comparison->option_b);
  }
  // The feedback's own mcpServerType wins; else the work event's (seed 000: the task type is the
  // server type, else the work product's type).
  std::string_view own_server = r.server_type;
  r.server_type = !own_server.empty() ? own_server : r.work.server_type;
  r.task_type = !r.server_type.empty() ? r.server_type : r.work.type;
  if (r.project.empty()) r.project = r.work.project;
}

bool EventReader::ReadJson(std::string_view json, EventViews* out) {
  padded_.assign(json);
  padded_.append(simdjson::SIMDJSON_PADDING, ' ');
  od::document doc;
  if (parser_.iterate(padded_.data(), json.size(), padded_.size()).get(doc) != SUCCESS) {
    return false;
  }
  od::object o;
  if (doc.get_object().get(o) != SUCCESS) return false;
  return Read(o, out);
}

}  // namespace kaizen::learn
