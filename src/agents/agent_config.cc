#include "agents/agent_config.h"

#include <fmt/format.h>
#include <rapidjson/error/en.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <utility>

namespace kaizen::agents::agent_config {
namespace {

using rapidjson::Value;

const char* TypeName(const Value& v) {
  switch (v.GetType()) {
    case rapidjson::kNullType:
      return "null";
    case rapidjson::kFalseType:
    case rapidjson::kTrueType:
      return "a boolean";
    case rapidjson::kObjectType:
      return "an object";
    case rapidjson::kArrayType:
      return "an array";
    case rapidjson::kStringType:
      return "a string";
    case rapidjson::kNumberType:
      return "a number";
  }
  return "a value";
}

// 1-based line and column of byte `offset` in `text`.
std::pair<size_t, size_t> LineColumn(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

Value Str(std::string_view s, JsonConfig& c) {
  return Value(s.data(), static_cast<rapidjson::SizeType>(s.size()), c.alloc());
}

bool StrIs(const Value& v, std::string_view s) {
  return v.IsString() && std::string_view(v.GetString(), v.GetStringLength()) == s;
}

// The member `key` of an object, or nullptr. An index loop: comparing RapidJSON's member iterators
// is ambiguous under C++20's reversed operators.
Value* Find(Value& obj, std::string_view key) {
  if (!obj.IsObject()) return nullptr;
  for (rapidjson::SizeType i = 0; i < obj.MemberCount(); ++i) {
    auto& member = obj.MemberBegin()[i];
    if (StrIs(member.name, key)) return &member.value;
  }
  return nullptr;
}
const Value* Find(const Value& obj, std::string_view key) {
  return Find(const_cast<Value&>(obj), key);
}

std::string_view BaseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool HasType(const Value& v, rapidjson::Type type) {
  if (type == rapidjson::kObjectType) return v.IsObject();
  if (type == rapidjson::kArrayType) return v.IsArray();
  return v.GetType() == type;
}

// The member `key` of `parent` when it exists with the type `type`; nullptr when missing; another
// type there is InvalidArgument: kaizen never guesses what a user meant by it.
Result<Value*> ExistingMember(JsonConfig& c, Value& parent, std::string_view key,
                              rapidjson::Type type, std::string_view field_path,
                              std::string_view rule) {
  Value* found = Find(parent, key);
  if (found == nullptr) return found;
  if (!HasType(*found, type)) {
    return InvalidArgument(
        fmt::format("{}: {}: is {}; {}", c.path(), field_path, TypeName(*found), rule));
  }
  return found;
}

// As ExistingMember, but a missing member is created empty (an object or an array).
Result<Value*> Member(JsonConfig& c, Value& parent, std::string_view key, rapidjson::Type type,
                      std::string_view field_path, std::string_view rule) {
  KZ_ASSIGN_OR_RETURN(Value * found, ExistingMember(c, parent, key, type, field_path, rule));
  if (found != nullptr) return found;
  parent.AddMember(Str(key, c), Value(type), c.alloc());
  return &parent.MemberBegin()[parent.MemberCount() - 1].value;
}

void RemoveMember(Value& parent, std::string_view key, JsonConfig& c) {
  parent.EraseMember(Str(key, c));  // EraseMember keeps the order of the others
}

// Sets `entry[key]` to `value` when it differs; true when it changed.
bool SetString(JsonConfig& c, Value& entry, std::string_view key, std::string_view value) {
  Value* found = Find(entry, key);
  if (found != nullptr && StrIs(*found, value)) return false;
  if (found != nullptr) {
    *found = Str(value, c);
  } else {
    entry.AddMember(Str(key, c), Str(value, c), c.alloc());
  }
  return true;
}

bool SetInt(JsonConfig& c, Value& entry, std::string_view key, int value) {
  Value* found = Find(entry, key);
  if (found != nullptr && found->IsInt() && found->GetInt() == value) return false;
  if (found != nullptr) {
    found->SetInt(value);
  } else {
    entry.AddMember(Str(key, c), Value(value), c.alloc());
  }
  return true;
}

// Sets or removes the matcher of a hook entry; true when it changed.
bool SetMatcher(JsonConfig& c, Value& entry, std::string_view matcher) {
  if (!matcher.empty()) return SetString(c, entry, "matcher", matcher);
  if (Find(entry, "matcher") == nullptr) return false;
  entry.EraseMember("matcher");
  return true;
}

// The command of a handler object, or "" when it has none.
std::string_view CommandOf(const Value& handler) {
  if (!handler.IsObject()) return {};
  const Value* command = Find(handler, "command");
  if (command == nullptr || !command->IsString()) return {};
  return {command->GetString(), command->GetStringLength()};
}

constexpr std::string_view kHooksRule =
    "it must be an object whose keys are hook event names (the agent's hooks documentation)";

std::string EventRule(const HookSet& h) {
  return h.shape == HookShape::kGrouped
             ? "it must be an array of {\"matcher\", \"hooks\": [...]} groups"
             : "it must be an array of {\"command\", ...} hooks";
}

int TimeoutOf(const HookSet& h, const HookPoint& p) {
  return p.timeout_seconds > 0 ? p.timeout_seconds : h.timeout_seconds;
}

// Adds or updates the hook of one event; appends to `log`.
Status AddHookPoint(JsonConfig& c, Value& hooks_obj, const HookSet& h, const HookPoint& p,
                    EditLog* log) {
  const std::string field = "hooks." + p.event;
  KZ_ASSIGN_OR_RETURN(Value * event,
                      Member(c, hooks_obj, p.event, rapidjson::kArrayType, field, EventRule(h)));
  const std::string what =
      p.matcher.empty() ? field : fmt::format("{} (matcher \"{}\")", field, p.matcher);
  for (Value& entry : event->GetArray()) {
    if (!entry.IsObject()) continue;
    if (h.shape == HookShape::kFlat) {
      if (!IsKaizenHookCommand(CommandOf(entry), h.agent, h.command)) continue;
      bool changed = SetString(c, entry, "command", h.command);
      changed |= SetMatcher(c, entry, p.matcher);
      changed |= SetInt(c, entry, "timeout", TimeoutOf(h, p));
      if (changed) log->changes.push_back("updated the kaizen hook at " + what);
      return Status::Ok();
    }
    Value* handlers = Find(entry, "hooks");
    if (handlers == nullptr || !handlers->IsArray()) continue;
    for (Value& handler : handlers->GetArray()) {
      if (!IsKaizenHookCommand(CommandOf(handler), h.agent, h.command)) continue;
      bool changed = SetString(c, handler, "type", "command");
      changed |= SetString(c, handler, "command", h.command);
      changed |= SetInt(c, handler, "timeout", TimeoutOf(h, p));
      // A group the user put other hooks into keeps its matcher: it is theirs too.
      if (handlers->Size() == 1) changed |= SetMatcher(c, entry, p.matcher);
      if (changed) log->changes.push_back("updated the kaizen hook at " + what);
      return Status::Ok();
    }
  }
  Value entry(rapidjson::kObjectType);
  if (h.shape == HookShape::kFlat) {
    entry.AddMember("command", Str(h.command, c), c.alloc());
    if (!p.matcher.empty()) entry.AddMember("matcher", Str(p.matcher, c), c.alloc());
    entry.AddMember("timeout", Value(TimeoutOf(h, p)), c.alloc());
  } else {
    if (!p.matcher.empty()) entry.AddMember("matcher", Str(p.matcher, c), c.alloc());
    Value handler(rapidjson::kObjectType);
    handler.AddMember("type", "command", c.alloc());
    handler.AddMember("command", Str(h.command, c), c.alloc());
    handler.AddMember("timeout", Value(TimeoutOf(h, p)), c.alloc());
    Value handlers(rapidjson::kArrayType);
    handlers.PushBack(handler, c.alloc());
    entry.AddMember("hooks", handlers, c.alloc());
  }
  event->PushBack(entry, c.alloc());
  log->changes.push_back("added the kaizen hook at " + what);
  return Status::Ok();
}

}  // namespace

Result<JsonConfig> JsonConfig::Parse(std::string path, std::string_view text) {
  JsonConfig c;
  c.path_ = std::move(path);
  c.doc_ = std::make_unique<rapidjson::Document>();
  if (text.empty()) {
    c.doc_->SetObject();
    return c;
  }
  // Full precision: a number the user wrote is written back as the same double.
  c.doc_->Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
  if (c.doc_->HasParseError()) {
    const size_t offset = c.doc_->GetErrorOffset();
    auto [line, column] = LineColumn(text, offset);
    std::string rule = rapidjson::GetParseError_En(c.doc_->GetParseError());
    if (offset < text.size() && text[offset] == '/') {
      rule = "a comment (// or /* */) is not JSON, and kaizen init rewrites only plain JSON";
    } else if (offset < text.size() && (text[offset] == ']' || text[offset] == '}')) {
      size_t before = offset;
      while (before > 0 &&
             std::string_view(" \t\r\n").find(text[before - 1]) != std::string_view::npos) {
        --before;
      }
      if (before > 0 && text[before - 1] == ',') {
        rule = fmt::format("a comma before '{}' is not JSON (a trailing comma)", text[offset]);
      }
    }
    return InvalidArgument(fmt::format(
        "{}:{}:{} (byte {}): not valid JSON: {} (fix the file, or add kaizen's entries by hand)",
        c.path_, line, column, offset, rule));
  }
  if (!c.doc_->IsObject()) {
    return InvalidArgument(
        fmt::format("{}: the top level is {}; a settings file is one JSON "
                    "object",
                    c.path_, TypeName(*c.doc_)));
  }
  // The file's own indentation: the leading blanks of its first indented line.
  size_t line_start = text.find('\n');
  while (line_start != std::string_view::npos && line_start + 1 < text.size()) {
    const size_t begin = line_start + 1;
    size_t end = begin;
    while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
    if (end > begin && end < text.size() && text[end] != '\n') {
      c.indent_char_ = text[begin];
      c.indent_count_ =
          static_cast<unsigned>(std::min<size_t>(text[begin] == '\t' ? 1 : end - begin, 8));
      break;
    }
    line_start = text.find('\n', begin);
  }
  c.final_newline_ = text.back() == '\n';
  return c;
}

std::string JsonConfig::Serialize() const {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
  writer.SetIndent(indent_char_, indent_count_);
  doc_->Accept(writer);
  std::string out(buffer.GetString(), buffer.GetSize());
  if (final_newline_) out += '\n';
  return out;
}

bool IsKaizenHookCommand(std::string_view command, std::string_view agent,
                         std::string_view current_command) {
  if (command.empty()) return false;
  if (command == current_command) return true;
  const std::vector<std::string> words = ShellWords(command);
  if (words.size() != 4 && words.size() != 6) return false;
  return BaseName(words[0]) == "kaizen" && words[1] == "hook" && words[2] == "--agent" &&
         words[3] == agent && (words.size() == 4 || words[4] == "--home");
}

namespace {
Status RemoveHooksExcept(JsonConfig& c, const HookSet& h, const std::vector<HookPoint>& keep,
                         std::string_view why, EditLog* log);
}  // namespace

Status AddHooks(JsonConfig& c, const HookSet& h, EditLog* log) {
  // Cursor reads its hooks file only with a schema version; 1 is the one it documents. It goes
  // first in a new file, as Cursor's examples have it.
  if (h.shape == HookShape::kFlat && Find(c.doc(), "version") == nullptr) {
    KZ_RETURN_IF_ERROR(
        ExistingMember(c, c.doc(), "hooks", rapidjson::kObjectType, "hooks", kHooksRule).status());
    c.doc().AddMember("version", Value(1), c.alloc());
    log->changes.push_back("added \"version\": 1");
  }
  KZ_ASSIGN_OR_RETURN(Value * hooks_obj,
                      Member(c, c.doc(), "hooks", rapidjson::kObjectType, "hooks", kHooksRule));
  for (const HookPoint& p : h.points) KZ_RETURN_IF_ERROR(AddHookPoint(c, *hooks_obj, h, p, log));
  // An earlier kaizen registered events this one does nothing at (Claude Code's SubagentStop).
  return RemoveHooksExcept(c, h, h.points, " (kaizen no longer uses it)", log);
}

namespace {

// Takes out kaizen's hooks at every event but those in `keep`, then what that leaves empty.
Status RemoveHooksExcept(JsonConfig& c, const HookSet& h, const std::vector<HookPoint>& keep,
                         std::string_view why, EditLog* log) {
  KZ_ASSIGN_OR_RETURN(Value * hooks_obj, ExistingMember(c, c.doc(), "hooks", rapidjson::kObjectType,
                                                        "hooks", kHooksRule));
  if (hooks_obj == nullptr) return Status::Ok();
  std::vector<std::string> emptied;
  for (rapidjson::SizeType e = 0; e < hooks_obj->MemberCount(); ++e) {
    auto& event = hooks_obj->MemberBegin()[e];
    if (!event.value.IsArray()) continue;
    const std::string_view name(event.name.GetString(), event.name.GetStringLength());
    if (std::any_of(keep.begin(), keep.end(),
                    [&](const HookPoint& p) { return p.event == name; })) {
      continue;
    }
    const std::string field = "hooks." + std::string(name);
    Value& entries = event.value;
    bool removed_here = false;
    for (rapidjson::SizeType i = entries.Size(); i-- > 0;) {
      Value& entry = entries[i];
      if (!entry.IsObject()) continue;
      if (h.shape == HookShape::kFlat) {
        if (!IsKaizenHookCommand(CommandOf(entry), h.agent, h.command)) continue;
        entries.Erase(entries.Begin() + i);
        log->changes.push_back(fmt::format("removed the kaizen hook at {}{}", field, why));
        removed_here = true;
        continue;
      }
      Value* handlers = Find(entry, "hooks");
      if (handlers == nullptr || !handlers->IsArray()) continue;
      Value& list = *handlers;
      bool removed = false;
      for (rapidjson::SizeType j = list.Size(); j-- > 0;) {
        if (!IsKaizenHookCommand(CommandOf(list[j]), h.agent, h.command)) continue;
        list.Erase(list.Begin() + j);
        removed = true;
      }
      if (!removed) continue;
      log->changes.push_back(fmt::format("removed the kaizen hook at {}{}", field, why));
      removed_here = true;
      if (list.Empty()) entries.Erase(entries.Begin() + i);
    }
    // Only what kaizen emptied goes: an empty array the user wrote stays.
    if (removed_here && entries.Empty()) emptied.emplace_back(name);
  }
  for (const std::string& name : emptied) RemoveMember(*hooks_obj, name, c);
  if (!emptied.empty() && hooks_obj->MemberCount() == 0) {
    RemoveMember(c.doc(), "hooks", c);
    const Value* version = Find(c.doc(), "version");
    if (h.shape == HookShape::kFlat && c.doc().MemberCount() == 1 && version != nullptr &&
        version->IsInt() && version->GetInt() == 1) {
      RemoveMember(c.doc(), "version", c);
    }
  }
  return Status::Ok();
}

}  // namespace

Status RemoveHooks(JsonConfig& c, const HookSet& h, EditLog* log) {
  return RemoveHooksExcept(c, h, {}, "", log);
}

bool IsKaizenMcpServer(const Value& entry) {
  if (!entry.IsObject()) return false;
  const Value* command = Find(entry, "command");
  const Value* args = Find(entry, "args");
  if (command == nullptr || !command->IsString()) return false;
  if (BaseName(command->GetString()) != "kaizen") return false;
  if (args == nullptr || !args->IsArray()) return false;
  const Value& a = *args;
  if (a.Size() != 1 && a.Size() != 3) return false;
  for (const Value& v : a.GetArray()) {
    if (!v.IsString()) return false;
  }
  return StrIs(a[0], "mcp") && (a.Size() == 1 || StrIs(a[1], "--home"));
}

Status AddMcpServer(JsonConfig& c, const McpServer& s, EditLog* log) {
  KZ_ASSIGN_OR_RETURN(Value * servers,
                      Member(c, c.doc(), "mcpServers", rapidjson::kObjectType, "mcpServers",
                             "it must be an object of server names"));
  const std::string field = "mcpServers." + s.name;
  Value args(rapidjson::kArrayType);
  for (const std::string& a : s.args) args.PushBack(Str(a, c), c.alloc());
  if (Value* existing = Find(*servers, s.name)) {
    if (!IsKaizenMcpServer(*existing)) {
      log->notes.push_back(fmt::format("kept your own {} (it does not run `kaizen mcp`)", field));
      return Status::Ok();
    }
    bool changed = SetString(c, *existing, "command", s.command);
    Value* old_args = Find(*existing, "args");
    if (*old_args != args) {
      *old_args = args;
      changed = true;
    }
    if (changed) log->changes.push_back("updated " + field);
    return Status::Ok();
  }
  Value entry(rapidjson::kObjectType);
  entry.AddMember("command", Str(s.command, c), c.alloc());
  entry.AddMember("args", args, c.alloc());
  servers->AddMember(Str(s.name, c), entry, c.alloc());
  log->changes.push_back("added " + field);
  return Status::Ok();
}

Status RemoveMcpServer(JsonConfig& c, const McpServer& s, EditLog* log) {
  KZ_ASSIGN_OR_RETURN(Value * servers,
                      ExistingMember(c, c.doc(), "mcpServers", rapidjson::kObjectType, "mcpServers",
                                     "it must be an object of server names"));
  if (servers == nullptr) return Status::Ok();
  const std::string field = "mcpServers." + s.name;
  const Value* existing = Find(*servers, s.name);
  if (existing == nullptr) return Status::Ok();
  if (!IsKaizenMcpServer(*existing)) {
    log->notes.push_back(fmt::format("kept your own {} (it does not run `kaizen mcp`)", field));
    return Status::Ok();
  }
  RemoveMember(*servers, s.name, c);
  log->changes.push_back("removed " + field);
  if (servers->MemberCount() == 0) RemoveMember(c.doc(), "mcpServers", c);
  return Status::Ok();
}

Status AddStringMembers(JsonConfig& c, const std::vector<StringMember>& members, EditLog* log) {
  for (const StringMember& m : members) {
    if (Find(c.doc(), m.key) != nullptr) continue;  // the user's value, or ours already
    c.doc().AddMember(Str(m.key, c), Str(m.value, c), c.alloc());
    log->changes.push_back("added " + m.key);
  }
  return Status::Ok();
}

Status RemoveStringMembers(JsonConfig& c, const std::vector<StringMember>& members, EditLog* log) {
  for (const StringMember& m : members) {
    const Value* found = Find(c.doc(), m.key);
    if (found == nullptr || !StrIs(*found, m.value)) continue;
    RemoveMember(c.doc(), m.key, c);
    log->changes.push_back("removed " + m.key);
  }
  return Status::Ok();
}

namespace {

// The path "a.b.c" as its parts.
std::vector<std::string_view> PathParts(std::string_view path) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t dot = path.find('.', start);
    parts.push_back(path.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) return parts;
    start = dot + 1;
  }
}

constexpr std::string_view kListRule = "it must be an array of strings";
constexpr std::string_view kListParentRule = "it must be an object";

}  // namespace

Status AddToStringList(JsonConfig& c, std::string_view path, std::string_view value, EditLog* log) {
  const std::vector<std::string_view> parts = PathParts(path);
  Value* parent = &c.doc();
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    const std::string field(path.substr(0, parts[i].data() + parts[i].size() - path.data()));
    KZ_ASSIGN_OR_RETURN(
        parent, Member(c, *parent, parts[i], rapidjson::kObjectType, field, kListParentRule));
  }
  KZ_ASSIGN_OR_RETURN(Value * list, Member(c, *parent, parts.back(), rapidjson::kArrayType,
                                           std::string(path), kListRule));
  for (const Value& v : list->GetArray()) {
    if (StrIs(v, value)) return Status::Ok();
  }
  list->PushBack(Str(value, c), c.alloc());
  log->changes.push_back(fmt::format("added \"{}\" to {}", value, path));
  return Status::Ok();
}

Status RemoveFromStringList(JsonConfig& c, std::string_view path, std::string_view value,
                            EditLog* log) {
  const std::vector<std::string_view> parts = PathParts(path);
  std::vector<Value*> chain = {&c.doc()};  // the objects down to the list's parent
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    const std::string field(path.substr(0, parts[i].data() + parts[i].size() - path.data()));
    KZ_ASSIGN_OR_RETURN(
        Value * next,
        ExistingMember(c, *chain.back(), parts[i], rapidjson::kObjectType, field, kListParentRule));
    if (next == nullptr) return Status::Ok();
    chain.push_back(next);
  }
  KZ_ASSIGN_OR_RETURN(Value * list,
                      ExistingMember(c, *chain.back(), parts.back(), rapidjson::kArrayType,
                                     std::string(path), kListRule));
  if (list == nullptr) return Status::Ok();
  bool removed = false;
  for (rapidjson::SizeType i = list->Size(); i-- > 0;) {
    if (!StrIs((*list)[i], value)) continue;
    list->Erase(list->Begin() + i);
    log->changes.push_back(fmt::format("removed \"{}\" from {}", value, path));
    removed = true;
  }
  if (!removed || !list->Empty()) return Status::Ok();
  // What kaizen emptied goes, up the path: the list, then each object it leaves empty.
  RemoveMember(*chain.back(), parts.back(), c);
  for (size_t i = chain.size() - 1; i > 0 && chain[i]->MemberCount() == 0; --i) {
    RemoveMember(*chain[i - 1], parts[i - 1], c);
  }
  return Status::Ok();
}

std::vector<std::string> ShellWords(std::string_view s) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (ch == '\'') {
      const size_t end = s.find('\'', i + 1);
      const size_t stop = end == std::string_view::npos ? s.size() : end;
      word.append(s.substr(i + 1, stop - i - 1));
      i = stop;
    } else if (ch == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\' && i + 1 < s.size() &&
            std::string_view("\"\\$`\n").find(s[i + 1]) != std::string_view::npos) {
          ++i;
        }
        word += s[i];
      }
    } else if (ch == '\\' && i + 1 < s.size()) {
      word += s[++i];
    } else {
      word += ch;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

std::string ShellQuote(std::string_view word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           std::string_view("-_./+,:=@%").find(ch) != std::string_view::npos;
  });
  if (plain) return std::string(word);
  std::string out = "'";
  for (char ch : word) {
    if (ch == '\'') {
      out += "'\\''";
    } else {
      out += ch;
    }
  }
  out += '\'';
  return out;
}

}  // namespace kaizen::agents::agent_config
