#pragma once

#include <cstdint>
#include <string>

#include "kaizen/status.h"

namespace kaizen::cli {

// --now if given, else the system clock. The only place the CLI reads the clock.
Result<int64_t> NowMs(const std::string& now_flag);

}  // namespace kaizen::cli
