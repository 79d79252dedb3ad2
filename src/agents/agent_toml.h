// Codex's config.toml, edited as text: kaizen has no TOML library, and a parse-and-rewrite would
// lose the user's comments and layout anyway. kaizen's MCP server is one table between two marker
// comments, appended at the end of the file (a new table header ends whatever table came before,
// so appending is always valid TOML) and removed by those markers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "agents/agent_config.h"

namespace kaizen::agents::agent_toml {

inline constexpr std::string_view kBeginMarker =
    "# >>> kaizen init: the kaizen MCP server (`kaizen init --remove` takes this block out)";
inline constexpr std::string_view kEndMarker = "# <<< kaizen init";

struct TomlEdit {
  std::string text;  // the new bytes; the old ones when nothing changed
  agent_config::EditLog log;
};

// Adds kaizen's block `[mcp_servers.<name>]` (command, args) at the end of `text`, after a blank
// line, or rewrites the block when its lines differ. A definition of that server outside the
// block (a table, a dotted key, an inline table) is the user's: it stays, and so does the file,
// with a note. So does a root-level `mcp_servers = { ... }` inline table, which TOML forbids
// extending. A file that does not end with a newline gets one before the block.
TomlEdit AddMcpServerTable(std::string_view text, const agent_config::McpServer& server);

// Takes kaizen's block out, with the blank line AddMcpServerTable put before it; the rest of the
// file is left byte for byte.
TomlEdit RemoveMcpServerTable(std::string_view text, const agent_config::McpServer& server);

// `s` as a TOML basic string, quotes included.
std::string TomlString(std::string_view s);

}  // namespace kaizen::agents::agent_toml
