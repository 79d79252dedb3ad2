// The verbs of `kaizen-git` (src/git/main.cc), the program that reads git repositories.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/verb.h"

namespace kaizen::cli {

// `kaizen git scan REPO ...`: git_scan.cc.
Verb AddGitScanVerb(CLI::App& app, Common& c);

}  // namespace kaizen::cli
