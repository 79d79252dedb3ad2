// The verbs that read the log: rebuild, stats, export.
#include <fmt/format.h>

#include <optional>

#include "base/json_text.h"
#include "cli/commands.h"
#include "home/derived_files.h"
#include "home/learned_checkpoint.h"
#include "model/event_kind.h"
#include "model/timestamp.h"
#include "render/training_rows.h"
#include "store/file_system.h"
#include "store/shared_log.h"

namespace kaizen::cli {
namespace {

int Fail(std::string_view verb, const Status& s) {
  fmt::print(stderr, "kaizen {}: {}\n", verb, s.message());
  return kExitSystem;
}

std::string Percent(const ingest::PeriodStats& s) {
  uint64_t total = 0;
  for (const auto& [k, v] : s.decisions) total += v;
  if (!total) return "n/a";
  uint64_t approved = s.decisions.count("approved") ? s.decisions.at("approved") : 0;
  return fmt::format("{:.1f}% of {}",
                     100.0 * static_cast<double>(approved) / static_cast<double>(total), total);
}

}  // namespace

std::string NoHomeMessage(const std::string& home) {
  return fmt::format(
      "no kaizen home at {} (no such directory); nothing to check or rebuild. Name the home with "
      "--home or KAIZEN_HOME",
      home);
}

int RebuildCommand(const Common& c) {
  store::RawLog log(c.home, store::DefaultFileSystem());
  if (!log.HomeExists()) {
    fmt::print(stderr, "kaizen rebuild: {}\n", NoHomeMessage(c.home));
    return kExitUsage;
  }
  auto lock = log.Lock();
  if (!lock.ok()) return Fail("rebuild", lock.status());
  if (Status s = log.EnsureLayout(); !s.ok()) return Fail("rebuild", s);
  ingest::DerivedBuilder builder;
  uint64_t written = 0;
  if (Status s = home::RebuildDerived(log, &builder, &written); !s.ok()) return Fail("rebuild", s);
  if (c.json) {
    fmt::print("{{\"events\":{},\"files\":{}}}\n", builder.events(), written);
  } else {
    fmt::print("rebuilt {} derived files from {} events under {}/feedback\n", written,
               builder.events(), c.home);
  }
  return kExitOk;
}

int StatsCommand(const Common& c) {
  store::RawLog log(c.home, store::DefaultFileSystem());
  std::vector<std::pair<std::string, uint64_t>> files;
  ingest::DerivedBuilder builder;
  if (log.HomeExists()) {
    auto lock = log.Lock();
    if (!lock.ok()) return Fail("stats", lock.status());
    if (Status s = log.EnsureLayout(); !s.ok()) return Fail("stats", s);
    auto listed = log.ListRawFiles();
    if (!listed.ok()) return Fail("stats", listed.status());
    files = std::move(*listed);
    uint64_t written = 0;
    Status s = home::DerivedAreStale(log) ? home::RebuildDerived(log, &builder, &written)
                                          : home::ScanLog(
                                                log,
                                                [&](simdjson::dom::element e, std::string_view,
                                                    std::string_view, uint64_t) { builder.Add(e); },
                                                [](const home::BadLine&) {});
    if (!s.ok()) return Fail("stats", s);
  }
  uint64_t bytes = 0;
  for (const auto& f : files) bytes += f.second;
  auto checkpoint = home::InspectCheckpoint(c.home);
  if (!checkpoint.ok()) return Fail("stats", checkpoint.status());
  const ingest::PeriodStats& all = builder.all_time();
  ingest::PeriodStats rolling = builder.Rolling30d();
  if (c.json) {
    std::string a = ingest::PeriodJson("all", all), r = ingest::PeriodJson("rolling-30d", rolling);
    a.pop_back();
    r.pop_back();
    fmt::print(
        "{{\"home\":{},\"events\":{},\"rawFiles\":{},\"rawBytes\":{},\"allTime\":{},"
        "\"rolling30d\":{},\"checkpoint\":{{\"usable\":{},\"events\":{},\"whyNot\":{}}},"
        "\"store\":{}}}\n",
        base::JsonQuote(c.home), builder.events(), files.size(), bytes, a, r, checkpoint->usable,
        checkpoint->events, checkpoint->usable ? "null" : base::JsonQuote(checkpoint->why_not),
        c.remote ? base::JsonQuote(c.remote->name()) : "null");
    return kExitOk;
  }
  fmt::print("home        {}\n", c.home);
  if (c.remote) fmt::print("store       {} (the home is its working copy)\n", c.remote->name());
  fmt::print("events      {}", builder.events());
  std::string sep = " (";
  for (const auto& [kind, n] : all.events_by_kind) {
    fmt::print("{}{} {}", sep, kind, n);
    sep = ", ";
  }
  fmt::print("{}\n", builder.events() ? ")" : "");
  if (!files.empty()) {
    fmt::print("raw files   {} days, {} .. {}, {:.1f} MB\n", files.size(),
               files.front().first.substr(0, 10), files.back().first.substr(0, 10),
               static_cast<double>(bytes) / 1e6);
  }
  fmt::print("approval    all time {}; last 30 days {}\n", Percent(all), Percent(rolling));
  if (all.scores) {
    fmt::print("quality     average score {:.2f} over {} dimension scores\n",
               all.score_sum / static_cast<double>(all.scores), all.scores);
  }
  if (all.decision_time_n) {
    fmt::print("decisions   {:.1f} s average time to decision\n",
               all.decision_time_sum / static_cast<double>(all.decision_time_n) / 1000.0);
  }
  if (all.prediction_n) {
    fmt::print("prediction  mean |predicted - actual score| {:.2f} over {} reviews\n",
               all.prediction_abs_error_sum / static_cast<double>(all.prediction_n),
               all.prediction_n);
  }
  if (all.outcomes) {
    fmt::print(
        "outcomes    {} tasks, {:.1f}% succeeded\n", all.outcomes,
        100.0 * static_cast<double>(all.outcome_successes) / static_cast<double>(all.outcomes));
  }
  if (checkpoint->usable) {
    fmt::print("learned     checkpoint of {} events; verbs fold only the {} after it\n",
               checkpoint->events,
               builder.events() - std::min(builder.events(), checkpoint->events));
  } else {
    fmt::print(
        "learned     no usable checkpoint ({}); the next verb that learns folds the whole log\n",
        checkpoint->why_not);
  }
  return kExitOk;
}

int ExportCommand(const Common& c, const std::string& kind, const std::string& since,
                  const std::string& format) {
  std::optional<render::TrainingRows> rows;
  if (format != "jsonl") {
    if (!kind.empty()) {
      fmt::print(stderr,
                 "kaizen export: --kind \"{}\" with --format {}: training rows come from the "
                 "kinds they need (work, feedback, correction); leave --kind out\n",
                 kind, format);
      return kExitUsage;
    }
    rows.emplace(format == "sft" ? render::TrainingFormat::kSft : render::TrainingFormat::kDpo);
  }
  if (!kind.empty() && !model::ParseKind(kind)) {
    fmt::print(stderr, "kaizen export: --kind \"{}\" is not one of {}\n", kind, model::KindList());
    return kExitUsage;
  }
  int64_t since_ms = INT64_MIN;
  if (!since.empty()) {
    auto ts = model::ParseTimestamp(since.size() == 10 ? since + "T00:00:00Z" : since);
    if (!ts.ok()) {
      fmt::print(stderr, "kaizen export: --since \"{}\" {} (or a day, 2025-07-11)\n", since,
                 ts.status().message());
      return kExitUsage;
    }
    since_ms = ts->unix_ms;
  }
  store::RawLog log(c.home, store::DefaultFileSystem());
  if (!log.HomeExists()) return kExitOk;
  auto lock = log.Lock();  // so a concurrent writer's half-written tail is never exported
  if (!lock.ok()) return Fail("export", lock.status());
  std::string out;
  uint64_t bad = 0;
  Status s = home::ScanLog(
      log,
      [&](simdjson::dom::element e, std::string_view text, std::string_view, uint64_t) {
        std::string_view k, t;
        if (!kind.empty() && (e["kind"].get_string().get(k) != simdjson::SUCCESS || k != kind))
          return;
        bool before_since = false;
        if (since_ms != INT64_MIN) {
          if (e["timestamp"].get_string().get(t) != simdjson::SUCCESS) return;
          auto ts = model::ParseTimestamp(t);
          before_since = !ts.ok() || ts->unix_ms < since_ms;
        }
        if (rows) {
          // Work before --since is still what later reviews name: remembered, not written.
          std::string dropped;
          rows->Add(e, before_since ? &dropped : &out);
        } else if (!before_since) {
          out.append(text);
          out.push_back('\n');
        }
        if (out.size() > (1 << 20)) {
          std::fwrite(out.data(), 1, out.size(), stdout);
          out.clear();
        }
      },
      [&](const home::BadLine& b) {
        ++bad;
        fmt::print(stderr, "kaizen export: skipped {}:{}: {}\n", b.file, b.line, b.why);
      });
  std::fwrite(out.data(), 1, out.size(), stdout);
  if (!s.ok()) return Fail("export", s);
  return bad ? kExitSystem : kExitOk;
}

}  // namespace kaizen::cli
