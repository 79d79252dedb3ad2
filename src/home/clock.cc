#include "home/clock.h"

#include <time.h>

#include <chrono>

#include "ingest/enrich.h"
#include "model/timestamp.h"

namespace kaizen::home {

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

std::string_view LocalTimeOfDay(int64_t unix_ms) {
  const time_t t = static_cast<time_t>(unix_ms / 1000);
  struct tm local {};
  localtime_r(&t, &local);
  return ingest::TimeOfDay(local.tm_hour);
}

}  // namespace kaizen::home
