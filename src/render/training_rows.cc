#include "render/training_rows.h"

#include <fmt/format.h>

#include <vector>

#include "base/json_writer.h"
#include "model/json_access.h"
#include "model/project_key.h"

namespace kaizen::render {
namespace {

using simdjson::dom::element;

using model::StringAt;

std::string Key(std::string_view id, std::string_view version) {
  std::string k(id);
  k.push_back('\x1f');
  k.append(version);
  return k;
}

// What a piece of work was, in words: "code-module src/client.ts (shopify, stage implement)".
std::string Described(const auto& w) {
  std::string out = w.type.empty() ? std::string("work") : w.type;
  if (!w.path.empty()) out += " " + w.path;
  std::vector<std::string> about;
  if (!w.server_type.empty()) about.push_back(w.server_type);
  if (!w.stage.empty()) about.push_back("stage " + w.stage);
  for (size_t i = 0; i < about.size(); ++i) out += (i == 0 ? " (" : ", ") + about[i];
  if (!about.empty()) out += ")";
  return out;
}

// The text of a piece of work a model could have written: its diff, else its summary.
const std::string& Content(const auto& w) { return w.diff.empty() ? w.summary : w.diff; }

struct Origin {
  std::string_view source, event_id, author, session, time, project;
};

void WriteOrigin(base::JsonWriter& w, const Origin& o) {
  base::Key(w, "source");
  base::Str(w, o.source);
  base::Key(w, "eventId");
  base::Str(w, o.event_id);
  base::Key(w, "author");
  base::Str(w, o.author);
  base::Key(w, "session");
  base::Str(w, o.session);
  base::Key(w, "time");
  base::Str(w, o.time);
  if (!o.project.empty()) {
    base::Key(w, "project");
    base::Str(w, o.project);
  }
}

void Line(const rapidjson::StringBuffer& b, std::string* out) {
  out->append(b.GetString(), b.GetSize());
  out->push_back('\n');
}

}  // namespace

size_t TrainingRows::Add(element event, std::string* out) {
  const std::string_view kind = StringAt(event, "kind");
  if (kind == "work") {
    RememberWork(event);
    return 0;
  }
  if (kind == "correction") return format_ == TrainingFormat::kDpo ? AddCorrection(event, out) : 0;
  if (kind == "feedback") return AddFeedback(event, out);
  return 0;
}

TrainingRows::Work TrainingRows::FromRef(element ref) {
  Work w;
  w.type = StringAt(ref, "type");
  w.path = StringAt(ref, "path");
  w.summary = StringAt(ref, "summary");
  w.diff = StringAt(ref, "diff");
  return w;
}

void TrainingRows::RememberWork(element event) {
  element ref;
  if (event["workProduct"].get(ref) != simdjson::SUCCESS) return;
  Work w = FromRef(ref);
  w.stage = StringAt(event, "pipelineStage");
  w.server_type = StringAt(event, "mcpServerType");
  w.repository = StringAt(event, "repository");
  std::string key = Key(StringAt(ref, "id"), StringAt(ref, "version"));
  latest_[std::string(StringAt(ref, "id"))] = key;
  works_[std::move(key)] = std::move(w);
}

bool TrainingRows::Resolve(element ref, Work* work) const {
  if (!StringAt(ref, "type").empty()) {  // a full WorkProductRef, inline
    *work = FromRef(ref);
    return true;
  }
  const std::string_view id = StringAt(ref, "id"), version = StringAt(ref, "version");
  std::string key;
  if (version.empty()) {
    auto latest = latest_.find(std::string(id));
    if (latest == latest_.end()) return false;
    key = latest->second;
  } else {
    key = Key(id, version);
  }
  auto it = works_.find(key);
  if (it == works_.end()) return false;
  *work = it->second;
  return true;
}

size_t TrainingRows::AddCorrection(element event, std::string* out) const {
  const std::string_view original = StringAt(event, "original"),
                         corrected = StringAt(event, "corrected");
  if (original.empty() || corrected.empty() || original == corrected) return 0;
  element context;
  const bool has_context = event["context"].get(context) == simdjson::SUCCESS &&
                           context.type() == simdjson::dom::element_type::OBJECT;
  auto from_context = [&](std::string_view key) {
    return has_context ? StringAt(context, key) : std::string_view();
  };
  std::string prompt(from_context("prompt"));
  if (prompt.empty()) {
    // What the original was written for, as far as the correction says.
    const bool code = StringAt(event, "_category") == "code";
    prompt = fmt::format("Write the {} ({})", code ? "code" : "text",
                         StringAt(event, "correction_type"));
    for (std::string_view key : {"project", "operation", "section", "file"}) {
      if (!from_context(key).empty()) prompt += fmt::format("; {}: {}", key, from_context(key));
    }
  }
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "prompt");
  base::Str(w, prompt);
  base::Key(w, "chosen");
  base::Str(w, corrected);
  base::Key(w, "rejected");
  base::Str(w, original);
  base::Key(w, "correctionType");
  base::Str(w, StringAt(event, "correction_type"));
  WriteOrigin(w, {"correction", StringAt(event, "id"), StringAt(event, "user_id"),
                  StringAt(event, "session_id"), StringAt(event, "timestamp"),
                  model::ProjectKey(from_context("project"))});
  w.EndObject();
  Line(b, out);
  return 1;
}

size_t TrainingRows::AddFeedback(element event, std::string* out) const {
  const Origin origin{"",
                      StringAt(event, "id"),
                      StringAt(event, "reviewerId"),
                      StringAt(event, "sessionId"),
                      StringAt(event, "timestamp"),
                      {}};
  element comparison;
  if (format_ == TrainingFormat::kDpo && event["comparison"].get(comparison) == simdjson::SUCCESS) {
    const std::string_view preferred = StringAt(comparison, "preferred");
    if (preferred != "A" && preferred != "B") return 0;
    element a, b_ref;
    Work option_a, option_b;
    if (comparison["optionA"].get(a) != simdjson::SUCCESS ||
        comparison["optionB"].get(b_ref) != simdjson::SUCCESS || !Resolve(a, &option_a) ||
        !Resolve(b_ref, &option_b)) {
      return 0;
    }
    const Work& chosen = preferred == "A" ? option_a : option_b;
    const Work& rejected = preferred == "A" ? option_b : option_a;
    if (Content(chosen).empty() || Content(rejected).empty()) return 0;
    rapidjson::StringBuffer b;
    base::JsonWriter w(b);
    w.StartObject();
    base::Key(w, "prompt");
    base::Str(w, Described(chosen));
    base::Key(w, "chosen");
    base::Str(w, Content(chosen));
    base::Key(w, "rejected");
    base::Str(w, Content(rejected));
    base::Key(w, "strength");
    base::Str(w, StringAt(comparison, "preferenceStrength"));
    base::Key(w, "winners");
    w.StartObject();
    simdjson::dom::array dims;
    if (comparison["dimensions"].get_array().get(dims) == simdjson::SUCCESS) {
      for (element d : dims) {
        const std::string_view winner = StringAt(d, "winner");
        base::Key(w, StringAt(d, "dimension"));
        base::Str(w, winner == preferred ? "chosen" : winner == "tie" ? "tie" : "rejected");
      }
    }
    w.EndObject();
    Origin o = origin;
    o.source = "comparison";
    o.project = model::ProjectKey(StringAt(event, "repository"));
    WriteOrigin(w, o);
    w.EndObject();
    Line(b, out);
    return 1;
  }
  if (format_ != TrainingFormat::kSft) return 0;
  element decision, ref;
  if (event["decision"].get(decision) != simdjson::SUCCESS ||
      StringAt(decision, "decision") != "approved" ||
      event["workProduct"].get(ref) != simdjson::SUCCESS) {
    return 0;
  }
  Work work;
  if (!Resolve(ref, &work) || Content(work).empty()) return 0;
  if (work.stage.empty()) work.stage = StringAt(event, "pipelineStage");
  if (work.server_type.empty()) work.server_type = StringAt(event, "mcpServerType");
  std::string prompt = Described(work);
  if (!work.diff.empty() && !work.summary.empty()) prompt += ": " + work.summary;
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "prompt");
  base::Str(w, prompt);
  base::Key(w, "completion");
  base::Str(w, Content(work));
  Origin o = origin;
  o.source = "approved-work";
  const std::string_view repository = StringAt(event, "repository");
  o.project = model::ProjectKey(repository.empty() ? work.repository : repository);
  WriteOrigin(w, o);
  w.EndObject();
  Line(b, out);
  return 1;
}

}  // namespace kaizen::render
