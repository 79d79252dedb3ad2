// `kaizen review` (issue 29): the review queue and reviews from the terminal. Shared by the verb
// (review.cc) and its one-key prompt (review_prompt.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/verb.h"

namespace kaizen::cli {

// What the person said, from flags or keys. Empty/absent fields are left out of the event.
struct ReviewAnswer {
  std::string decision;  // approved | rejected | needs-work | deferred; "" for none
  bool dismiss = false;  // an admin dismiss instead of a review
  std::string reason, severity, liked, disliked, note, confidence;
  bool would_delegate = false, needs_expert = false;
  std::vector<std::string> blockers, suggestions;
  std::vector<std::pair<std::string, double>> scores;  // (dimension, 1..10)
};

// How the review was taken: what the terminal measured, and nothing it did not.
struct ReviewTiming {
  std::optional<int64_t> decision_ms;     // from showing the work to the decision
  std::optional<int64_t> first_input_ms;  // from showing the work to the first key
  std::string presentation;               // how the work was shown; "" when it was not
  std::vector<std::string> fields;        // the answers given (meta.fieldsModified)
};

// The work version a review is for, as the queue (or else the registry) holds it.
struct ReviewTarget {
  std::string id, version, type, summary, path, commit, diff, stage, server_type;
  bool pending = false;      // in the review queue
  std::string compare_with;  // the version this one is an alternative to (seed 000 §6.4)
};

// The FeedbackEvent (or, for a dismissal, the admin event) of an answer, as JSON. `timestamp`:
// ISO 8601 in the reviewer's own UTC offset, so the time of day is theirs.
std::string ReviewEventJson(const ReviewTarget& target, const ReviewAnswer& answer,
                            const ReviewTiming& timing, const std::string& reviewer,
                            const std::string& session_id, const std::string& timestamp);

enum class Asked {
  kAnswered,   // *answer holds what to record
  kSkipped,    // s, Enter or Escape: nothing recorded, on to the next
  kQuit,       // q: nothing recorded, stop
  kCancelled,  // Ctrl-C, Ctrl-D, the terminal closed or no key for 10 minutes
};

// Shows `target` on the terminal (summary, then the agent's diff, else the file) and asks for the
// decision, a confidence and a note, one key per answer (the note is a line). `root`: where the
// work's path is read from. Fills what the terminal measured into *timing.
Asked AskOnTerminal(const std::string& root, const ReviewTarget& target, ReviewAnswer* answer,
                    ReviewTiming* timing);

}  // namespace kaizen::cli
