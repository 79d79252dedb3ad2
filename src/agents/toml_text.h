// A TOML file read with toml++ (Codex's config.toml), guarded against bugs of the toml++ that
// Debian 12 ships (3.3.0): on some invalid documents holding a non-ASCII character it reaches
// `TOML_UNREACHABLE` in its Unicode tables (undefined behaviour; found by fuzz/hook_fuzz.cc). So
// toml++ reads the same document in ASCII: non-ASCII characters of strings escaped, those of
// comments replaced, and what cannot be made ASCII (one outside strings and comments, never valid
// TOML 1.0 there) refused first with its line and column, as toml++ would refuse it.
#pragma once

#include <toml++/toml.h>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::agents {

// The document, or InvalidArgument naming `path`, the line and column, and the rule.
Result<toml::table> ParseTomlText(std::string_view text, const std::string& path);

}  // namespace kaizen::agents
