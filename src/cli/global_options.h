// `kaizen --home DIR record ...`: the options every verb shares (--home, --store, --now, --json),
// written before the verb as most tools allow, are moved after it, where each verb defines them.
// Pure; a verb that does not take the option still refuses it, naming it.
#pragma once

#include <string>
#include <vector>

namespace kaizen::cli {

// argv (program name first) with the shared options that come before the first verb moved to
// just before a `--` separator, or to the end. Anything else before the verb (an unknown option,
// a missing value) is left where it is for the parser to refuse.
std::vector<std::string> SharedOptionsAfterVerb(const std::vector<std::string>& argv);

}  // namespace kaizen::cli
