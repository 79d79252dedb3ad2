// A TOML file read with toml++ (Codex's config.toml), guarded against a bug of the toml++ that
// Debian 12 ships (3.3.0): a non-ASCII character outside a string or comment reaches
// `TOML_UNREACHABLE` in its whitespace table (undefined behaviour; found by fuzz/hook_fuzz.cc).
// Such a character is never valid TOML 1.0 there (whitespace is space and tab, bare keys are
// ASCII), so it is refused first, with its line and column, as toml++ would refuse it. The guard
// covers that case, not every one: fuzzing found invalid input with a stray multi-line string
// delimiter before such a character that still reaches the bug, so Codex's config is not a fuzz
// target until toml++ is fixed (3.4 is; Debian 12 ships 3.3.0).
#pragma once

#include <toml++/toml.h>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::agents {

// The document, or InvalidArgument naming `path`, the line and column, and the rule.
Result<toml::table> ParseTomlText(std::string_view text, const std::string& path);

}  // namespace kaizen::agents
