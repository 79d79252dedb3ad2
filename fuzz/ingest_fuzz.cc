// libFuzzer target for the ingest pipeline: the bytes are a JSONL batch as a client would send
// it. Each line goes through parse (its members found through its tokens must join up to the
// minified object) + ValidateEvent (+ the cache record and the stored form of a valid event), the
// whole batch through Ingestor::Ingest into a real home on tmpfs, and the raw bytes through the
// standalone parsers (timestamps, UUIDs, theme taxonomies) and the free-text analysis. Nothing may
// crash, leak or hang.
//
//   make fuzz   (or see the Makefile's fuzz target for the full command line)
#include <simdjson.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "ingest/enrich.h"
#include "ingest/ingest_state.h"
#include "ingest/ingestor.h"
#include "ingest/json_tokens.h"
#include "ingest/stored_line.h"
#include "ingest/validate.h"
#include "model/limits.h"
#include "model/timestamp.h"
#include "model/uuid.h"
#include "store/file_system.h"
#include "text/text_analysis.h"

namespace {

using namespace kaizen;

constexpr int64_t kNowMs = 1752969600000;  // 2025-07-20T00:00:00Z
// Ingest is ~20x slower than the rest (every call takes the lock, fsyncs, and allocates parsers
// for 1 MiB events), so only inputs up to this size that hold at least one shape-valid event (the
// only ones that reach the stateful checks and the write path), and one in kIngestOthersOneIn of
// the rest, go through it.
constexpr size_t kMaxIngestBytes = 2048;
constexpr size_t kIngestOthersOneIn = 16;
// The home is emptied after this many ingests so it does not grow without bound (and so the
// first-open paths keep being exercised).
constexpr int kIngestsPerHome = 2000;

// One temporary home per process, on tmpfs when there is one, reused across inputs. Each input
// gets a fresh Ingestor (as each `kaizen import` is a fresh process), so nothing allocated for one
// input outlives it and libFuzzer's leak check stays meaningful and cheap; the Ingestor catches up
// with what earlier inputs stored through the on-disk cache.
class FuzzHome {
 public:
  FuzzHome() {
    const char* base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    std::string tmpl = std::string(base) + "/kaizen-fuzz-XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr) std::abort();
    dir_ = tmpl;
  }
  ~FuzzHome() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // The home for the next ingest; emptied every kIngestsPerHome uses.
  std::string Next() {
    if (++uses_ > kIngestsPerHome) {
      std::error_code ec;
      std::filesystem::remove_all(dir_ + "/home", ec);
      uses_ = 1;
    }
    return dir_ + "/home";
  }

 private:
  std::string dir_;
  int uses_ = 0;
};

FuzzHome& Home() {
  static FuzzHome* home = new FuzzHome;  // removed at exit by the atexit hook below
  static const int registered = std::atexit([] { delete home; });
  (void)registered;
  return *home;
}

// The members of a parsed object, found through its tokens and joined again, are the object as
// simdjson minifies it: nothing lost, added or moved, whatever whitespace and strings it holds.
void CheckTokens(const simdjson::dom::parser& parser, std::string_view line) {
  const ingest::JsonTokens tokens = ingest::JsonTokens::Of(parser, line);
  if (!tokens.ok()) std::abort();
  if (tokens.First(0) != '{') return;
  std::string joined = "{";
  tokens.ForEachMember(0, [&](const ingest::TokenMember& m) {
    if (joined.size() > 1) joined += ',';
    tokens.AppendMinified(m.key, m.end, &joined);
  });
  joined += '}';
  std::string minified(line.size(), '\0');
  size_t size = 0;
  if (simdjson::minify(line.data(), line.size(), minified.data(), size) != simdjson::SUCCESS) {
    std::abort();
  }
  minified.resize(size);
  if (joined != minified) std::abort();
}

// Every line alone: parse, validate, and for a valid event its cache record and stored form.
// Returns the number of shape-valid events.
size_t ValidateLines(std::string_view input, const text::ThemeTaxonomy& taxonomy) {
  static simdjson::dom::parser parser;
  ingest::ValidateOptions options;
  options.now_ms = kNowMs;
  size_t valid = 0;
  size_t pos = 0;
  while (pos < input.size()) {
    size_t nl = input.find('\n', pos);
    size_t end = nl == std::string_view::npos ? input.size() : nl;
    std::string_view line = input.substr(pos, end - pos);
    pos = end + 1;
    simdjson::dom::element event;
    // realloc_if_needed: the line is not followed by padding of its own.
    if (parser.parse(line.data(), line.size(), true).get(event) != simdjson::SUCCESS) continue;
    CheckTokens(parser, line);
    ingest::EventFacts facts;
    std::vector<ingest::FieldError> errors = ingest::ValidateEvent(event, options, &facts);
    for (const auto& e : errors) (void)e.ToString();
    (void)ingest::RecordOf(event);
    if (!errors.empty()) continue;
    ++valid;
    model::Timestamp ts = facts.timestamp.value_or(model::Timestamp{kNowMs, 0});
    model::Uuid id = facts.id.value_or(model::NewUuidV7(ts.unix_ms));
    (void)ingest::RecordOf(event, &facts.kind, &id);
    ingest::Enrichment e;
    e.kind = model::KindName(facts.kind);
    const std::string id_text = id.ToString(), timestamp_text = model::FormatUtc(ts.unix_ms);
    e.id = id_text;
    e.timestamp = timestamp_text;
    model::CivilTime local = model::ToCivil(ts.unix_ms + int64_t{ts.offset_minutes} * 60000);
    e.time_of_day = ingest::TimeOfDay(local.hour);
    e.day_of_week = ingest::DayOfWeek(local.weekday);
    simdjson::dom::object free_text;
    if (event["freeText"].get_object().get(free_text) == simdjson::SUCCESS) {
      ingest::AnalyzeFreeText(free_text, taxonomy, &e);
    }
    ingest::StoredLine line_form;
    static ingest::StoredLineWriter writer;
    static std::string written;  // the writer's buffer
    written.clear();
    if (!writer.Write(event.get_object().value_unsafe(), ingest::JsonTokens::Of(parser, line), e,
                      &written, &line_form)) {
      std::abort();
    }
    std::string stored;
    ingest::FinishStoredEvent(
        line_form, facts.kind == model::EventKind::kFeedback ? 3 : 0,
        facts.mean_score ? std::optional<double>(*facts.mean_score - 5) : std::nullopt, &stored);
    // The stored form must itself be one valid JSON line.
    if (stored.empty() || stored.back() != '\n' || stored.find('\n') != stored.size() - 1) {
      std::abort();
    }
    // ...that `kaizen verify` accepts: it re-validates and names the same event.
    static simdjson::dom::parser reparse;
    simdjson::dom::element again;
    if (stored.size() - 1 > model::kMaxStoredEventBytes ||
        reparse.parse(stored.data(), stored.size() - 1, true).get(again) != simdjson::SUCCESS) {
      std::abort();
    }
    ingest::EventFacts stored_facts;
    if (!ingest::ValidateEvent(again, options, &stored_facts).empty()) std::abort();
    if (stored_facts.kind != facts.kind || !stored_facts.id || !(*stored_facts.id == id) ||
        !stored_facts.timestamp || stored_facts.timestamp->unix_ms != ts.unix_ms) {
      std::abort();
    }
  }
  return valid;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  // The standalone parsers and analyzers, on the raw bytes.
  auto ts = model::ParseTimestamp(bytes);
  if (ts.ok()) {
    (void)model::FormatUtc(ts->unix_ms);
    (void)model::FormatDay(ts->unix_ms);
    (void)model::ToCivil(ts->unix_ms);
  }
  if (auto uuid = model::ParseUuid(bytes)) {
    // Round trip: the canonical form parses to the same bytes.
    auto again = model::ParseUuid(uuid->ToString());
    if (!again || !(*again == *uuid)) std::abort();
  }
  auto taxonomy = text::ThemeTaxonomy::FromJson(bytes);
  const text::ThemeTaxonomy& themes =
      taxonomy.ok() ? taxonomy.value() : text::ThemeTaxonomy::Default();
  (void)text::ExtractThemes(bytes, themes);
  // A user's themes.json: merged with the shipped themes, whose literal keywords ("res.ok",
  // "`any") then meet the same bytes.
  if (auto user = text::ThemeTaxonomy::FromUserJson(bytes); user.ok()) {
    if (user->themes().size() != user->origins().size()) std::abort();
    (void)text::ExtractThemes(bytes, *user);
  }
  double sentiment = text::Sentiment(bytes);
  if (!(sentiment >= -1 && sentiment <= 1)) std::abort();
  (void)text::ActionableItems(bytes);

  // The batch, line by line, then through the real pipeline.
  const simdjson::padded_string input(bytes);
  const size_t valid = ValidateLines(std::string_view(input), themes);
  if (size <= kMaxIngestBytes &&
      (valid > 0 || std::hash<std::string_view>()(bytes) % kIngestOthersOneIn == 0)) {
    ingest::IngestOptions options;
    options.now_ms = kNowMs;
    options.taxonomy = &themes;
    options.chunk_events = 4;  // several group commits per batch
    uint64_t reported = 0;
    options.on_line = [&](const ingest::LineResult& r) {
      ++reported;
      if (r.stored == !r.errors.empty()) std::abort();  // stored xor refused
    };
    ingest::IngestSummary summary;
    ingest::Ingestor ingestor(Home().Next(), store::DefaultFileSystem());
    Status s = ingestor.Ingest(std::string_view(input), options, &summary);
    if (!s.ok()) std::abort();  // a healthy tmpfs: no system failure is acceptable
    if (reported != summary.stored + summary.rejected) std::abort();
    (void)ingestor.TakeNotes();
  }
  return 0;
}
