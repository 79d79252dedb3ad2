#include "ingest/ingestor.h"

#include <fmt/format.h>

#include <unordered_set>

#include "ingest/enrich.h"
#include "model/limits.h"
#include "model/timestamp.h"
#include "model/uuid.h"
#include "store/log_format.h"

namespace kaizen::ingest {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

std::string Quote(std::string_view s) {
  return fmt::format("\"{}\"",
                     s.size() > 60 ? std::string(s.substr(0, 60)) + "..." : std::string(s));
}

}  // namespace

Ingestor::Ingestor(std::string home, store::FileSystem* fs)
    : log_(std::move(home), fs), cache_(&log_) {}

std::vector<store::RecoveryNote> Ingestor::TakeNotes() { return std::exchange(notes_, {}); }

Status Ingestor::Ingest(std::string_view input, const IngestOptions& options,
                        IngestSummary* summary) {
  const ThemeTaxonomy& taxonomy = options.taxonomy ? *options.taxonomy : ThemeTaxonomy::Default();
  simdjson::dom::parser parser;
  if (parser.allocate(model::kMaxEventBytes, model::kMaxDepth) != simdjson::SUCCESS) {
    return ResourceExhausted("cannot allocate the JSON parser");
  }
  ValidateOptions vopts;
  vopts.now_ms = options.now_ms;
  vopts.expected_kind = options.expected_kind;

  size_t pos = 0;
  uint64_t line_number = 0;
  while (pos < input.size()) {
    KZ_ASSIGN_OR_RETURN(auto lock, log_.Lock());
    Status caught_up = cache_.CatchUp(&notes_);
    if (!caught_up.ok()) return caught_up;
    IngestState& state = cache_.state();

    std::map<std::string, std::string> by_day;
    std::vector<CacheRecord> records;
    std::vector<LineResult> results;
    size_t chunk_events = 0, chunk_bytes = 0;
    while (pos < input.size() && chunk_events < options.chunk_events &&
           chunk_bytes < options.chunk_bytes) {
      size_t nl = input.find('\n', pos);
      size_t end = nl == std::string_view::npos ? input.size() : nl;
      std::string_view raw = input.substr(pos, end - pos);
      pos = nl == std::string_view::npos ? input.size() : nl + 1;
      ++line_number;
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      if (Trim(raw).empty()) {
        ++summary->blank;
        continue;
      }
      ++chunk_events;
      chunk_bytes += raw.size();
      LineResult r;
      r.line_number = line_number;
      r.text = raw;
      auto refuse = [&](std::string path, std::string message) {
        r.errors.push_back({std::move(path), std::move(message)});
      };
      simdjson::dom::element event;
      if (raw.size() > model::kMaxEventBytes) {
        refuse("(event)", fmt::format("is {} bytes, larger than the limit of {} bytes", raw.size(),
                                      model::kMaxEventBytes));
      } else if (auto err = parser.parse(raw.data(), raw.size(), false).get(event)) {
        refuse("(event)", DescribeParseError(err));
      }
      EventFacts facts;
      if (r.errors.empty()) r.errors = ValidateEvent(event, vopts, &facts);
      // Checks against the log (and against the lines before this one in the batch, which the
      // state already holds).
      if (r.errors.empty()) {
        if (facts.id && state.KindOf(*facts.id)) {
          refuse("id", fmt::format("{} is already recorded (duplicate event)",
                                   Quote(facts.id->ToString())));
        }
        if (facts.kind == model::EventKind::kFeedback &&
            state.HasModalSession(HashKey(facts.modal_id, facts.session_id))) {
          refuse("modalId",
                 fmt::format("{} was already answered in session {} (duplicate submission)",
                             Quote(facts.modal_id), Quote(facts.session_id)));
        }
        for (const WorkReference& ref : facts.references) {
          bool known = ref.version.empty() ? state.HasArtifact(HashKey(ref.id))
                                           : state.HasArtifactVersion(HashKey(ref.id, ref.version));
          if (!known) {
            refuse(ref.path + ".id",
                   fmt::format("{}{} names no recorded work event (record the work first, or give "
                               "the full WorkProductRef)",
                               Quote(ref.id),
                               ref.version.empty() ? "" : " version " + Quote(ref.version)));
          }
        }
        if (facts.kind == model::EventKind::kWork &&
            state.HasArtifactVersion(HashKey(facts.artifact_id, facts.artifact_version))) {
          refuse("workProduct.version",
                 fmt::format("{} of artifact {} is already recorded (submit a new version)",
                             Quote(facts.artifact_version), Quote(facts.artifact_id)));
        }
        if (facts.resolves && state.KindOf(*facts.resolves) != model::EventKind::kError) {
          refuse("resolves", fmt::format("{} names no recorded error event",
                                         Quote(facts.resolves->ToString())));
        }
      }
      if (!r.errors.empty()) {
        ++summary->rejected;
        results.push_back(std::move(r));
        continue;
      }
      // Enrichment.
      model::Timestamp ts = facts.timestamp.value_or(model::Timestamp{options.now_ms, 0});
      model::Uuid id = facts.id.value_or(model::NewUuidV7(ts.unix_ms));
      Enrichment e;
      e.kind = model::KindName(facts.kind);
      e.id = id.ToString();
      e.timestamp = model::FormatUtc(ts.unix_ms);
      if (facts.kind == model::EventKind::kFeedback) {
        model::CivilTime local = model::ToCivil(ts.unix_ms + int64_t{ts.offset_minutes} * 60000);
        e.time_of_day = TimeOfDay(local.hour);
        e.day_of_week = DayOfWeek(local.weekday);
        e.session_fatigue = state.SessionReviews(HashSession(facts.session_id)) + 1;
        std::optional<double> prediction = facts.prediction;
        if (!prediction && !facts.has_work_product_inline && !facts.references.empty()) {
          const WorkReference& ref = facts.references.front();
          if (ref.path == "workProduct") {
            prediction = state.Prediction(ref.version.empty() ? HashKey(ref.id)
                                                              : HashKey(ref.id, ref.version));
          }
        }
        if (prediction && facts.mean_score) e.prediction_delta = *facts.mean_score - *prediction;
        simdjson::dom::object free_text;
        if (event["freeText"].get_object().get(free_text) == simdjson::SUCCESS) {
          AnalyzeFreeText(free_text, taxonomy, &e);
        }
      } else if (facts.kind == model::EventKind::kReward) {
        e.signal_value = facts.normalized_signal;
      } else if (facts.kind == model::EventKind::kCorrection) {
        e.correction_category =
            CorrectionCategory(event["correction_type"].get_string().value_unsafe());
      }
      WriteStoredEvent(event.get_object().value_unsafe(), e, &by_day[model::FormatDay(ts.unix_ms)]);
      auto record = RecordOf(event, &facts.kind, &id);
      state.Apply(*record);
      records.push_back(*record);
      r.stored = true;
      r.id = std::move(e.id);
      results.push_back(std::move(r));
    }
    if (!by_day.empty()) {
      Status appended = log_.Append(by_day);
      if (!appended.ok()) {
        cache_.Forget();  // the state holds events that were not stored
        return appended;
      }
      std::map<std::string, uint64_t> bytes;
      for (const auto& [day, data] : by_day)
        bytes[day + std::string(store::kRawSuffix)] = data.size();
      Status committed = cache_.Commit(records, bytes);
      if (!committed.ok()) cache_.Forget();  // derived only: the events are durable
    }
    lock.reset();
    // Acknowledge only now that the chunk is durable.
    for (const LineResult& r : results) {
      if (r.stored) ++summary->stored;
      if (options.on_line) options.on_line(r);
    }
    if (options.on_progress) options.on_progress(pos);
  }
  return Status::Ok();
}

}  // namespace kaizen::ingest
