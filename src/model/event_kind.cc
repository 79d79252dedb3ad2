#include "model/event_kind.h"

#include <array>

namespace kaizen::model {
namespace {
constexpr std::array<std::string_view, kEventKindCount> kNames = {
    "feedback", "work", "outcome", "error", "reward", "correction", "loop", "admin", "prompt"};
}  // namespace

std::string_view KindName(EventKind kind) { return kNames[static_cast<size_t>(kind)]; }

std::optional<EventKind> ParseKind(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<EventKind>(i);
  }
  return std::nullopt;
}

std::string_view KindList() {
  return "feedback, work, outcome, error, reward, correction, loop, admin, prompt";
}

}  // namespace kaizen::model
