#include "cli/clock.h"

#include <chrono>

#include "model/timestamp.h"

namespace kaizen::cli {

Result<int64_t> NowMs(const std::string& now_flag) {
  if (now_flag.empty()) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  auto ts = model::ParseTimestamp(now_flag);
  if (!ts.ok()) return InvalidArgument("--now: \"" + now_flag + "\" " + ts.status().message());
  return ts->unix_ms;
}

}  // namespace kaizen::cli
