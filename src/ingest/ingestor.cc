#include "ingest/ingestor.h"
#include "ingest/store_mirror.h"

#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include <sodium.h>

#include "ingest/enrich.h"
#include "ingest/pii_vault.h"
#include "ingest/stored_line.h"
#include "model/json_access.h"
#include "model/limits.h"
#include "model/timestamp.h"
#include "model/uuid.h"
#include "store/log_format.h"

namespace kaizen::ingest {
namespace {

// One line after the stateless stages (parse, validate, enrich, serialize), with what the
// stateful checks need copied out of the parsed document.
struct PreparedLine {
  uint64_t line_number = 0;
  std::string_view text;
  std::vector<FieldError> errors;

  model::EventKind kind = model::EventKind::kFeedback;
  model::Uuid id;
  bool id_given = false;
  // The stored line: stored_size bytes from stored_begin in the chunk's buffer number stored_in
  // (the preparing thread's), fatigue_at from its start; or `resolved`, when it had PII.
  size_t stored_in = 0, stored_begin = 0, stored_size = 0;
  size_t fatigue_at = std::string::npos;
  std::string resolved;  // the stored line with the PII's tokens in place of its placeholders
  std::string id_text;   // `id` as text, as the stored line has it
  std::string day;       // YYYY-MM-DD: the raw file the line goes to
  CacheRecord record;
  // feedback
  std::string modal_id, session_id;
  // A reference to a recorded work event. Its path, id and version are kept one after the other
  // in ref_text, a buffer for all the line's references kept from chunk to chunk (not three
  // strings each); offsets, not views, since a short string's bytes move with it.
  struct Ref {
    Key128 key;
    size_t at = 0, path_size = 0, id_size = 0, version_size = 0;
  };
  std::vector<Ref> refs;
  std::string ref_text;
  std::string_view RefPath(const Ref& r) const {
    return std::string_view(ref_text).substr(r.at, r.path_size);
  }
  std::string_view RefId(const Ref& r) const {
    return std::string_view(ref_text).substr(r.at + r.path_size, r.id_size);
  }
  std::string_view RefVersion(const Ref& r) const {  // empty: the latest version
    return std::string_view(ref_text).substr(r.at + r.path_size + r.id_size, r.version_size);
  }
  std::optional<double> inline_prediction, mean_score;
  // work
  std::string artifact_id, artifact_version;
  // error
  std::optional<model::Uuid> resolves;
  // privacy
  simdjson::padded_string
      rewritten;  // the event with PII replaced by placeholders, when it had any
  struct Pii {
    PiiCategory category;
    std::string key, value;
  };
  std::vector<Pii> pii;            // placeholder i stands for pii[i]
  std::vector<std::string> users;  // hashed for the consent gate only when someone opted out
  bool consent = false;            // admin consent or deletion_request: never held back by the gate
  PiiVault::Source source;
  bool skipped = false;
};

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

// The placeholder for pii[index] in a prepared line: "[NAME_<nonce>.<index>]". The nonce is random
// per Ingestor, so no input can contain it; the tokens replace placeholders under the writer lock,
// where the PII map is consistent across processes.
std::string Placeholder(PiiCategory category, std::string_view nonce, size_t index) {
  return fmt::format("[{}_{}.{}]", PiiCategoryName(category), nonce, index);
}

// line.text with its placeholders replaced by token(pii[index]), into *resolved; returns where
// line.fatigue_at's digit is in it.
size_t ResolvePlaceholders(std::string_view nonce, const std::vector<PreparedLine::Pii>& pii,
                           const std::function<std::string(const PreparedLine::Pii&)>& token,
                           const StoredLine& line, std::string* resolved) {
  const std::string marker = fmt::format("_{}.", nonce);
  const std::string_view text = line.text;
  std::string& out = *resolved;
  out.clear();
  out.reserve(text.size() + 8 * pii.size());
  size_t done = 0;
  int64_t fatigue_shift = 0;
  for (size_t pos = text.find(marker); pos != std::string_view::npos;
       pos = text.find(marker, pos)) {
    size_t digits = pos + marker.size(), close = text.find(']', digits);
    size_t index = 0;
    bool ok = close != std::string_view::npos && close > digits;
    for (size_t i = digits; ok && i < close; ++i) {
      ok = text[i] >= '0' && text[i] <= '9';
      index = index * 10 + static_cast<size_t>(text[i] - '0');
    }
    ok = ok && index < pii.size();
    const size_t name = ok ? PiiCategoryName(pii[index].category).size() : 0;
    ok = ok && pos >= name + 1 && pos - name - 1 >= done && text[pos - name - 1] == '[';
    if (!ok) {
      pos += marker.size();
      continue;
    }
    const size_t start = pos - name - 1, end = close + 1;
    out.append(text.substr(done, start - done));
    std::string token_text = token(pii[index]);
    if (line.fatigue_at != std::string::npos && end <= line.fatigue_at) {
      fatigue_shift += static_cast<int64_t>(token_text.size()) - static_cast<int64_t>(end - start);
    }
    out += token_text;
    done = end;
    pos = end;
  }
  out.append(text.substr(done));
  if (line.fatigue_at == std::string::npos) return std::string::npos;
  return static_cast<size_t>(static_cast<int64_t>(line.fatigue_at) + fatigue_shift);
}

// The stateless stages for one line. Runs on several threads at once; touches only `parser`,
// `writer`, `stored` (this thread's buffer number stored_in of the chunk) and `out`.
void Prepare(const CutLine& line, simdjson::dom::parser& parser, StoredLineWriter& writer,
             std::string* stored, size_t stored_in, const ValidateOptions& vopts,
             const text::ThemeTaxonomy* taxonomy, int64_t now_ms, const Redactor& redactor,
             std::string_view nonce, PreparedLine* out) {
  auto refuse = [&](std::string path, std::string message) {
    out->errors.push_back({std::move(path), std::move(message)});
  };
  const std::string_view raw = line.text;
  if (line.length > model::kMaxEventBytes) {
    refuse("(event)",
           fmt::format("is {} bytes, larger than the limit of {} bytes{}", line.length,
                       model::kMaxEventBytes,
                       raw.size() < line.length
                           ? fmt::format(" (only its first {} bytes were kept)", raw.size())
                           : ""));
    return;
  }
  simdjson::dom::element event;
  if (auto err = parser.parse(raw.data(), raw.size(), false).get(event)) {
    refuse("(event)", DescribeParseError(err, raw));
    return;
  }
  EventFacts facts;
  out->errors = ValidateEvent(event, vopts, &facts);
  if (!out->errors.empty()) return;

  // Privacy, before anything is derived from the text: the consent gate's keys, then PII
  // replaced by placeholders (themes and sentiment are computed on the redacted text).
  out->consent = ConsentOf(event, facts.kind).has_value() ||
                 (facts.kind == model::EventKind::kAdmin &&
                  model::StringAt(event, "action") == "deletion_request");
  const EventOwners owners = OwnersOf(event, facts.kind);
  for (std::string_view user : owners.users) out->users.emplace_back(user);
  std::string rewritten;
  std::string_view text = raw;  // what `event` was parsed from
  auto placeholder = [&](const PiiMatch& m, std::string_view value) {
    out->pii.push_back({m.category, m.key, std::string(value)});
    return Placeholder(m.category, nonce, out->pii.size() - 1);
  };
  if (RewriteForPrivacy(event, facts.kind, redactor, placeholder, &rewritten)) {
    // Whose PII it is, for the vault; copied only now (most events have none), and before the
    // parse below reuses the buffers `owners` views.
    if (!owners.users.empty()) out->source.user = owners.users.back();  // admin: the subject
    if (!owners.sessions.empty()) out->source.session = owners.sessions.front();
    out->rewritten = simdjson::padded_string(rewritten);
    text = std::string_view(out->rewritten.data(), out->rewritten.size());
    if (auto err = parser.parse(out->rewritten.data(), out->rewritten.size(), false).get(event)) {
      refuse("(event)", DescribeParseError(err));
      return;
    }
    facts = EventFacts();
    out->errors = ValidateEvent(event, vopts, &facts);
    if (!out->errors.empty()) return;  // e.g. a string pushed over the size limit by its tokens
  }

  model::Timestamp ts = facts.timestamp.value_or(model::Timestamp{now_ms, 0});
  out->kind = facts.kind;
  out->id_given = facts.id.has_value();
  out->id =
      facts.id
          ? *facts.id
          : model::NewUuidV7(ts.unix_ms);  // not value_or: it would draw randomness for every event
  Enrichment e;
  e.kind = model::KindName(facts.kind);
  char id_text[model::Uuid::kTextSize], timestamp_text[model::kUtcTextMax];
  out->id_text.assign(out->id.ToChars(id_text));  // its buffer kept from chunk to chunk
  e.id = out->id_text;
  e.timestamp = model::FormatUtc(ts.unix_ms, timestamp_text);
  out->day.assign(e.timestamp.substr(0, 10));
  switch (facts.kind) {
    case model::EventKind::kFeedback: {
      model::CivilTime local = model::ToCivil(ts.unix_ms + int64_t{ts.offset_minutes} * 60000);
      e.time_of_day = TimeOfDay(local.hour);
      e.day_of_week = DayOfWeek(local.weekday);
      simdjson::dom::object free_text;
      if (event["freeText"].get_object().get(free_text) == simdjson::SUCCESS) {
        AnalyzeFreeText(free_text, taxonomy ? *taxonomy : text::ThemeTaxonomy::Default(), &e);
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
      e.signal_value = facts.normalized_signal;
      break;
    case model::EventKind::kCorrection:
      e.correction_category =
          CorrectionCategory(event["correction_type"].get_string().value_unsafe());
      break;
    case model::EventKind::kError:
      out->resolves = facts.resolves;
      break;
    case model::EventKind::kPrompt:
      AnalyzePrompt(event["text"].get_string().value_unsafe(),
                    taxonomy ? *taxonomy : text::ThemeTaxonomy::Default(), &e);
      break;
    default:
      break;
  }
  // `parser` parsed `text` last (the rewritten text when there was PII).
  StoredLine written;
  const size_t begin = stored->size();
  if (!writer.Write(event.get_object().value_unsafe(), JsonTokens::Of(parser, text), e, stored,
                    &written)) {
    refuse("(event)",
           "could not be copied into its stored form (the parser's tokens do not fit the text "
           "it parsed)");
    return;
  }
  // Room for the session count and prediction delta FinishStoredEvent adds.
  if (written.text.size() + 64 > model::kMaxStoredEventBytes) {
    refuse("(event)",
           fmt::format("with enrichment would be {} bytes, larger than the stored limit of "
                       "{} bytes (shorten its free text)",
                       written.text.size(), model::kMaxStoredEventBytes));
    stored->resize(begin);
    return;
  }
  out->stored_in = stored_in;
  out->stored_begin = begin;
  out->stored_size = written.text.size();
  out->fatigue_at = written.fatigue_at;
  out->record = *RecordOf(event, &facts.kind, &out->id);
  if (out->record.flags & CacheRecord::kConsent)
    out->record.session = static_cast<uint64_t>(ts.unix_ms);
}

}  // namespace

Ingestor::Ingestor(std::string home, store::FileSystem* fs)
    : log_(std::move(home), fs), cache_(&log_) {}

Status Ingestor::Pull(uint64_t* pulled) {
  KZ_ASSIGN_OR_RETURN(auto lock, log_.Lock());
  KZ_RETURN_IF_ERROR(log_.EnsureLayout());
  return PullMirror(log_, cache_, pulled);  // catches the cache up when it has rows to check
}

std::vector<store::RecoveryNote> Ingestor::TakeNotes() { return std::exchange(notes_, {}); }

Status Ingestor::Ingest(std::string_view input, const IngestOptions& options,
                        IngestSummary* summary) {
  MemoryLineSource source(input);
  return Ingest(source, options, summary);
}

Status Ingestor::Ingest(LineSource& source, const IngestOptions& options, IngestSummary* summary) {
  // The shipped taxonomy is compiled on first use (a free text to read): a record of an event
  // without one does not pay for it.
  const text::ThemeTaxonomy* taxonomy = options.taxonomy;
  if (!redactor_) {
    KZ_ASSIGN_OR_RETURN(PrivacyConfig config, LoadPrivacyConfig(log_.home(), log_.fs()));
    KZ_ASSIGN_OR_RETURN(redactor_, SharedRedactor(config));
    unsigned char nonce[8];
    randombytes_buf(nonce, sizeof nonce);
    char hex[17];
    sodium_bin2hex(hex, sizeof hex, nonce, sizeof nonce);
    placeholder_nonce_ = hex;
  }
  // The stateless stages run on every core; the machine this was tuned on has two.
  // Read once: glibc opens /sys/devices/system/cpu/online on every call, and a server calls
  // Ingest for every group commit.
  static const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
  // One scratch per preparing thread, and one for the thread that commits, which prepares too
  // once its chunk is written.
  if (scratch_.size() != threads + 1) scratch_ = std::vector<PrepareScratch>(threads + 1);
  ValidateOptions vopts;
  vopts.now_ms = options.now_ms;
  vopts.expected_kind = options.expected_kind;

  // One chunk of the input: its lines as cut, then prepared.
  struct Chunk {
    LineChunk cut;
    std::vector<PreparedLine> lines;
    // The lines are prepared by whichever threads are free: each claims the next block of
    // lines until none is left. Splitting a chunk evenly between threads left a core idle
    // whenever one half took longer, or the thread committing the chunk before got the core.
    std::atomic<size_t> next_block{0};
    std::atomic<bool> claimable{false};  // `lines` are cut and reset: blocks may be claimed
    // The stored lines, one buffer per scratch (so per thread), each line after the last that
    // thread prepared; kept from chunk to chunk.
    std::vector<std::string> stored;
    StoredLine StoredOf(const PreparedLine& l) const {
      if (!l.resolved.empty()) return {l.resolved, l.fatigue_at};
      return {std::string_view(stored[l.stored_in]).substr(l.stored_begin, l.stored_size),
              l.fatigue_at};
    }
  };
  // Prepares blocks of `chunk` with scratch_[s] until none is left.
  auto help_prepare = [&](Chunk* chunk, size_t s) {
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
  };
  // Cuts the next chunk and runs the stateless stages on it, in parallel. The thread that
  // commits may join in (help_prepare) once `claimable` is set; it is set on every return, so
  // nobody waits for a chunk that failed to be read.
  // REQUIRES: chunk->claimable is false and chunk->next_block 0, set before the thread that
  // runs this started, so that no helper can see the chunk's last round as claimable.
  auto next_chunk = [&](Chunk* chunk) -> Status {
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
    for (size_t w = 1; w < workers; ++w) pool.emplace_back([&, w] { help_prepare(chunk, w); });
    help_prepare(chunk, 0);
    for (auto& t : pool) t.join();
    return Status::Ok();
  };

  absl::flat_hash_map<std::string, Key128> user_keys;  // UserKey(user), as met
  // Day files' buffers, kept from chunk to chunk: a fresh buffer per chunk cost a page fault per
  // 4 KiB written into it.
  std::vector<std::string> spare_days;
  // Two chunks in turn, each reused with its buffers: one checked and written while the other is
  // read and prepared.
  Chunk chunks[2];
  Chunk* chunk = &chunks[0];
  Chunk* next = &chunks[1];
  KZ_RETURN_IF_ERROR(next_chunk(chunk));
  // The events the input holds, estimated from its first chunk when it has enough lines to go
  // by, up to a bound (each costs about 50 bytes of the state's tables in advance).
  uint64_t expected_events = 0;
  if (chunk->lines.size() >= 1000) {
    constexpr uint64_t kMaxExpected = 4'000'000;
    const double per_byte =
        static_cast<double>(chunk->lines.size()) / static_cast<double>(chunk->cut.bytes);
    expected_events =
        chunk->lines.size() +
        std::min<uint64_t>(kMaxExpected, static_cast<uint64_t>(per_byte * source.BytesLeft()));
  }
  while (!chunk->lines.empty()) {
    std::vector<PreparedLine>& lines = chunk->lines;
    summary->blank += chunk->cut.blank;
    // Pipelined: the next chunk is read and prepared while this one is checked, written and
    // fsynced. No thread when the input is known to be over: most inputs (a server's batch, a
    // `record`) are one chunk.
    Status next_status;
    std::thread preparer;
    const bool last_chunk = source.Done();
    if (last_chunk) {
      // Nothing left: `next` (the chunk before this one) must not come round again.
      next->lines.clear();
      next->cut.lines.clear();
      next->cut.blank = 0;
    } else {
      next->claimable.store(false);
      next->next_block.store(0);
      preparer = std::thread([&] { next_status = next_chunk(next); });
    }
    struct JoinOnExit {  // an early return must not leave the thread running
      std::thread& t;
      ~JoinOnExit() {
        if (t.joinable()) t.join();
      }
    } join_preparer{preparer};

    // Stateful stages, in order, under the home's writer lock.
    KZ_ASSIGN_OR_RETURN(auto lock, log_.Lock());
    KZ_RETURN_IF_ERROR(cache_.CatchUp(&notes_));
    if (log_.remote() != nullptr && (pull_when_ == nullptr || pull_when_->exchange(false))) {
      // Other writers' events first, so this chunk is checked against the whole shared log.
      uint64_t pulled = 0;
      KZ_RETURN_IF_ERROR(PullMirror(log_, cache_, &pulled));
      if (pulled > 0) KZ_RETURN_IF_ERROR(cache_.CatchUp(&notes_));  // a first copy is unparsed
    }
    IngestState& state = cache_.state();
    // Room for the whole input at once when its size is known: growing the tables chunk by
    // chunk moved every entry several times, on the thread everything else waits for.
    state.Reserve(std::max<uint64_t>(lines.size(), expected_events));
    expected_events = 0;
    std::map<std::string, std::string> by_day;
    {
      // Size each day's buffer once: appending a chunk's 40 MB by doubling copies it again and
      // again.
      std::map<std::string, size_t> day_bytes;
      size_t* bytes = nullptr;  // the last line's day: lines in log order mostly share it
      const std::string* day = nullptr;
      for (const PreparedLine& l : lines) {
        if (!l.errors.empty()) continue;
        if (day == nullptr || *day != l.day) bytes = &day_bytes[*(day = &l.day)];
        *bytes += l.stored_size + 64;
      }
      for (const auto& [day, bytes] : day_bytes) {
        std::string& buffer = by_day[day];
        if (!spare_days.empty()) {
          buffer = std::move(spare_days.back());
          spare_days.pop_back();
          buffer.clear();
        }
        buffer.reserve(bytes);
      }
    }
    std::vector<CacheRecord> records;
    std::string* day_buffer = nullptr;  // by_day's buffer for day_of_buffer
    std::string_view day_of_buffer;
    std::optional<PiiVault> vault;  // loaded under the lock by the first line with PII
    for (size_t i = 0; i < lines.size(); ++i) {
      PreparedLine& l = lines[i];
      if (!l.errors.empty()) continue;
      // The consent gate (seed 004: "If OFF, corrections not logged"): nothing of a user whose
      // learning mode is off is stored. Consent events themselves always pass, or nobody could
      // switch learning back on.
      if (!l.consent && state.AnyLearningOff()) {
        for (const std::string& user : l.users) {
          // A user's key is two BLAKE2b hashes; a batch has few users and many events each.
          auto [known, added] = user_keys.try_emplace(user);
          if (added) known->second = UserKey(user);
          l.skipped = l.skipped || !state.LearningOn(known->second);
        }
        if (l.skipped) continue;
      }
      auto refuse = [&](std::string path, std::string message) {
        l.errors.push_back({std::move(path), std::move(message)});
      };
      // Checks against the log, and against the lines before this one, which state already holds.
      if (state.KindOf(l.id)) {
        refuse("id", fmt::format("{} is already recorded (duplicate event)",
                                 model::QuoteForMessage(l.id.ToString())));
      }
      std::optional<double> prediction = l.inline_prediction;
      if (l.kind == model::EventKind::kFeedback) {
        if (state.HasModalSession(l.record.key_a)) {
          refuse("modalId",
                 fmt::format("{} was already answered in session {} (duplicate submission)",
                             model::QuoteForMessage(l.modal_id),
                             model::QuoteForMessage(l.session_id)));
        }
        for (const auto& ref : l.refs) {
          const std::string_view version = l.RefVersion(ref);
          bool known =
              version.empty() ? state.HasArtifact(ref.key) : state.HasArtifactVersion(ref.key);
          if (!known) {
            refuse(
                std::string(l.RefPath(ref)) + ".id",
                fmt::format("{}{} names no recorded work event (record the work first, or give "
                            "the full WorkProductRef)",
                            model::QuoteForMessage(l.RefId(ref)),
                            version.empty() ? "" : " version " + model::QuoteForMessage(version)));
          } else if (l.RefPath(ref) == "workProduct") {
            prediction = state.Prediction(ref.key);
          }
        }
      } else if (l.kind == model::EventKind::kWork && state.HasArtifactVersion(l.record.key_b)) {
        refuse("workProduct.version",
               fmt::format("{} of artifact {} is already recorded (submit a new version)",
                           model::QuoteForMessage(l.artifact_version),
                           model::QuoteForMessage(l.artifact_id)));
      } else if (l.resolves && state.KindOf(*l.resolves) != model::EventKind::kError) {
        refuse("resolves", fmt::format("{} names no recorded error event",
                                       model::QuoteForMessage(l.resolves->ToString())));
      }
      if (!l.errors.empty()) continue;
      if (!l.pii.empty()) {
        if (!vault) {
          auto opened = PiiVault::Open(log_.home());
          if (!opened.ok()) {
            cache_.Forget();  // the state holds lines of this chunk that will not be stored
            return opened.status();
          }
          vault.emplace(std::move(opened).value());
        }
        l.fatigue_at = ResolvePlaceholders(
            placeholder_nonce_, l.pii,
            [&](const PreparedLine::Pii& p) {
              return vault->TokenFor(p.category, p.key, p.value, l.source);
            },
            chunk->StoredOf(l), &l.resolved);
        summary->redacted += l.pii.size();
      }
      std::optional<double> delta;
      if (prediction && l.mean_score) delta = *l.mean_score - *prediction;
      int64_t fatigue =
          l.kind == model::EventKind::kFeedback ? state.SessionReviews(l.record.session) + 1 : 0;
      if (day_buffer == nullptr || day_of_buffer != l.day) {
        day_of_buffer = l.day;
        day_buffer = &by_day.find(l.day)->second;
      }
      FinishStoredEvent(chunk->StoredOf(l), fatigue, delta, day_buffer);
      state.Apply(l.record);
      records.push_back(l.record);
    }
    // Days whose every line was refused above: no empty file for them.
    std::erase_if(by_day, [](const auto& day) { return day.second.empty(); });
    if (vault && vault->dirty()) {
      // The map before the log: a token in the log whose value is lost would be worse than a map
      // entry for a line that failed to append.
      if (Status saved = vault->Save(); !saved.ok()) {
        cache_.Forget();
        return saved;
      }
    }
    // Where each append starts, read under the lock (only for a caller that asks: a stat per day).
    std::map<std::string, uint64_t> start;
    if (options.on_appended) {
      for (const auto& [day, data] : by_day) {
        const std::string file = day + std::string(store::kRawSuffix);
        const std::string path = log_.RawPath(file);
        uint64_t size = 0;
        if (log_.fs()->Exists(path)) {
          auto got = log_.fs()->FileSize(path);
          if (!got.ok()) {
            cache_.Forget();  // the state holds events that were not stored
            return got.status();
          }
          size = *got;
        }
        start[file] = size;
      }
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
      if (!cache_.Commit(records, bytes).ok()) {
        cache_.Forget();  // derived only: events are durable
      } else if (last_chunk && options.write_index) {
        (void)cache_.WriteIndex();  // derived: without it the next process reads more journal
      }
    }
    lock.reset();
    if (options.on_appended) {
      for (const auto& [day, data] : by_day) {
        AppendedLines a;
        a.file = day + std::string(store::kRawSuffix);
        a.offset = start[a.file];
        a.text = data;
        options.on_appended(a);
      }
    }
    // Acknowledge only now that the chunk is durable. One result for the chunk, its id's buffer
    // reused from line to line (the prepared lines keep theirs for the next chunk).
    LineResult r;
    for (size_t i = 0; i < lines.size(); ++i) {
      r.line_number = lines[i].line_number;
      r.text = lines[i].text;
      r.skipped = lines[i].skipped;
      r.stored = lines[i].errors.empty() && !r.skipped;
      r.id.clear();
      if (r.stored) r.id.assign(lines[i].id_text);
      r.errors = std::move(lines[i].errors);
      r.skip_reason.clear();
      if (r.skipped) {
        r.skip_reason = "learning mode is off for its user (admin consent event); not stored";
        ++summary->skipped;
      } else if (r.stored) {
        ++summary->stored;
      } else {
        ++summary->rejected;
      }
      if (options.on_line) options.on_line(r);
    }
    if (options.on_progress) options.on_progress(chunk->cut.end);
    for (auto& [day, data] : by_day) spare_days.push_back(std::move(data));
    if (preparer.joinable()) {
      // This chunk is done: help prepare the next one rather than wait for it.
      next->claimable.wait(false);
      help_prepare(next, threads);  // the committer's scratch
      preparer.join();
    }
    KZ_RETURN_IF_ERROR(next_status);  // a read error: the chunks before are stored
    std::swap(chunk, next);
  }
  summary->blank += chunk->cut.blank;  // blank lines after the last event
  return Status::Ok();
}

}  // namespace kaizen::ingest
