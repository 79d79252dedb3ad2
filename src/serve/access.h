// Who is writing, and what they may write (issue 30, "Identities and roles"). A team gives each
// person and agent a token of their own (store/token_registry.h); every write to `kaizen serve` is
// attributed from it:
//   reviewer  may write any event but rule audits and deletions; the feedback they write is
//             theirs: its reviewerId is the token's name (filled in when absent, refused with 403
//             when it names someone else); consent, reserve and release only for themselves
//   agent     may write anything but feedback and admin events other than `submit`
//   admin     anything
// With no named token the home's single token (home/token.h) is all there is, with every right:
// one person's kaizen works as it always did. That token stays an admin's next to named ones.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "home/token.h"
#include "model/event_kind.h"
#include "store/shared_log.h"
#include "store/token_registry.h"

namespace kaizen::serve {

struct Principal {
  std::string name;  // empty for the home's single token
  store::Role role = store::Role::kAdmin;
};

class Authenticator {
 public:
  // `home_token`: the home's single token. `home` and `store` (libpq conninfo, empty for none):
  // where the registry is read, again at most once a second so a new or revoked token takes
  // effect within one.
  Authenticator(std::string home_token, std::string home, std::string store);
  ~Authenticator();

  struct Outcome {
    home::TokenCheck check = home::TokenCheck::kMissing;
    Principal who;  // when kOk
  };
  // Thread-safe.
  Outcome Check(std::string_view authorization);

 private:
  Status Reload();

  std::string home_token_;
  std::string home_;
  std::string store_;
  std::mutex mu_;
  std::unique_ptr<store::SharedLog> pg_;        // GUARDED_BY(mu_)
  std::vector<store::TokenEntry> entries_;      // GUARDED_BY(mu_): valid ones only
  std::chrono::steady_clock::time_point read_;  // GUARDED_BY(mu_)
  bool ever_read_ = false;                      // GUARDED_BY(mu_)
};

// Whether `who` may write the event in `line` (of kind `kind`, else its own `kind` field); may
// fill in a reviewer's reviewerId. Empty when admitted, else why not (a 403's message). A line
// that is not a JSON object is admitted: the pipeline refuses it with its field errors.
std::string Admit(const Principal& who, std::optional<model::EventKind> kind, std::string* line);
// The same for every line of a JSONL body; the first refusal names its line number.
std::string AdmitLines(const Principal& who, std::string* jsonl);

}  // namespace kaizen::serve
