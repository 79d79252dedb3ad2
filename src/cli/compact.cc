// `kaizen compact [--now T]`: applies the retention table (seed 000 §9.1, seed 004; the rules are
// in ingest/retention.h) to the stored log, under the writer lock. Every rewrite is atomic; the
// behavioral aggregates are written before any meta is stripped; a second run changes nothing.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "base/json_text.h"
#include "cli/verbs.h"
#include "home/clock.h"
#include "home/derived_files.h"
#include "home/learned_checkpoint.h"
#include "ingest/ingest_state.h"
#include "ingest/retention.h"
#include "model/json_access.h"
#include "model/limits.h"
#include "model/timestamp.h"
#include "store/file/log_rewrite.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::cli {
namespace {

struct CompactReport {
  ingest::CompactionCounts counts;
  uint64_t rewritten_files = 0, moved_to_cold = 0, aggregated_days = 0;
  std::vector<store::RecoveryNote> notes;
};

// Calls fn(line, parsed-or-null) for every line of a day file.
template <typename Fn>
Status ForEachEvent(simdjson::dom::parser& parser, const std::string& data, Fn&& fn) {
  simdjson::padded_string padded(data);
  store::ForEachLine(
      std::string_view(padded.data(), data.size()), 1, [&](std::string_view line, uint64_t) {
        simdjson::dom::element e;
        bool ok = line.size() <= model::kMaxStoredEventBytes &&
                  parser.parse(line.data(), line.size(), false).get(e) == simdjson::SUCCESS &&
                  e.is_object();
        fn(line, ok ? &e : nullptr);
      });
  return Status::Ok();
}

Status Compact(store::RawLog& log, int64_t now_ms, CompactReport* report) {
  const ingest::RetentionPolicy policy;
  store::FileSystem* fs = log.fs();
  KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
  KZ_RETURN_IF_ERROR(log.EnsureLayout());
  KZ_ASSIGN_OR_RETURN(auto files, log.ListRawFiles());
  for (const auto& [file, size] : files) {
    KZ_ASSIGN_OR_RETURN(bool cut, log.CutTornTail(file, &report->notes));
    (void)cut;
  }
  const int64_t first_window =
      std::min({policy.free_text_days, policy.correction_days, policy.annotation_days,
                policy.behavior_days, policy.hot_days});
  std::vector<std::pair<std::string, std::string>> old_files;  // name, contents
  for (const auto& [file, size] : files) {
    if (!ingest::DayPastWindow(file.substr(0, 10), first_window, now_ms)) continue;
    KZ_ASSIGN_OR_RETURN(std::string data, log.ReadRaw(file, 0));
    old_files.emplace_back(file, std::move(data));
  }

  // 1. Behavioral meta into the aggregates, written durably before any event loses it.
  const std::string aggregates_path = store::PathIn(log.home(), ingest::kBehaviorAggregatesFile);
  std::string aggregates_text;
  if (fs->Exists(aggregates_path)) {
    KZ_ASSIGN_OR_RETURN(aggregates_text, fs->ReadFrom(aggregates_path, 0));
  }
  auto parsed = ingest::BehaviorAggregates::Parse(aggregates_text);
  if (!parsed.ok()) return DataLoss(aggregates_path + " " + parsed.status().message());
  ingest::BehaviorAggregates aggregates = std::move(parsed).value();
  const size_t days_before = aggregates.days().size();
  simdjson::dom::parser parser;
  for (const auto& [file, data] : old_files) {
    const std::string day = file.substr(0, 10);
    if (!ingest::DayPastWindow(day, policy.behavior_days, now_ms)) continue;
    KZ_RETURN_IF_ERROR(ForEachEvent(parser, data, [&](std::string_view, simdjson::dom::element* e) {
      if (e && model::StringAt(*e, "kind") == "feedback") aggregates.Fold(day, *e);
    }));
    aggregates.FinishDay(day);
  }
  report->aggregated_days = aggregates.days().size() - days_before;
  if (aggregates.changed()) {
    KZ_RETURN_IF_ERROR(fs->CreateDirs(aggregates_path.substr(0, aggregates_path.rfind('/'))));
    KZ_RETURN_IF_ERROR(fs->WriteFileAtomic(aggregates_path, aggregates.Json(), /*durable=*/true));
  }

  // 2. Each old day file compacted, and moved to the cold archive past the hot window.
  for (const auto& [file, data] : old_files) {
    const std::string day = file.substr(0, 10);
    std::string out;
    out.reserve(data.size());
    bool changed = false;
    KZ_RETURN_IF_ERROR(
        ForEachEvent(parser, data, [&](std::string_view line, simdjson::dom::element* e) {
          // A line that is not an event stays as it is: `kaizen verify` reports it, nobody deletes
          // it.
          auto compacted =
              e ? ingest::CompactEvent(*e, day, policy, now_ms, aggregates, &report->counts)
                : std::nullopt;
          if (compacted) {
            changed = true;
            out += *compacted;
          } else {
            out += line;
          }
          out += '\n';
        }));
    if (store::IsRawFileName(file) && ingest::DayPastWindow(day, policy.hot_days, now_ms)) {
      KZ_RETURN_IF_ERROR(store::MoveDayFileToCold(log, file, out));
      ++report->moved_to_cold;
    } else if (changed) {
      KZ_RETURN_IF_ERROR(store::RewriteDayFile(log, file, out));
      ++report->rewritten_files;
    }
  }
  if (report->rewritten_files + report->moved_to_cold == 0) return Status::Ok();

  // 3. What is derived from the rewritten files: the ingest cache (lines changed length in place)
  // and the indexes and aggregates.
  ingest::IngestCache cache(&log);
  KZ_RETURN_IF_ERROR(home::RemoveCheckpoint(log.home()));
  KZ_RETURN_IF_ERROR(cache.Reset());
  KZ_RETURN_IF_ERROR(cache.CatchUp(&report->notes));
  KZ_RETURN_IF_ERROR(cache.WriteIndex(/*force=*/true));
  ingest::DerivedBuilder builder;
  uint64_t written = 0;
  return home::RebuildDerived(log, &builder, &written);
}

int CompactCommand(const Common& c) {
  auto now = home::NowMs(c.now);
  if (!now.ok()) {
    fmt::print(stderr, "kaizen compact: {}\n", now.status().message());
    return kExitUsage;
  }
  store::RawLog log(c.home, store::DefaultFileSystem());
  log.set_remote(c.remote);  // the shared store is rewritten first
  CompactReport r;
  Status s = Compact(log, *now, &r);
  for (const auto& n : r.notes) fmt::print(stderr, "kaizen: recovered {}: {}\n", n.file, n.text);
  if (!s.ok()) {
    fmt::print(stderr, "kaizen compact: {} (files not yet rewritten are unchanged)\n", s.message());
    return kExitSystem;
  }
  const auto& n = r.counts;
  if (c.json) {
    fmt::print(
        "{{\"now\":{},\"rewrittenFiles\":{},\"movedToCold\":{},\"aggregatedDays\":{},"
        "\"events\":{{\"freeText\":{},\"corrections\":{},\"annotations\":{},\"behavior\":{}}}}}\n",
        base::JsonQuote(model::FormatUtc(*now)), r.rewritten_files, r.moved_to_cold,
        r.aggregated_days, n.free_text, n.corrections, n.annotations, n.behavior);
    return kExitOk;
  }
  if (r.rewritten_files + r.moved_to_cold == 0 && r.aggregated_days == 0) {
    fmt::print("compact: nothing to do as of {} (the log already follows the retention policy)\n",
               model::FormatUtc(*now));
    return kExitOk;
  }
  fmt::print("compact as of {} (seed 000 §9.1 retention):\n", model::FormatUtc(*now));
  fmt::print("  free text older than 90 days reduced to its themes: {} events\n", n.free_text);
  fmt::print("  correction texts older than 90 days removed: {} events\n", n.corrections);
  fmt::print("  annotations older than 90 days de-linked from code: {} events\n", n.annotations);
  fmt::print(
      "  behavioral meta older than 30 days averaged and stripped: {} events ({} days added "
      "to {})\n",
      n.behavior, r.aggregated_days, ingest::kBehaviorAggregatesFile);
  fmt::print("  day files rewritten: {}; moved to the cold archive {}/: {}\n", r.rewritten_files,
             store::kColdDir, r.moved_to_cold);
  return kExitOk;
}

}  // namespace

Verb AddCompactVerb(CLI::App& app, Common& c) {
  auto* sub = app.add_subcommand(
      "compact",
      "apply the retention policy: free text to themes after 90 days, behavioral meta averaged "
      "after 30, annotations de-linked and day files moved to feedback/cold after 90");
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/true);
  return {sub, [&c] { return CompactCommand(c); }};
}

}  // namespace kaizen::cli
