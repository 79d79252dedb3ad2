// How a verb joins the `kaizen` command line from its own file: it adds its subcommand and
// options, and returns what to run when that subcommand was parsed.
#pragma once

#include <sys/stat.h>
#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>

#include "cli/commands.h"
#include "learn/sections.h"

namespace kaizen::cli {

struct Verb {
  CLI::App* sub = nullptr;
  std::function<int()> run;  // called after parsing when `sub` was given; returns the exit code
};

// --home names a directory, or where one will be made. A file there is a usage error, named as
// such, before anything opens it: otherwise each verb failed on its own first file under it
// ("cannot open lock file HOME/.lock: Not a directory", exit 3) or, for `config`, silently read
// the defaults.
inline CLI::Validator HomeDirectory() {
  return CLI::Validator(
      [](std::string& home) -> std::string {
        struct stat st;
        if (::stat(home.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
          return "\"" + home + "\" is a file, not a directory (the kaizen home is a directory)";
        }
        return {};
      },
      "");
}

// A random seed: a decimal whole number that fits in 64 bits. CLI11 itself wraps "-1" to
// 18446744073709551615 and saturates larger numbers at it, so different seeds gave one history.
inline CLI::Validator Seed() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        uint64_t v = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || ec != std::errc() || end != s.data() + s.size()) {
          return "\"" + s + "\" is not a whole number from 0 to 18446744073709551615";
        }
        return {};
      },
      "");
}

// CLI::Range lets NaN through (every comparison with it is false): a NaN threshold or budget
// silently disabled what it bounds (`loop --max-cost nan` never aborted on cost).
inline CLI::Validator NotNan() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (end != s.c_str() && *end == '\0' && std::isnan(v)) {
          return "\"" + s + "\" is not a number";
        }
        return {};
      },
      "");
}

// `analyze --only`: names of sections of the analysis (learn::Sections::Parse).
inline CLI::Validator AnalysisSections() {
  return CLI::Validator(
      [](std::string& v) -> std::string {
        std::string error;
        if (learn::Sections::Parse(v, &error)) return {};
        return error;
      },
      "SECTION[,SECTION...]");
}

// CLI11 takes an empty value as the type's empty value, which each verb then read as "not given":
// `--home ""` made a home at the filesystem root (""+"/feedback"), `serve --host ""` listened on
// every interface instead of the loopback, `--now ""` used the system clock, `--since ""` and
// `git scan --agent ""` filtered nothing, `--seed ""` was seed 0. No option means anything by
// an empty value (leaving it out gives its default), so every option and positional that takes
// a value refuses one, under every verb of `app`.
inline void RefuseEmptyValues(CLI::App* app) {
  for (CLI::Option* opt : app->get_options()) {
    if (opt->get_type_size_max() == 0) continue;  // a flag: no value
    const std::string why = opt->get_positional()
                                ? "an empty value is not allowed"
                                : "an empty value is not allowed (leave the option out for its "
                                  "default)";
    opt->check(
        CLI::Validator([why](std::string& v) { return v.empty() ? why : std::string(); }, ""));
  }
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) {
    RefuseEmptyValues(sub);
  }
}

// --home, and optionally --json and --now, bound to `c`.
inline void AddCommonOptions(CLI::App* sub, Common& c, bool with_json, bool with_now) {
  sub->add_option("--home", c.home, "the kaizen home (default $KAIZEN_HOME, else ./.kaizen)")
      ->check(HomeDirectory());
  sub->add_option("--store", c.store,
                  "a shared PostgreSQL store (postgresql:// URI or libpq key=value; default "
                  "$KAIZEN_STORE): the log is kept there, the home is its working copy");
  if (with_json) sub->add_flag("--json", c.json, "machine-readable output");
  if (with_now)
    sub->add_option("--now", c.now,
                    "the clock, ISO 8601, or `end` for the newest event (default: the system "
                    "clock)");
}

}  // namespace kaizen::cli
