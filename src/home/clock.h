#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::home {

// --now if given, else the system clock. The only place the CLI reads the clock.
Result<int64_t> NowMs(const std::string& now_flag);

// The review window (morning, afternoon, evening, night: ingest::TimeOfDay) of `unix_ms` on this
// machine's clock: where the person at the terminal, or a browser that sent no offset, is.
std::string_view LocalTimeOfDay(int64_t unix_ms);

}  // namespace kaizen::home
