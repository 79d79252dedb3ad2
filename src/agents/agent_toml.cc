#include "agents/agent_toml.h"

#include <fmt/format.h>

#include <optional>

namespace kaizen::agents::agent_toml {
namespace {

struct Line {
  size_t begin, end;  // [begin, end) without the newline; `end` is the newline's offset
};

std::vector<Line> Lines(std::string_view text) {
  std::vector<Line> lines;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back({begin, end});
    begin = end + 1;
  }
  return lines;
}

// The line without blanks and quotes: `[ mcp_servers . "kaizen" ]` and `[mcp_servers.kaizen]`
// read the same. Enough to recognize keys; not a TOML parser.
std::string Squeezed(std::string_view line) {
  std::string out;
  for (char ch : line) {
    if (ch != ' ' && ch != '\t' && ch != '"' && ch != '\'' && ch != '\r') out += ch;
  }
  return out;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Where kaizen's block is: the line indices of its begin and end markers.
std::optional<std::pair<size_t, size_t>> FindBlock(std::string_view text,
                                                   const std::vector<Line>& lines) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (text.substr(lines[i].begin, lines[i].end - lines[i].begin) != kBeginMarker) continue;
    for (size_t j = i + 1; j < lines.size(); ++j) {
      if (text.substr(lines[j].begin, lines[j].end - lines[j].begin) == kEndMarker) {
        return std::pair{i, j};
      }
    }
  }
  return std::nullopt;
}

enum class Conflict { kNone, kUserServer, kInlineTable };

// Whether the file defines the server itself, outside kaizen's block.
Conflict FindConflict(std::string_view text, const std::vector<Line>& lines,
                      std::optional<std::pair<size_t, size_t>> block, std::string_view name) {
  const std::string table = "mcp_servers." + std::string(name);
  std::string current;  // the table the line is in; "" at the root
  for (size_t i = 0; i < lines.size(); ++i) {
    if (block && i >= block->first && i <= block->second) continue;
    const std::string s = Squeezed(text.substr(lines[i].begin, lines[i].end - lines[i].begin));
    if (s.empty() || s[0] == '#') continue;
    if (s[0] == '[') {
      const size_t close = s.find(']');
      current =
          s.substr(s[1] == '[' ? 2 : 1,
                   close == std::string::npos ? std::string::npos : close - (s[1] == '[' ? 2 : 1));
      if (current == table || StartsWith(current, table + ".")) return Conflict::kUserServer;
      continue;
    }
    if (current.empty()) {
      if (StartsWith(s, table + "=") || StartsWith(s, table + ".")) return Conflict::kUserServer;
      if (StartsWith(s, "mcp_servers={")) return Conflict::kInlineTable;
    } else if (current == "mcp_servers") {
      if (StartsWith(s, std::string(name) + "=") || StartsWith(s, std::string(name) + ".")) {
        return Conflict::kUserServer;
      }
    }
  }
  return Conflict::kNone;
}

std::string Block(const agent_config::McpServer& server) {
  std::string args;
  for (const std::string& a : server.args) args += (args.empty() ? "" : ", ") + TomlString(a);
  // Codex asks before each call of a tool its server does not mark read-only, and a headless
  // run (approval policy "never") refuses it instead: "approve" lets kaizen's tools run.
  const std::string_view approve =
      server.approve_tools ? "default_tools_approval_mode = \"approve\"\n" : "";
  return fmt::format("{}\n[mcp_servers.{}]\ncommand = {}\nargs = [{}]\n{}{}\n", kBeginMarker,
                     server.name, TomlString(server.command), args, approve, kEndMarker);
}

}  // namespace

std::string TomlString(std::string_view s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (ch < 0x20 || ch == 0x7f) {
          out += fmt::format("\\u{:04X}", ch);
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  out += '"';
  return out;
}

TomlEdit AddMcpServerTable(std::string_view text, const agent_config::McpServer& server) {
  TomlEdit edit{std::string(text), {}};
  const std::vector<Line> lines = Lines(text);
  const auto block = FindBlock(text, lines);
  const std::string field = "[mcp_servers." + server.name + "]";
  switch (FindConflict(text, lines, block, server.name)) {
    case Conflict::kUserServer:
      edit.log.notes.push_back(
          fmt::format("kept your own {} (kaizen's would run `kaizen mcp`)", field));
      return edit;
    case Conflict::kInlineTable:
      edit.log.notes.push_back(fmt::format(
          "mcp_servers is an inline table, which TOML does not let kaizen extend: add {} with "
          "command = {} by hand",
          field, TomlString(server.command)));
      return edit;
    case Conflict::kNone:
      break;
  }
  const std::string wanted = Block(server);
  if (block) {
    const size_t begin = lines[block->first].begin;
    const size_t end = std::min(text.size(), lines[block->second].end + 1);
    if (text.substr(begin, end - begin) == wanted) return edit;
    edit.text = std::string(text.substr(0, begin)) + wanted + std::string(text.substr(end));
    edit.log.changes.push_back("updated " + field);
    return edit;
  }
  if (!edit.text.empty()) {
    if (edit.text.back() != '\n') edit.text += '\n';
    edit.text += '\n';
  }
  edit.text += wanted;
  edit.log.changes.push_back("added " + field);
  return edit;
}

TomlEdit RemoveMcpServerTable(std::string_view text, const agent_config::McpServer& server) {
  TomlEdit edit{std::string(text), {}};
  const std::vector<Line> lines = Lines(text);
  const auto block = FindBlock(text, lines);
  if (!block) {
    if (FindConflict(text, lines, block, server.name) == Conflict::kUserServer) {
      edit.log.notes.push_back(fmt::format(
          "kept your own [mcp_servers.{}] (kaizen init did not write it)", server.name));
    }
    return edit;
  }
  size_t begin = lines[block->first].begin;
  const size_t end = std::min(text.size(), lines[block->second].end + 1);
  // The blank line AddMcpServerTable put before the block.
  if (begin >= 2 && text[begin - 1] == '\n' && text[begin - 2] == '\n') --begin;
  edit.text = std::string(text.substr(0, begin)) + std::string(text.substr(end));
  edit.log.changes.push_back("removed [mcp_servers." + server.name + "]");
  return edit;
}

}  // namespace kaizen::agents::agent_toml
