#include "agents/hook_payload.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <functional>

#include "base/json_writer.h"
#include "text/ascii_case.h"

namespace kaizen::agents {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

std::string StringAt(object o, std::string_view key) {
  std::string_view s;
  if (o[key].get_string().get(s) == simdjson::SUCCESS) return std::string(s);
  return {};
}

bool BoolAt(object o, std::string_view key) {
  bool b = false;
  return o[key].get_bool().get(b) == simdjson::SUCCESS && b;
}

HookEvent EventOf(std::string_view name, bool* subagent) {
  *subagent = name == "SubagentStop";
  if (name == "SessionStart") return HookEvent::kSessionStart;
  if (name == "UserPromptSubmit") return HookEvent::kUserPrompt;
  if (name == "PreToolUse") return HookEvent::kPreTool;
  if (name == "PostToolUse") return HookEvent::kPostTool;
  if (name == "PostToolUseFailure") return HookEvent::kPostToolFailure;
  if (name == "Stop" || name == "SubagentStop") return HookEvent::kStop;
  if (name == "SessionEnd") return HookEvent::kSessionEnd;
  return HookEvent::kOther;
}

// The added lines of each file of an apply_patch envelope ("*** Begin Patch" ... "*** End
// Patch"): an added file whole, an updated one as its "+" lines.
void PatchWrites(std::string_view patch, std::vector<FileWrite>* out) {
  FileWrite* current = nullptr;
  size_t pos = 0;
  while (pos <= patch.size()) {
    size_t end = patch.find('\n', pos);
    if (end == std::string_view::npos) end = patch.size();
    std::string_view line = patch.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos = end + 1;
    for (std::string_view marker : {"*** Add File: ", "*** Update File: "}) {
      if (line.starts_with(marker)) {
        out->push_back({std::string(line.substr(marker.size())), {}, marker == "*** Add File: "});
        current = &out->back();
      }
    }
    if (line.starts_with("*** Delete File: ") || line.starts_with("*** End Patch")) {
      current = nullptr;
    } else if (current && line.starts_with('+')) {
      current->text.append(line.substr(1)).push_back('\n');
    }
    if (end == patch.size()) break;
  }
  std::erase_if(*out, [](const FileWrite& w) { return w.text.empty(); });
}

// Every string in `e`, at any depth (apply_patch's envelope may be `command`, an element of an
// argv array, or `input`).
void Strings(element e, std::vector<std::string_view>* out) {
  // The array or object in a variable of its own: a range-for over `e.get_array().value_unsafe()`
  // would iterate a reference into a temporary that is gone (found by the hook fuzzer).
  std::string_view s;
  simdjson::dom::array array;
  simdjson::dom::object object;
  if (e.get_string().get(s) == simdjson::SUCCESS) {
    out->push_back(s);
  } else if (e.get_array().get(array) == simdjson::SUCCESS) {
    for (element x : array) Strings(x, out);
  } else if (e.get_object().get(object) == simdjson::SUCCESS) {
    for (auto field : object) Strings(field.value, out);
  }
}

// What a file-writing tool writes. Claude Code: Write {file_path, content}, Edit {file_path,
// new_string}, MultiEdit {file_path, edits[].new_string}; Codex: apply_patch; Goose:
// developer__write {path, content}, developer__edit {path, after}, and the older
// developer__text_editor {command, path, file_text | new_str}.
void WritesOf(std::string_view tool, object input, std::vector<FileWrite>* out) {
  const std::string path = !StringAt(input, "file_path").empty() ? StringAt(input, "file_path")
                                                                 : StringAt(input, "path");
  if (tool == "Write" || tool == "developer__write") {
    out->push_back({path, StringAt(input, "content"), true});
  } else if (tool == "Edit") {
    out->push_back({path, StringAt(input, "new_string"), false});
  } else if (tool == "developer__edit") {
    out->push_back({path, StringAt(input, "after"), false});
  } else if (tool == "developer__text_editor") {
    const std::string command = StringAt(input, "command");
    if (command == "write") out->push_back({path, StringAt(input, "file_text"), true});
    if (command == "str_replace" || command == "insert")
      out->push_back({path, StringAt(input, "new_str"), false});
  } else if (tool == "MultiEdit") {
    simdjson::dom::array edits;
    if (input["edits"].get_array().get(edits) == simdjson::SUCCESS) {
      for (element e : edits) {
        object edit;
        if (e.get_object().get(edit) != simdjson::SUCCESS) continue;
        out->push_back({path, StringAt(edit, "new_string"), false});
      }
    }
  } else {
    // apply_patch, under whatever tool name carries it (Codex's apply_patch, a shell heredoc).
    std::vector<std::string_view> strings;
    for (auto field : input) Strings(field.value, &strings);
    for (std::string_view s : strings) {
      if (s.find("*** Begin Patch") != std::string_view::npos) PatchWrites(s, out);
    }
  }
  std::erase_if(*out, [](const FileWrite& w) { return w.path.empty() || w.text.empty(); });
}

// A tool response that says the tool failed: {"is_error": true}, {"success": false}, a non-zero
// exit code, or an `error` string.
bool ResponseFailed(element response, std::string* why) {
  object o;
  if (response.get_object().get(o) != simdjson::SUCCESS) return false;
  int64_t code = 0;
  for (std::string_view key : {"exit_code", "exitCode", "returncode"}) {
    if (o[key].get_int64().get(code) == simdjson::SUCCESS && code != 0) {
      *why = StringAt(o, "stderr");
      if (why->empty()) *why = StringAt(o, "output");
      if (why->empty()) *why = "exit code " + std::to_string(code);
      return true;
    }
  }
  bool flag = false;
  if ((o["is_error"].get_bool().get(flag) == simdjson::SUCCESS && flag) ||
      (o["success"].get_bool().get(flag) == simdjson::SUCCESS && !flag)) {
    *why = StringAt(o, "error");
    if (why->empty()) *why = StringAt(o, "stderr");
    if (why->empty()) *why = StringAt(o, "content");
    return true;
  }
  return false;
}

// A tool response that is text: Codex's apply_patch output starts "Exit code: N\nWall time:
// ...\nOutput:\n..."; a shell command's is only what it printed (`*silent`: it says nothing of
// how the command ended).
bool TextSaysFailed(std::string_view text, std::string* why, bool* silent) {
  constexpr std::string_view kExit = "Exit code: ";
  if (text.substr(0, kExit.size()) != kExit) {
    *silent = true;
    return false;
  }
  int64_t code = 0;
  size_t i = kExit.size();
  bool digits = false;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && code < 100000; ++i) {
    code = code * 10 + (text[i] - '0');
    digits = true;
  }
  if (!digits || code == 0) return false;
  constexpr std::string_view kOutput = "Output:\n";
  const size_t output = text.find(kOutput);
  *why = output == std::string_view::npos ? "exit code " + std::to_string(code)
                                          : std::string(text.substr(output + kOutput.size()));
  if (why->empty()) *why = "exit code " + std::to_string(code);
  return true;
}

std::string Json(const std::function<void(rapidjson::Writer<rapidjson::StringBuffer>&)>& fill) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  fill(w);
  return std::string(b.GetString(), b.GetSize());
}

// {"hookSpecificOutput": {"hookEventName": EVENT, <more>}}
std::string SpecificOutput(std::string_view event,
                           const std::vector<std::pair<std::string_view, std::string_view>>& more) {
  return Json([&](auto& w) {
    w.StartObject();
    w.Key("hookSpecificOutput");
    w.StartObject();
    w.Key("hookEventName");
    base::Str(w, event);
    for (const auto& [key, value] : more) {
      base::Str(w, key);
      base::Str(w, value);
    }
    w.EndObject();
    w.EndObject();
  });
}

}  // namespace

std::string_view HookAgentName(HookAgent a) {
  switch (a) {
    case HookAgent::kCodex:
      return "codex";
    case HookAgent::kGoose:
      return "goose";
    case HookAgent::kClaudeCode:
      break;
  }
  return "claude-code";
}

std::optional<HookAgent> ParseHookAgent(std::string_view name) {
  for (HookAgent a : {HookAgent::kClaudeCode, HookAgent::kCodex, HookAgent::kGoose}) {
    if (HookAgentName(a) == name) return a;
  }
  return std::nullopt;
}

Result<HookPayload> ParseHookPayload(std::string_view json, std::optional<HookAgent> given) {
  simdjson::dom::parser parser;
  element doc;
  if (parser.parse(json.data(), json.size()).get(doc) != simdjson::SUCCESS) {
    return InvalidArgument("the payload is not JSON (a hook reads one JSON object on stdin)");
  }
  object o;
  if (doc.get_object().get(o) != simdjson::SUCCESS) {
    return InvalidArgument("the payload is not a JSON object");
  }
  HookPayload p;
  p.event_name = StringAt(o, "hook_event_name");
  const bool goose_shape = p.event_name.empty() && !StringAt(o, "event").empty();
  if (goose_shape) p.event_name = StringAt(o, "event");
  if (p.event_name.empty()) {
    return InvalidArgument("hook_event_name: missing (and no Goose `event` either)");
  }
  p.session_id = StringAt(o, "session_id");
  if (p.session_id.empty()) return InvalidArgument("session_id: missing or not a string");
  p.transcript_path = StringAt(o, "transcript_path");
  p.turn_id = StringAt(o, "turn_id");
  if (given) {
    p.agent = *given;
  } else if (goose_shape) {
    p.agent = HookAgent::kGoose;
  } else if (!p.turn_id.empty() || p.transcript_path.find("/.codex/") != std::string::npos) {
    p.agent = HookAgent::kCodex;
  }
  p.event = EventOf(p.event_name, &p.subagent);
  p.cwd = StringAt(o, "cwd");
  if (p.cwd.empty()) p.cwd = StringAt(o, "working_dir");
  p.model = StringAt(o, "model");
  p.source = StringAt(o, "source");
  p.stop_hook_active = BoolAt(o, "stop_hook_active");
  p.prompt = StringAt(o, "prompt");
  if (p.prompt.empty()) p.prompt = StringAt(o, "message");
  p.last_assistant_message = StringAt(o, "last_assistant_message");
  p.tool_name = StringAt(o, "tool_name");
  p.tool_use_id = StringAt(o, "tool_use_id");
  if (p.tool_use_id.empty()) p.tool_use_id = StringAt(o, "tool_call_id");
  element input;
  if (o["tool_input"].get(input) == simdjson::SUCCESS) {
    p.tool_call_key = p.tool_name + " " + simdjson::minify(input);
    object input_object;
    if (input.get_object().get(input_object) == simdjson::SUCCESS) {
      WritesOf(p.tool_name, input_object, &p.writes);
    }
  }
  if (p.event == HookEvent::kPostToolFailure) {
    p.tool_failed = true;
    p.failure = StringAt(o, "error");
  }
  element response;
  if (p.event == HookEvent::kPostTool && o["tool_response"].get(response) == simdjson::SUCCESS) {
    std::string_view text;
    if (response.get_string().get(text) == simdjson::SUCCESS) {
      p.tool_failed = TextSaysFailed(text, &p.failure, &p.response_is_text);
    } else {
      p.tool_failed = ResponseFailed(response, &p.failure);
    }
  }
  return p;
}

std::string SessionStartOutput(HookAgent agent, std::string_view context) {
  if (agent == HookAgent::kGoose || context.empty()) return {};
  return SpecificOutput("SessionStart", {{"additionalContext", context}});
}

std::string BlockOutput(HookAgent agent, std::string_view reason) {
  if (agent == HookAgent::kGoose) {
    return Json([&](auto& w) {
      w.StartObject();
      w.Key("decision");
      w.String("block");
      w.Key("reason");
      base::Str(w, reason);
      w.EndObject();
    });
  }
  return SpecificOutput("PreToolUse",
                        {{"permissionDecision", "deny"}, {"permissionDecisionReason", reason}});
}

std::string WarnOutput(HookAgent agent, std::string_view context) {
  if (agent == HookAgent::kGoose || context.empty()) return {};
  return SpecificOutput("PreToolUse", {{"additionalContext", context}});
}

std::string_view ClassifyToolError(std::string_view message) {
  if (message.empty()) return "unknown";
  const std::string m = text::ToLowerAscii(message);
  auto any = [&](std::initializer_list<std::string_view> words) {
    return std::any_of(words.begin(), words.end(),
                       [&](std::string_view w) { return m.find(w) != std::string::npos; });
  };
  if (any({"timed out", "timeout", "deadline exceeded"})) return "timeout";
  if (any({"conflict", "already exists", "locked", "non-fast-forward", "rejected"})) {
    return "conflict";
  }
  if (any({"invalid", "validation", "syntax error", "type error", "typeerror", "expected", "assert",
           "lint", "does not match", "failed to parse", "no such file"})) {
    return "validation";
  }
  return "tool_failure";
}

}  // namespace kaizen::agents
