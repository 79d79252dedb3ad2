// Whether a work product's version names a git commit: 7-40 hex digits, an abbreviated or full
// sha (kaizen git scan and GitHub pull requests record versions so). Read by the learner (agent
// commits joined to their reviews) and the review page (the change shown for a version).
#pragma once

#include <string_view>

namespace kaizen::model {

inline bool LooksLikeCommit(std::string_view v) {
  if (v.size() < 7 || v.size() > 40) return false;
  return v.find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
}

}  // namespace kaizen::model
