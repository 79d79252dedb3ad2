// How a verb joins the `kaizen` command line from its own file: it adds its subcommand and
// options, and returns what to run when that subcommand was parsed.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <utility>

#include "cli/commands.h"

namespace kaizen::cli {

struct Verb {
  CLI::App* sub = nullptr;
  std::function<int()> run;  // called after parsing when `sub` was given; returns the exit code
};

// --home, and optionally --json and --now, bound to `c`.
inline void AddCommonOptions(CLI::App* sub, Common& c, bool with_json, bool with_now) {
  sub->add_option("--home", c.home, "the kaizen home (default $KAIZEN_HOME, else ./.kaizen)");
  if (with_json) sub->add_flag("--json", c.json, "machine-readable output");
  if (with_now)
    sub->add_option("--now", c.now,
                    "the clock, ISO 8601, or `end` for the newest event (default: the system "
                    "clock)");
}

}  // namespace kaizen::cli
