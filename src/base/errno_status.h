// The Status for a failed system call on a file: the action, the path and strerror, and for a full
// disk or quota what the user can do about it.
#pragma once

#include <cstring>
#include <string>
#include <string_view>

#include <errno.h>
#include <fmt/format.h>

#include "kaizen/status.h"

namespace kaizen::base {

inline Status ErrnoStatus(std::string_view what, const std::string& path, int err) {
  std::string msg = fmt::format("{} {}: {}", what, path, std::strerror(err));
  if (err == ENOSPC || err == EDQUOT) {
    return ResourceExhausted(msg + " (free some disk space, then retry; nothing was acknowledged)");
  }
  return IoError(msg);
}

}  // namespace kaizen::base
