// The verbs that register themselves (cli/verb.h), one function per verb, each in its own file.
#pragma once

#include "cli/verb.h"

namespace kaizen::cli {

// (one declaration per verb)

}  // namespace kaizen::cli
