#pragma once

#include <simdjson.h>

#include <string>

#include "kaizen/status.h"

namespace kaizen::cli {

// Reads a file, or standard input for "-", into a buffer simdjson can parse in place.
Result<simdjson::padded_string> ReadInput(const std::string& file);

}  // namespace kaizen::cli
