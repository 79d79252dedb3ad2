// The exit codes of the `kaizen` programs, one contract for every verb and door that ends a
// process (the CLI's verbs, `kaizen mcp`, `kaizen-git`):
//   0 success, 1 some input was refused (the valid part was stored), 2 usage error,
//   3 the system failed (I/O, full disk, corruption found): nothing unacknowledged was stored.
// In namespace kaizen, like Status: every layer that ends a process speaks it.
#pragma once

namespace kaizen {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRejected = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitSystem = 3;

}  // namespace kaizen
