// `kaizen verify`: reads every stored line, repairs what is safe to repair (torn tails, the ingest
// cache, derived files) and reports, with file:line, what it cannot.
#include <fmt/format.h>

#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "base/json_text.h"
#include "cli/commands.h"
#include "home/clock.h"
#include "home/derived_files.h"
#include "ingest/ingest_state.h"
#include "ingest/validate.h"
#include "model/timestamp.h"
#include "model/uuid.h"
#include "store/file_system.h"
#include "store/log_format.h"
#include "store/shared_log.h"

namespace kaizen::cli {
namespace {

// The store against the home's copy of it (brought up to date before the verb ran): every row's
// id column is its event's id, every row is in the copy with the same bytes, and the copy holds
// nothing the store does not. `copy` is emptied of the ids met.
Status CheckStore(store::SharedLog& pg, std::unordered_map<std::string, size_t>* copy,
                  uint64_t* rows, std::vector<std::string>* problems) {
  simdjson::dom::parser parser;
  KZ_RETURN_IF_ERROR(pg.ReadAll(20000, [&](const std::vector<store::StoredRow>& page) {
    for (const store::StoredRow& row : page) {
      ++*rows;
      simdjson::dom::element e;
      std::string_view id;
      if (parser.parse(row.body.data(), row.body.size(), true).get(e) != simdjson::SUCCESS ||
          e["id"].get(id) != simdjson::SUCCESS || id != row.id) {
        problems->push_back(fmt::format("{}: row {} (day {}): its body is not the event of that id",
                                        pg.name(), row.id, row.day));
        continue;
      }
      auto it = copy->find(std::string(row.id));
      if (it == copy->end()) {
        problems->push_back(fmt::format("{}: row {} (day {}) is missing from the home's copy",
                                        pg.name(), row.id, row.day));
      } else if (it->second != std::hash<std::string_view>()(row.body)) {
        problems->push_back(fmt::format("{}: row {} (day {}) differs from the home's copy",
                                        pg.name(), row.id, row.day));
      }
      if (it != copy->end()) copy->erase(it);
    }
    return Status::Ok();
  }));
  for (const auto& [id, hash] : *copy) {
    problems->push_back(
        fmt::format("the home's copy holds {}, which the store {} does not", id, pg.name()));
  }
  return Status::Ok();
}

}  // namespace

int VerifyCommand(const Common& c) {
  auto now = home::NowMs(c.now);
  if (!now.ok()) {
    fmt::print(stderr, "kaizen verify: {}\n", now.status().message());
    return kExitUsage;
  }
  store::RawLog log(c.home, store::DefaultFileSystem());
  if (!log.HomeExists()) {
    fmt::print(stderr, "kaizen verify: {}\n", NoHomeMessage(c.home));
    return kExitUsage;
  }
  auto lock = log.Lock();
  if (!lock.ok()) {
    fmt::print(stderr, "kaizen verify: {}\n", lock.status().message());
    return kExitSystem;
  }
  std::vector<std::string> repairs;
  std::vector<std::string> problems;
  auto fail = [&](const Status& s) {
    fmt::print(stderr, "kaizen verify: {}\n", s.message());
    return kExitSystem;
  };
  if (Status s = log.EnsureLayout(); !s.ok()) return fail(s);
  auto files = log.ListRawFiles();
  if (!files.ok()) return fail(files.status());
  std::vector<store::RecoveryNote> notes;
  for (const auto& [file, size] : *files) {
    auto cut = log.CutTornTail(file, &notes);
    if (!cut.ok()) return fail(cut.status());
  }
  for (const auto& n : notes) repairs.push_back(fmt::format("{}: {}", n.file, n.text));

  ingest::ValidateOptions vopts;
  vopts.now_ms = *now;
  std::unordered_set<model::Uuid, model::UuidHash> ids;
  // With a store: each line's bytes by id, to hold the store's rows against.
  std::unordered_map<std::string, size_t> copy;
  uint64_t events = 0;
  Status scanned = home::ScanLog(
      log,
      [&](simdjson::dom::element e, std::string_view text, std::string_view file, uint64_t line) {
        ++events;
        std::string_view id;
        if (c.remote != nullptr && e["id"].get(id) == simdjson::SUCCESS) {
          copy[std::string(id)] = std::hash<std::string_view>()(text);
        }
        ingest::EventFacts facts;
        auto errors = ingest::ValidateEvent(e, vopts, &facts);
        for (const auto& err : errors)
          problems.push_back(fmt::format("{}:{}: {}", file, line, err.ToString()));
        if (!errors.empty()) return;
        if (!facts.id || !facts.timestamp) {
          problems.push_back(fmt::format("{}:{}: stored without id or timestamp", file, line));
          return;
        }
        if (!ids.insert(*facts.id).second) {
          problems.push_back(fmt::format("{}:{}: id {} appears more than once in the log", file,
                                         line, facts.id->ToString()));
        }
        std::string day = model::FormatDay(facts.timestamp->unix_ms);
        if (file.substr(file.rfind('/') + 1, 10) != day) {
          problems.push_back(fmt::format("{}:{}: timestamp {} belongs in {}/{}.jsonl", file, line,
                                         model::FormatUtc(facts.timestamp->unix_ms), store::kRawDir,
                                         day));
        }
      },
      [&](const home::BadLine& b) {
        problems.push_back(fmt::format("{}:{}: {}", b.file, b.line, b.why));
      });
  if (!scanned.ok()) return fail(scanned);

  uint64_t store_rows = 0;
  if (c.remote != nullptr) {
    if (Status s = CheckStore(*c.remote, &copy, &store_rows, &problems); !s.ok()) return fail(s);
  }

  ingest::IngestCache cache(&log);
  if (Status s = cache.Reset(); !s.ok()) return fail(s);
  std::vector<store::RecoveryNote> cache_notes;
  if (Status s = cache.CatchUp(&cache_notes); !s.ok()) return fail(s);
  if (Status s = cache.WriteIndex(/*force=*/true); !s.ok()) return fail(s);
  std::vector<std::string> rebuilt;  // derived state, rebuilt every time whether broken or not
  rebuilt.push_back(fmt::format("the ingest cache ({} events)", cache.state().event_count()));
  ingest::DerivedBuilder builder;
  uint64_t written = 0;
  if (Status s = home::RebuildDerived(log, &builder, &written); !s.ok()) return fail(s);
  rebuilt.push_back(fmt::format("{} derived files (indexes and aggregates)", written));

  if (c.json) {
    std::string out = fmt::format("{{\"events\":{},\"files\":{},\"ok\":{},", events, files->size(),
                                  problems.empty() ? "true" : "false");
    if (c.remote != nullptr) {
      out += fmt::format("\"store\":{{\"name\":{},\"rows\":{}}},",
                         base::JsonQuote(c.remote->name()), store_rows);
    }
    out += "\"repairs\":[";
    for (size_t i = 0; i < repairs.size(); ++i) out += (i ? "," : "") + base::JsonQuote(repairs[i]);
    out += "],\"rebuilt\":[";
    for (size_t i = 0; i < rebuilt.size(); ++i) out += (i ? "," : "") + base::JsonQuote(rebuilt[i]);
    out += "],\"problems\":[";
    for (size_t i = 0; i < problems.size(); ++i)
      out += (i ? "," : "") + base::JsonQuote(problems[i]);
    out += "]}";
    fmt::print("{}\n", out);
  } else {
    fmt::print("checked {} events in {} raw files under {}\n", events, files->size(), c.home);
    if (c.remote != nullptr) {
      fmt::print("checked {} rows of the store {} against that copy\n", store_rows,
                 c.remote->name());
    }
    for (const auto& r : repairs) fmt::print("repaired: {}\n", r);
    for (const auto& r : rebuilt) fmt::print("rebuilt: {}\n", r);
    for (const auto& p : problems) fmt::print("problem: {}\n", p);
    if (problems.empty()) {
      fmt::print("ok: every stored line is a valid event\n");
    } else {
      fmt::print(
          "{} problems found; the lines named above were left in place, and the verbs that read "
          "them skip them (fix or remove them by hand, then run kaizen verify again)\n",
          problems.size());
    }
  }
  return problems.empty() ? kExitOk : kExitSystem;
}

}  // namespace kaizen::cli
