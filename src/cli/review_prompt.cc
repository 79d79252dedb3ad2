// The events `kaizen review` records, and its one-key prompt: the work shown as the review page
// shows it (the agent's change for that version), then one key per answer.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include <fmt/format.h>

#include "base/json_writer.h"
#include "cli/review.h"
#include "cli/terminal_keys.h"
#include "home/work_artifact.h"
#include "model/event_writer.h"
#include "model/uuid.h"

namespace kaizen::cli {

using model::EventField;
namespace {


constexpr size_t kMaxShownLines = 400;  // of a diff or file; the web page shows all of it
constexpr double kKeyTimeoutSeconds = 600;

int64_t WallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void OptStr(base::JsonWriter& w, model::FieldName key, std::string_view v) {
  if (v.empty()) return;
  model::Key(w, key);
  base::Str(w, v);
}

void StrList(base::JsonWriter& w, model::FieldName key, const std::vector<std::string>& v) {
  if (v.empty()) return;
  model::Key(w, key);
  base::StrArray(w, v);
}

void Dismissal(base::JsonWriter& w, const ReviewTarget& t, const ReviewAnswer& a,
               const std::string& reviewer) {
  model::Kind(w, model::EventKind::kAdmin);
  model::Key(w, EventField::action);
  base::Str(w, "dismiss");
  model::Key(w, EventField::work_id);
  base::Str(w, t.id);
  model::Key(w, EventField::work_version);
  base::Str(w, t.version);
  model::Key(w, EventField::reviewerId);
  base::Str(w, reviewer);
  OptStr(w, EventField::note, a.note);
}

void Meta(base::JsonWriter& w, const ReviewTiming& timing) {
  model::Key(w, EventField::meta);
  w.StartObject();
  if (timing.decision_ms) {
    model::Key(w, EventField::timeToDecisionMs);
    w.Int64(*timing.decision_ms);
  } else {
    model::Key(w, EventField::unmeasured);
    w.StartArray();
    base::Str(w, EventField::timeToDecisionMs.view());
    w.EndArray();
  }
  if (timing.first_input_ms) {
    model::Key(w, EventField::timeToFirstInteractionMs);
    w.Int64(*timing.first_input_ms);
  }
  StrList(w, EventField::fieldsModified, timing.fields);
  OptStr(w, EventField::presentationFormat, timing.presentation);
  w.EndObject();
}

// Prints at most kMaxShownLines of `text`, and how many more there were.
void PrintCapped(const std::string& text) {
  size_t at = 0, lines = 0;
  while (at < text.size() && lines < kMaxShownLines) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    fmt::print("  {}\n", std::string_view(text).substr(at, end - at));
    at = end + 1;
    ++lines;
  }
  if (at < text.size()) {
    size_t more = 0;
    for (size_t i = at; i < text.size(); ++i) more += text[i] == '\n';
    fmt::print("  ... {} more lines (kaizen serve's review page shows all of it)\n", more + 1);
  }
}

// The work as the review page shows it; returns the presentation format used.
std::string Show(const std::string& root, const ReviewTarget& t) {
  fmt::print("{} version {} ({}{})\n", t.id, t.version, t.type,
             t.server_type.empty() ? "" : ", task type " + t.server_type);
  fmt::print("  {}\n", t.summary);
  if (!t.compare_with.empty()) {
    fmt::print(
        "  an alternative to version {}: compare the two on kaizen serve's review page (A/B)\n",
        t.compare_with);
  }
  if (!t.pending) fmt::print("  (not in the review queue: reviewed, superseded or dismissed)\n");
  const home::WorkArtifact a =
      home::ReadWorkArtifact(root, home::WorkVersion{t.path, t.version, t.commit, t.diff,
                                                     /*newest=*/t.pending});
  std::string format = "summary-only";
  if (a.diff) {
    fmt::print("\nthe change ({}):\n", a.diff_source);
    PrintCapped(*a.diff);
    format = "diff-summary";
  } else if (a.file_path) {
    fmt::print("\n{}:\n", *a.file_path);
    PrintCapped(a.file_text);
    format = "full-file";
  }
  if (!a.unavailable.empty()) fmt::print("  ({})\n", a.unavailable);
  return format;
}

enum class Key1 { kKey, kCancelled };

// Prints `prompt` once the terminal is raw (a key typed as soon as the prompt shows is not
// flushed with the cooked mode's input), then reads keys until `accept` takes one; Ctrl-C,
// Ctrl-D, a closed terminal or the timeout cancel.
template <typename Accept>
Key1 AskKey(std::string_view prompt, Accept&& accept) {
  RawTerminal raw;
  if (!raw.ok()) return Key1::kCancelled;
  fmt::print("{}", prompt);
  std::fflush(stdout);
  while (true) {
    unsigned char key = 0;
    if (ReadOneKey(kKeyTimeoutSeconds, &key) != KeyRead::kKey) return Key1::kCancelled;
    if (key == 0x03 || key == 0x04) return Key1::kCancelled;
    if (accept(key)) return Key1::kKey;
  }
}

// A line in the terminal's normal mode (the person types and edits it); empty on Enter.
std::string OneLine(const std::string& prompt) {
  fmt::print("{}", prompt);
  std::fflush(stdout);
  std::string line;
  if (!std::getline(std::cin, line)) return {};
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

}  // namespace

std::string ReviewEventJson(const ReviewTarget& t, const ReviewAnswer& a,
                            const ReviewTiming& timing, const std::string& reviewer,
                            const std::string& session_id, const std::string& timestamp) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  model::Key(w, EventField::timestamp);
  base::Str(w, timestamp);
  if (a.dismiss) {
    Dismissal(w, t, a, reviewer);
    w.EndObject();
    return b.GetString();
  }
  model::Kind(w, model::EventKind::kFeedback);
  model::Key(w, EventField::sessionId);
  base::Str(w, session_id);
  model::Key(w, EventField::modalId);
  base::Str(w, model::NewUuidV7(WallMs()).ToString());
  model::Key(w, EventField::modalVersion);
  base::Str(w, "kaizen-review-terminal");
  model::Key(w, EventField::workProduct);
  w.StartObject();
  model::Key(w, EventField::id);
  base::Str(w, t.id);
  model::Key(w, EventField::version);
  base::Str(w, t.version);
  w.EndObject();
  model::Key(w, EventField::pipelineStage);
  base::Str(w, t.stage.empty() ? "review" : t.stage);
  OptStr(w, EventField::mcpServerType, t.server_type);
  model::Key(w, EventField::reviewerId);
  base::Str(w, reviewer);
  if (!a.decision.empty()) {
    model::Key(w, EventField::decision);
    w.StartObject();
    model::Key(w, EventField::decision);
    base::Str(w, a.decision);
    OptStr(w, EventField::reason, a.reason);
    OptStr(w, EventField::severity, a.severity);
    StrList(w, EventField::blockers, a.blockers);
    StrList(w, EventField::suggestions, a.suggestions);
    w.EndObject();
  }
  if (!a.scores.empty()) {
    model::Key(w, EventField::scores);
    w.StartArray();
    for (const auto& [dimension, score] : a.scores) {
      w.StartObject();
      model::Key(w, EventField::dimension);
      base::Str(w, dimension);
      model::Key(w, EventField::score);
      base::Num(w, score);
      w.EndObject();
    }
    w.EndArray();
  }
  if (!a.liked.empty() || !a.disliked.empty() || !a.note.empty()) {
    model::Key(w, EventField::freeText);
    w.StartObject();
    OptStr(w, EventField::liked, a.liked);
    OptStr(w, EventField::disliked, a.disliked);
    OptStr(w, EventField::generalNotes, a.note);
    w.EndObject();
  }
  if (!a.confidence.empty()) {
    model::Key(w, EventField::confidence);
    w.StartObject();
    model::Key(w, EventField::level);
    base::Str(w, a.confidence);
    model::Key(w, EventField::wouldDelegateToAI);
    w.Bool(a.would_delegate);
    model::Key(w, EventField::needsExpertReview);
    w.Bool(a.needs_expert);
    w.EndObject();
  }
  Meta(w, timing);
  w.EndObject();
  return b.GetString();
}

Asked AskOnTerminal(const std::string& root, const ReviewTarget& target, ReviewAnswer* answer,
                    ReviewTiming* timing) {
  timing->presentation = Show(root, target);
  const int64_t shown = WallMs();
  enum { kNone, kSkip, kQuit } other = kNone;
  const Key1 decided =
      AskKey("\ndecision? a approve  r reject  n needs work  d defer  x dismiss  s skip  q quit: ",
             [&](unsigned char key) {
               if (!timing->first_input_ms) timing->first_input_ms = WallMs() - shown;
               if (key == 'q') {
                 other = kQuit;
               } else if (key == 's' || key == '\r' || key == '\n' || key == 0x1b) {
                 other = kSkip;
               } else if (key == 'x') {
                 answer->dismiss = true;
               } else {
                 answer->decision = key == 'a'   ? "approved"
                                    : key == 'r' ? "rejected"
                                    : key == 'n' ? "needs-work"
                                    : key == 'd' ? "deferred"
                                                 : "";
                 return !answer->decision.empty();
               }
               return true;
             });
  if (decided == Key1::kCancelled) {
    fmt::print("\n");
    return Asked::kCancelled;
  }
  if (other == kQuit) {
    fmt::print("q\n");
    return Asked::kQuit;
  }
  if (other == kSkip) {
    fmt::print("skipped\n");
    return Asked::kSkipped;
  }
  timing->decision_ms = WallMs() - shown;
  fmt::print("{}\n", answer->dismiss ? "dismiss" : answer->decision);
  if (answer->dismiss) {
    answer->note = OneLine("why dismiss it? (one line, Enter to skip): ");
    return Asked::kAnswered;
  }
  timing->fields.push_back("decision");
  static constexpr const char* kLevels[] = {"very-unsure", "somewhat-unsure", "fairly-sure",
                                            "very-sure"};
  const Key1 sure = AskKey(
      "how sure are you? 1 very unsure  2 somewhat unsure  3 fairly sure  4 very sure  "
      "(Enter skips): ",
      [&](unsigned char key) {
        if (key >= '1' && key <= '4') {
          answer->confidence = kLevels[key - '1'];
          return true;
        }
        return key == '\r' || key == '\n' || key == 0x1b;
      });
  if (sure == Key1::kCancelled) {
    fmt::print("\n");
    return Asked::kCancelled;
  }
  if (answer->confidence.empty()) {
    fmt::print("skipped\n");
  } else {
    timing->fields.push_back("confidence");
    fmt::print("{}\n", answer->confidence);
  }
  const bool critical = answer->decision == "rejected" || answer->decision == "needs-work";
  std::string text = OneLine(critical ? "what is wrong? (one line, Enter to skip): "
                                      : "a note? (one line, Enter to skip): ");
  if (!text.empty()) {
    (critical ? answer->reason : answer->note) = std::move(text);
    timing->fields.push_back(critical ? "reason" : "generalNotes");
  }
  return Asked::kAnswered;
}

}  // namespace kaizen::cli
