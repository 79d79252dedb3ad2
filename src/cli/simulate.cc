// `kaizen simulate` (sim/simulate.h): runs the synthetic agent and reviewer, prints what learning
// changed, and writes the events it made when asked to.
#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "cli/commands.h"
#include "sim/simulate.h"

namespace kaizen::cli {

int SimulateCommand(uint64_t seed, int days, bool learning, int reviews_per_week, bool json,
                    const std::string& out_file) {
  sim::SimulateOptions options;
  options.seed = seed;
  options.days = days;
  options.learning = learning;
  options.reviews_per_week = reviews_per_week;
  std::string events;
  const sim::SimulationResult result =
      sim::RunSimulation(options, out_file.empty() ? nullptr : &events);
  if (!out_file.empty()) {
    // Written whole to a temporary name, then renamed: a reader never sees half a history.
    const std::string tmp = out_file + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    bool ok = f != nullptr;
    if (ok) {
      ok = std::fwrite(events.data(), 1, events.size(), f) == events.size();
      ok = std::fclose(f) == 0 && ok;
      ok = ok && std::rename(tmp.c_str(), out_file.c_str()) == 0;
      if (!ok) std::remove(tmp.c_str());
    }
    if (!ok) {
      fmt::print(stderr, "kaizen simulate: cannot write {}: {}\n", out_file, std::strerror(errno));
      return kExitSystem;
    }
    fmt::print(stderr, "wrote {} events to {}\n", result.events, out_file);
  }
  fmt::print("{}", json ? sim::SimulationJson(result) : sim::SimulationText(result));
  return kExitOk;
}

}  // namespace kaizen::cli
