// `kaizen completion bash|zsh`: a shell completion script made from the command line's own
// definition (every verb, sub-verb and option CLI11 knows), so it never falls behind a new verb.
// bash: complete the verb path, then the options of the verb the words name, files for option
// values and positionals. zsh: the same through zsh's bashcompinit.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <string_view>

namespace kaizen::cli {

// "" for an unknown shell.
std::string CompletionScript(const CLI::App& app, std::string_view shell);

}  // namespace kaizen::cli
