// A TOML file read with toml++ (Codex's config.toml), guarded against a bug of the toml++ that
// Debian 12 ships (3.3.0): a non-ASCII character outside a string or comment reaches
// `TOML_UNREACHABLE` in its whitespace table (undefined behaviour; found by fuzz/hook_fuzz.cc).
// Such a character is never valid TOML 1.0 there (whitespace is space and tab, bare keys are
// ASCII), so it is refused first, with its line and column, as toml++ would refuse it.
#pragma once

#include <toml++/toml.h>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::agents {

// The document, or InvalidArgument naming `path`, the line and column, and the rule.
Result<toml::table> ParseTomlText(std::string_view text, const std::string& path);

}  // namespace kaizen::agents
