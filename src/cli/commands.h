// The `kaizen` verbs. Each returns the process exit code (base/exit_code.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/exit_code.h"
#include "home/common.h"

namespace kaizen::cli {

using home::Common;

int RecordCommand(const Common& c, const std::string& kind, const std::string& file,
                  const std::string& reject_file);
int ImportCommand(const Common& c, const std::vector<std::string>& files,
                  const std::string& reject_file);
int VerifyCommand(const Common& c);
int RebuildCommand(const Common& c);
int StatsCommand(const Common& c);
// `format`: jsonl (the stored lines), sft or dpo (render/training_rows.h).
int ExportCommand(const Common& c, const std::string& kind, const std::string& since,
                  const std::string& format);
// `start_unix_ms`: where the history begins (sim::GenOptions's default when absent).
int GenCommand(uint64_t events, uint64_t seed, const std::string& out_file,
               std::optional<int64_t> start_unix_ms = std::nullopt);
int DemoCommand(const Common& c);
int SchemaCommand();
// `only`: a comma-separated list of sections (learn::Sections::Parse); empty for all of them.
int AnalyzeCommand(const Common& c, const std::string& only = "");
int ExplainCommand(const Common& c, const std::string& what, const std::string& name);
int ConfigCommand(const Common& c, bool defaults);
// `kaizen render` and `kaizen hints FILE` (cli/render.cc).
int RenderCommand(const Common& c);
int HintsCommand(const Common& c, const std::string& file, const std::string& project);
// `kaizen simulate`: sim/simulate.h.
int SimulateCommand(uint64_t seed, int days, bool learning, int reviews_per_week, bool json,
                    const std::string& out_file);
std::string SchemaMarkdown();
// What `verify` and `rebuild` say of a home that does not exist: they repair a log, and a home
// that is not there is most likely a mistyped --home, which they must not create.
std::string NoHomeMessage(const std::string& home);

}  // namespace kaizen::cli
