#include "serve/hints_keeper.h"

#include <filesystem>

#include <fmt/format.h>

#include "agents/hook_steps.h"
#include "home/hints_section.h"
#include "home/learned_state.h"
#include "home/project_dir.h"
#include "render/hints.h"

namespace kaizen::serve {

HintsKeeper::HintsKeeper(serve::LiveState* state, std::string home, std::chrono::milliseconds every)
    : state_(state), home_(std::move(home)), every_(every), thread_([this] { Run(); }) {}

HintsKeeper::~HintsKeeper() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void HintsKeeper::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    lock.unlock();
    Refresh();
    lock.lock();
    cv_.wait_for(lock, every_, [this] { return stop_; });
  }
}

void HintsKeeper::Refresh() {
  const uint64_t events = state_->events();
  if (events == seen_events_) return;
  auto report = [this](const std::string& message) {
    if (reported_.insert(message).second) fmt::print(stderr, "kaizen serve: {}\n", message);
  };
  Result<std::vector<std::string>> files = agents::HintsFiles(home_);
  if (!files.ok()) {
    report(files.status().message());
    return;
  }
  bool all_written = true;
  if (!files->empty()) {
    // Each file the rules of the project it lies in (home/project_dir.h).
    const std::vector<home::HintsTarget> targets =
        home::HintsTargets(std::filesystem::path(home_).parent_path().string(), *files);
    state_->Read([&](const learn::Learner& learner, int64_t now_ms) {
      for (const home::HintsTarget& t : targets) {
        const std::string& path = t.path;
        Result<bool> written = home::WriteHintsSection(
            render::HintsSection(render::HintsInputFrom(learner, now_ms, t.project)), path);
        if (!written.ok()) {
          report(fmt::format("hints file {}: {}", path, written.status().message()));
          all_written = false;
        }
      }
    });
  }
  if (all_written) seen_events_ = events;
}

}  // namespace kaizen::serve
