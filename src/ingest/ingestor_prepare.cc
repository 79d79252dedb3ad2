// The Ingestor's stateless stages (parse, validate, privacy, enrich, serialize), apart from the
// steps under the writer lock: they run on every core at once, a chunk ahead of the commit, and
// touch nothing the other threads do.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "ingest/enrich.h"
#include "ingest/ingestor.h"
#include "ingest/ingestor_steps.h"
#include "ingest/stored_line.h"
#include "model/json_access.h"
#include "model/limits.h"
#include "model/timestamp.h"
#include "model/uuid.h"

namespace kaizen::ingest {
namespace {

using detail::PreparedLine;

// A line from a chunk before, made ready for the next: every field reset, but the buffers of its
// strings and lists kept (a few dozen bytes for each id, that would otherwise be allocated and
// freed again for every event).
void Recycle(PreparedLine& line) {
  PreparedLine fresh;
  auto keep = [](auto& from, auto& to) {
    to = std::move(from);
    to.clear();
  };
  keep(line.id_text, fresh.id_text);
  keep(line.modal_id, fresh.modal_id);
  keep(line.session_id, fresh.session_id);
  keep(line.artifact_id, fresh.artifact_id);
  keep(line.artifact_version, fresh.artifact_version);
  keep(line.refs, fresh.refs);
  keep(line.ref_text, fresh.ref_text);
  keep(line.users, fresh.users);
  line = std::move(fresh);
}

// Asks for the cache lines a prepared line's reset and preparation write first: the struct and
// the start of its kept buffers (the hardware follows on from there).
void Prefetch(const PreparedLine& line) {
  const char* self = reinterpret_cast<const char*>(&line);
  for (size_t at = 0; at < sizeof line; at += 64) __builtin_prefetch(self + at, 1);
  for (const std::string* kept :
       {&line.id_text, &line.modal_id, &line.session_id, &line.ref_text}) {
    __builtin_prefetch(kept->data(), 1);
  }
}

// The reason a line is not stored, as on_line reports it.
void Refuse(PreparedLine* out, std::string path, std::string message) {
  out->errors.push_back({std::move(path), std::move(message)});
}

// The line as received, parsed into *event and validated into *facts. False: refused.
bool ParseAndValidate(const CutLine& line, simdjson::dom::parser& parser,
                      const ValidateOptions& vopts, simdjson::dom::element* event,
                      EventFacts* facts, PreparedLine* out) {
  const std::string_view raw = line.text;
  if (line.length > model::kMaxEventBytes) {
    Refuse(out, "(event)",
           fmt::format("is {} bytes, larger than the limit of {} bytes{}", line.length,
                       model::kMaxEventBytes,
                       raw.size() < line.length
                           ? fmt::format(" (only its first {} bytes were kept)", raw.size())
                           : ""));
    return false;
  }
  if (auto err = parser.parse(raw.data(), raw.size(), false).get(*event)) {
    Refuse(out, "(event)", DescribeParseError(err, raw));
    return false;
  }
  out->errors = ValidateEvent(*event, vopts, facts);
  return out->errors.empty();
}

// Privacy, before anything is derived from the text: the consent gate's keys, then PII
// replaced by placeholders (themes and sentiment are computed on the redacted text). When there
// was PII, *event, *facts and *text are the rewritten event's. False: refused.
bool ApplyPrivacy(simdjson::dom::parser& parser, const ValidateOptions& vopts,
                  const Redactor& redactor, std::string_view nonce, simdjson::dom::element* event,
                  EventFacts* facts, std::string_view* text, PreparedLine* out) {
  out->consent = ConsentOf(*event, facts->kind).has_value() ||
                 (facts->kind == model::EventKind::kAdmin &&
                  model::StringAt(*event, "action") == "deletion_request");
  const EventOwners owners = OwnersOf(*event, facts->kind);
  for (std::string_view user : owners.users) out->users.emplace_back(user);
  std::string rewritten;
  auto placeholder = [&](const PiiMatch& m, std::string_view value) {
    out->pii.push_back({m.category, m.key, std::string(value)});
    return detail::Placeholder(m.category, nonce, out->pii.size() - 1);
  };
  if (RewriteForPrivacy(*event, facts->kind, redactor, placeholder, &rewritten)) {
    // Whose PII it is, for the vault; copied only now (most events have none), and before the
    // parse below reuses the buffers `owners` views.
    if (!owners.users.empty()) out->source.user = owners.users.back();  // admin: the subject
    if (!owners.sessions.empty()) out->source.session = owners.sessions.front();
    out->rewritten = simdjson::padded_string(rewritten);
    *text = std::string_view(out->rewritten.data(), out->rewritten.size());
    if (auto err = parser.parse(out->rewritten.data(), out->rewritten.size(), false).get(*event)) {
      Refuse(out, "(event)", DescribeParseError(err));
      return false;
    }
    *facts = EventFacts();
    out->errors = ValidateEvent(*event, vopts, facts);
    if (!out->errors.empty())
      return false;  // e.g. a string pushed over the size limit by its tokens
  }
  return true;
}

// What kaizen adds to the event (enrich.h) into *e, and what the stateful checks need of it into
// *out. Returns the event's timestamp; e->timestamp views `timestamp_text`.
model::Timestamp Enrich(simdjson::dom::element event, const EventFacts& facts,
                        const text::ThemeTaxonomy* taxonomy, int64_t now_ms,
                        char (&timestamp_text)[model::kUtcTextMax], Enrichment* e,
                        PreparedLine* out) {
  model::Timestamp ts = facts.timestamp.value_or(model::Timestamp{now_ms, 0});
  out->kind = facts.kind;
  out->id_given = facts.id.has_value();
  out->id =
      facts.id
          ? *facts.id
          : model::NewUuidV7(ts.unix_ms);  // not value_or: it would draw randomness for every event
  e->kind = model::KindName(facts.kind);
  char id_text[model::Uuid::kTextSize];
  out->id_text.assign(out->id.ToChars(id_text));  // its buffer kept from chunk to chunk
  e->id = out->id_text;
  e->timestamp = model::FormatUtc(ts.unix_ms, timestamp_text);
  out->day.assign(e->timestamp.substr(0, 10));
  switch (facts.kind) {
    case model::EventKind::kFeedback: {
      model::CivilTime local = model::ToCivil(ts.unix_ms + int64_t{ts.offset_minutes} * 60000);
      e->time_of_day = TimeOfDay(local.hour);
      e->day_of_week = DayOfWeek(local.weekday);
      simdjson::dom::object free_text;
      if (event["freeText"].get_object().get(free_text) == simdjson::SUCCESS) {
        AnalyzeFreeText(free_text, taxonomy ? *taxonomy : text::ThemeTaxonomy::Default(), e);
      }
      out->modal_id = facts.modal_id;
      out->session_id = facts.session_id;
      for (const WorkReference& ref : facts.references) {
        PreparedLine::Ref r;
        r.key = ref.version.empty() ? HashKey(ref.id) : HashKey(ref.id, ref.version);
        r.at = out->ref_text.size();
        r.path_size = ref.path.size();
        r.id_size = ref.id.size();
        r.version_size = ref.version.size();
        out->ref_text.append(ref.path).append(ref.id).append(ref.version);
        out->refs.push_back(r);
      }
      if (facts.has_work_product_inline) out->inline_prediction = facts.prediction;
      out->mean_score = facts.mean_score;
      break;
    }
    case model::EventKind::kWork:
      out->artifact_id = facts.artifact_id;
      out->artifact_version = facts.artifact_version;
      break;
    case model::EventKind::kReward:
      e->signal_value = facts.normalized_signal;
      break;
    case model::EventKind::kCorrection:
      e->correction_category =
          CorrectionCategory(event["correction_type"].get_string().value_unsafe());
      break;
    case model::EventKind::kError:
      out->resolves = facts.resolves;
      break;
    case model::EventKind::kPrompt:
      AnalyzePrompt(event["text"].get_string().value_unsafe(),
                    taxonomy ? *taxonomy : text::ThemeTaxonomy::Default(), e);
      break;
    default:
      break;
  }
  return ts;
}

// The stored line, `event` with its enrichment, appended to *stored (this thread's buffer number
// stored_in of the chunk). False: refused.
bool WriteStoredLine(simdjson::dom::element event, simdjson::dom::parser& parser,
                     std::string_view text, const Enrichment& e, StoredLineWriter& writer,
                     std::string* stored, size_t stored_in, PreparedLine* out) {
  // `parser` parsed `text` last (the rewritten text when there was PII).
  StoredLine written;
  const size_t begin = stored->size();
  if (!writer.Write(event.get_object().value_unsafe(), JsonTokens::Of(parser, text), e, stored,
                    &written)) {
    Refuse(out, "(event)",
           "could not be copied into its stored form (the parser's tokens do not fit the text "
           "it parsed)");
    return false;
  }
  // Room for the session count and prediction delta FinishStoredEvent adds.
  if (written.text.size() + 64 > model::kMaxStoredEventBytes) {
    Refuse(out, "(event)",
           fmt::format("with enrichment would be {} bytes, larger than the stored limit of "
                       "{} bytes (shorten its free text)",
                       written.text.size(), model::kMaxStoredEventBytes));
    stored->resize(begin);
    return false;
  }
  out->stored_in = stored_in;
  out->stored_begin = begin;
  out->stored_size = written.text.size();
  out->fatigue_at = written.fatigue_at;
  return true;
}

// The stateless stages for one line. Runs on several threads at once; touches only `parser`,
// `writer`, `stored` (this thread's buffer number stored_in of the chunk) and `out`.
void Prepare(const CutLine& line, simdjson::dom::parser& parser, StoredLineWriter& writer,
             std::string* stored, size_t stored_in, const ValidateOptions& vopts,
             const text::ThemeTaxonomy* taxonomy, int64_t now_ms, const Redactor& redactor,
             std::string_view nonce, PreparedLine* out) {
  simdjson::dom::element event;
  EventFacts facts;
  if (!ParseAndValidate(line, parser, vopts, &event, &facts, out)) return;
  std::string_view text = line.text;  // what `event` was parsed from
  if (!ApplyPrivacy(parser, vopts, redactor, nonce, &event, &facts, &text, out)) return;
  char timestamp_text[model::kUtcTextMax];  // what the enrichment's timestamp views
  Enrichment e;
  const model::Timestamp ts = Enrich(event, facts, taxonomy, now_ms, timestamp_text, &e, out);
  if (!WriteStoredLine(event, parser, text, e, writer, stored, stored_in, out)) return;
  out->record = *RecordOf(event, &facts.kind, &out->id);
  if (out->record.flags & CacheRecord::kConsent)
    out->record.session = static_cast<uint64_t>(ts.unix_ms);
}

}  // namespace

// Prepares blocks of `chunk` with scratch_[s] until none is left.
void Ingestor::PrepareBlocks(Chunk* chunk, size_t s, const IngestOptions& options,
                             const ValidateOptions& vopts, const text::ThemeTaxonomy* taxonomy) {
  PrepareScratch& scratch = scratch_[s];
  std::string* stored = &chunk->stored[s];
  constexpr size_t kBlock = 32;  // lines: a few hundred microseconds of work
  std::vector<PreparedLine>& lines = chunk->lines;
  for (size_t begin = chunk->next_block.fetch_add(kBlock); begin < lines.size();
       begin = chunk->next_block.fetch_add(kBlock)) {
    const size_t end = std::min(lines.size(), begin + kBlock);
    for (size_t i = begin; i < end; ++i) {
      // The next line's memory, from two chunks ago, is out of every cache: fetched while
      // this one is prepared rather than when it is reset.
      if (i + 1 < end) Prefetch(lines[i + 1]);
      // Reset here, by the thread that prepares it: resetting it where the chunk is cut cost
      // a second miss.
      PreparedLine& line = lines[i];
      Recycle(line);
      line.line_number = chunk->cut.lines[i].number;
      line.text = chunk->cut.lines[i].text;
      Prepare(chunk->cut.lines[i], scratch.parser, scratch.writer, stored, s, vopts, taxonomy,
              options.now_ms, *redactor_, placeholder_nonce_, &line);
    }
  }
}

// Cuts the next chunk and runs the stateless stages on it, in parallel. The thread that
// commits may join in (PrepareBlocks) once `claimable` is set; it is set on every return, so
// nobody waits for a chunk that failed to be read.
// REQUIRES: chunk->claimable is false and chunk->next_block 0, set before the thread that
// runs this started, so that no helper can see the chunk's last round as claimable.
Status Ingestor::CutAndPrepare(LineSource& source, const IngestOptions& options,
                               const ValidateOptions& vopts, const text::ThemeTaxonomy* taxonomy,
                               size_t threads, Chunk* chunk) {
  struct Publish {  // an early return must not leave a helper waiting
    Chunk* chunk;
    ~Publish() {
      chunk->claimable.store(true);
      chunk->claimable.notify_all();
    }
  } publish{chunk};
  if (Status read = source.Next(options.chunk_events, options.chunk_bytes, &chunk->cut);
      !read.ok()) {
    chunk->lines.clear();
    return read;
  }
  chunk->lines.resize(chunk->cut.lines.size());  // reset as they are prepared
  chunk->stored.resize(scratch_.size());
  for (std::string& buffer : chunk->stored) buffer.clear();
  // No line is longer than its chunk: a single small event does not need 1 MiB parsers.
  const size_t capacity = std::clamp<size_t>(chunk->cut.bytes, 4096, model::kMaxEventBytes);
  for (auto& s : scratch_) {
    if (s.parser.capacity() >= capacity) continue;
    if (s.parser.allocate(capacity, model::kMaxDepth) != simdjson::SUCCESS) {
      chunk->lines.clear();
      return ResourceExhausted("cannot allocate the JSON parser");
    }
  }
  chunk->claimable.store(true);
  chunk->claimable.notify_all();
  const size_t workers = std::min(threads, std::max<size_t>(1, chunk->lines.size() / 64));
  std::vector<std::thread> pool;
  for (size_t w = 1; w < workers; ++w)
    pool.emplace_back([&, w] { PrepareBlocks(chunk, w, options, vopts, taxonomy); });
  PrepareBlocks(chunk, 0, options, vopts, taxonomy);
  for (auto& t : pool) t.join();
  return Status::Ok();
}

}  // namespace kaizen::ingest
