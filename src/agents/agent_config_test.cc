// The agents' settings files are merged into, never replaced: kaizen's hooks and MCP server are
// added beside the user's, a second run changes nothing, and removing them gives the user's bytes
// back. Bad files are refused with the file, the place and the rule.
#include "agents/agent_config.h"

#include <gtest/gtest.h>

#include <string>

#include "agents/agent_toml.h"
#include "base/line_diff.h"

namespace kaizen::agents::agent_config {
namespace {

constexpr char kPath[] = ".claude/settings.json";
constexpr char kCommand[] = "/opt/kaizen/bin/kaizen hook --agent claude-code";

HookSet ClaudeHooks(std::string command = kCommand) {
  HookSet h;
  h.shape = HookShape::kGrouped;
  h.points = {{"SessionStart", ""}, {"PreToolUse", "Write|Edit|MultiEdit"}};
  h.command = std::move(command);
  h.agent = "claude-code";
  return h;
}

// The user's settings in Claude Code's own layout (two-space JSON, final newline).
constexpr char kUserSettings[] = R"json({
  "permissions": {
    "allow": [
      "Bash(npm test)"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "./guard.sh"
          }
        ]
      }
    ]
  }
}
)json";

std::string Add(std::string_view text, const HookSet& h, EditLog* log = nullptr) {
  EditLog local;
  Result<JsonConfig> c = JsonConfig::Parse(kPath, text);
  EXPECT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(AddHooks(*c, h, log ? log : &local).ok());
  return c->Serialize();
}

std::string Remove(std::string_view text, const HookSet& h, EditLog* log = nullptr) {
  EditLog local;
  Result<JsonConfig> c = JsonConfig::Parse(kPath, text);
  EXPECT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(RemoveHooks(*c, h, log ? log : &local).ok());
  return c->Serialize();
}

TEST(AgentConfig, HooksAreAddedBesideTheUsersAndKeepTheirOrder) {
  const std::string out = Add(kUserSettings, ClaudeHooks());
  // The user's members come first, in their order; the user's PreToolUse group stays first.
  EXPECT_LT(out.find("\"permissions\""), out.find("\"hooks\""));
  EXPECT_LT(out.find("./guard.sh"), out.find(kCommand));
  EXPECT_NE(out.find("\"matcher\": \"Write|Edit|MultiEdit\""), std::string::npos);
  EXPECT_NE(out.find("\"SessionStart\""), std::string::npos);
  EXPECT_NE(out.find("\"timeout\": 30"), std::string::npos);
}

TEST(AgentConfig, SecondAddChangesNothing) {
  const std::string once = Add(kUserSettings, ClaudeHooks());
  EditLog log;
  EXPECT_EQ(Add(once, ClaudeHooks(), &log), once);
  EXPECT_FALSE(log.changed());
}

TEST(AgentConfig, RemoveGivesTheUsersBytesBack) {
  const std::string added = Add(kUserSettings, ClaudeHooks());
  EditLog log;
  EXPECT_EQ(Remove(added, ClaudeHooks(), &log), kUserSettings);
  EXPECT_EQ(log.changes.size(), 2u);
}

TEST(AgentConfig, AHookAtAnEventNoLongerUsedIsTakenOutByTheNextAdd) {
  HookSet earlier = ClaudeHooks();
  earlier.points.push_back({"SubagentStop", ""});
  const std::string old = Add(kUserSettings, earlier);
  ASSERT_NE(old.find("\"SubagentStop\""), std::string::npos);
  EditLog log;
  const std::string now = Add(old, ClaudeHooks(), &log);
  EXPECT_EQ(now.find("SubagentStop"), std::string::npos);
  EXPECT_EQ(now, Add(kUserSettings, ClaudeHooks()));
  ASSERT_EQ(log.changes.size(), 1u);
  EXPECT_EQ(log.changes[0],
            "removed the kaizen hook at hooks.SubagentStop (kaizen no longer uses it)");
}

TEST(AgentConfig, AHookPointCanHaveATimeoutOfItsOwn) {
  HookSet h = ClaudeHooks();
  h.points.push_back({"SessionEnd", "", 3});
  const std::string out = Add("", h);
  const size_t end = out.find("\"SessionEnd\"");
  ASSERT_NE(end, std::string::npos);
  EXPECT_NE(out.find("\"timeout\": 3\n", end), std::string::npos);
  EXPECT_NE(out.find("\"timeout\": 30"), std::string::npos);  // the others keep the set's
}

TEST(AgentConfig, APermissionGoesIntoTheUsersListAndComesOutByteForByte) {
  Result<JsonConfig> c = JsonConfig::Parse(kPath, kUserSettings);
  ASSERT_TRUE(c.ok());
  EditLog log;
  ASSERT_TRUE(AddToStringList(*c, "permissions.allow", "mcp__kaizen", &log).ok());
  const std::string added = c->Serialize();
  EXPECT_LT(added.find("Bash(npm test)"), added.find("mcp__kaizen"));
  Result<JsonConfig> again = JsonConfig::Parse(kPath, added);
  ASSERT_TRUE(again.ok());
  ASSERT_TRUE(RemoveFromStringList(*again, "permissions.allow", "mcp__kaizen", &log).ok());
  EXPECT_EQ(again->Serialize(), kUserSettings);
}

TEST(AgentConfig, APermissionInANewFileIsTakenOutWithTheObjectsItMade) {
  Result<JsonConfig> c = JsonConfig::Parse(kPath, "");
  ASSERT_TRUE(c.ok());
  EditLog log;
  ASSERT_TRUE(AddToStringList(*c, "permissions.allow", "mcp__kaizen", &log).ok());
  EXPECT_EQ(c->Serialize(),
            "{\n  \"permissions\": {\n    \"allow\": [\n      \"mcp__kaizen\"\n    ]\n  }\n}\n");
  ASSERT_TRUE(RemoveFromStringList(*c, "permissions.allow", "mcp__kaizen", &log).ok());
  EXPECT_TRUE(c->Empty());
}

TEST(AgentConfig, APermissionsValueOfTheWrongTypeIsRefusedNamingIt) {
  Result<JsonConfig> c = JsonConfig::Parse(kPath, R"({"permissions": {"allow": "all"}})");
  ASSERT_TRUE(c.ok());
  EditLog log;
  Status s = AddToStringList(*c, "permissions.allow", "mcp__kaizen", &log);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("permissions.allow"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("array of strings"), std::string::npos) << s.message();
}

TEST(AgentConfig, RemoveFindsAHookWrittenByABinaryThatHasMovedSince) {
  const std::string added = Add(kUserSettings, ClaudeHooks("/old/place/kaizen hook --agent "
                                                           "claude-code --home /h"));
  EXPECT_EQ(Remove(added, ClaudeHooks("kaizen hook --agent claude-code")), kUserSettings);
}

TEST(AgentConfig, AMovedBinaryIsUpdatedInPlaceNotAddedTwice) {
  const std::string old = Add(kUserSettings, ClaudeHooks("/old/kaizen hook --agent claude-code"));
  EditLog log;
  const std::string updated = Add(old, ClaudeHooks(), &log);
  EXPECT_EQ(updated.find("/old/kaizen"), std::string::npos);
  EXPECT_EQ(log.changes.size(), 2u);
  EXPECT_EQ(updated, Add(kUserSettings, ClaudeHooks()));
}

TEST(AgentConfig, AnotherAgentsHookIsNotKaizensForThisAgent) {
  EXPECT_TRUE(IsKaizenHookCommand("kaizen hook --agent codex", "codex", ""));
  EXPECT_TRUE(
      IsKaizenHookCommand("'/my dir/kaizen' hook --agent codex --home '/a b'", "codex", ""));
  EXPECT_FALSE(IsKaizenHookCommand("kaizen hook --agent codex", "claude-code", ""));
  EXPECT_FALSE(IsKaizenHookCommand("kaizen hook --agent codex && rm -rf /", "codex", ""));
  EXPECT_FALSE(IsKaizenHookCommand("notkaizen hook --agent codex", "codex", ""));
}

TEST(AgentConfig, TheFilesOwnIndentationIsKept) {
  const std::string four = "{\n    \"model\": \"opus\"\n}";
  const std::string out = Add(four, ClaudeHooks());
  EXPECT_EQ(out.substr(0, 21), "{\n    \"model\": \"opus\"");
  EXPECT_NE(out.back(), '\n');  // the file had no final newline: none is added
  EXPECT_EQ(Remove(out, ClaudeHooks()), four);
}

TEST(AgentConfig, AnEmptyArrayTheUserWroteStaysWhenKaizenRemovesNothingThere) {
  const std::string text = "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n";
  EditLog log;
  EXPECT_EQ(Remove(text, ClaudeHooks(), &log), text);
  EXPECT_FALSE(log.changed());
}

TEST(AgentConfig, InvalidJsonIsRefusedWithFileLineColumnAndRule) {
  Result<JsonConfig> c = JsonConfig::Parse(kPath, "{\n  \"hooks\": {},\n}\n");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(c.status().message().find(".claude/settings.json:3:1"), std::string::npos)
      << c.status().message();
  EXPECT_NE(c.status().message().find("trailing comma"), std::string::npos);
}

TEST(AgentConfig, ACommentIsNamedAsSuch) {
  Result<JsonConfig> c = JsonConfig::Parse(kPath, "{\n  // mine\n}");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find(":2:3"), std::string::npos) << c.status().message();
  EXPECT_NE(c.status().message().find("comment"), std::string::npos);
}

TEST(AgentConfig, ATopLevelArrayIsRefused) {
  Result<JsonConfig> c = JsonConfig::Parse(kPath, "[]");
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("the top level is an array"), std::string::npos);
}

TEST(AgentConfig, HooksOfTheWrongTypeAreRefusedNamingTheField) {
  Result<JsonConfig> c = JsonConfig::Parse(kPath, R"({"hooks": {"SessionStart": "x"}})");
  ASSERT_TRUE(c.ok());
  EditLog log;
  Status s = AddHooks(*c, ClaudeHooks(), &log);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("hooks.SessionStart: is a string"), std::string::npos) << s.message();
}

TEST(AgentConfig, CursorsFlatHooksGetAVersionFirstAndLoseItWithTheLastHook) {
  HookSet h;
  h.shape = HookShape::kFlat;
  h.points = {{"sessionStart", ""}, {"preToolUse", "Write"}};
  h.command = "kaizen hook --agent cursor";
  h.agent = "cursor";
  Result<JsonConfig> c = JsonConfig::Parse(".cursor/hooks.json", "");
  ASSERT_TRUE(c.ok());
  EditLog log;
  ASSERT_TRUE(AddHooks(*c, h, &log).ok());
  const std::string added = c->Serialize();
  EXPECT_EQ(added.rfind("{\n  \"version\": 1,\n  \"hooks\": {", 0), 0u) << added;
  EXPECT_NE(added.find("\"matcher\": \"Write\""), std::string::npos);
  Result<JsonConfig> again = JsonConfig::Parse(".cursor/hooks.json", added);
  ASSERT_TRUE(again.ok());
  EditLog removed;
  ASSERT_TRUE(RemoveHooks(*again, h, &removed).ok());
  EXPECT_TRUE(again->Empty());
}

McpServer Server() { return {"kaizen", "/opt/kaizen/bin/kaizen", {"mcp"}}; }

TEST(AgentConfig, TheUsersOwnKaizenServerIsKept) {
  const std::string text = R"({"mcpServers": {"kaizen": {"command": "node", "args": ["k.js"]}}})";
  Result<JsonConfig> c = JsonConfig::Parse(".mcp.json", text);
  ASSERT_TRUE(c.ok());
  EditLog log;
  ASSERT_TRUE(AddMcpServer(*c, Server(), &log).ok());
  EXPECT_FALSE(log.changed());
  ASSERT_EQ(log.notes.size(), 1u);
  EXPECT_NE(log.notes[0].find("kept your own mcpServers.kaizen"), std::string::npos);
  EditLog removed;
  ASSERT_TRUE(RemoveMcpServer(*c, Server(), &removed).ok());
  EXPECT_FALSE(removed.changed());
}

TEST(AgentConfig, KaizensServerGoesBesideTheUsersAndComesOutAlone) {
  const std::string text =
      "{\n  \"mcpServers\": {\n    \"docs\": {\n      \"command\": "
      "\"npx\"\n    }\n  }\n}\n";
  Result<JsonConfig> c = JsonConfig::Parse(".mcp.json", text);
  ASSERT_TRUE(c.ok());
  EditLog log;
  ASSERT_TRUE(AddMcpServer(*c, Server(), &log).ok());
  const std::string added = c->Serialize();
  EXPECT_LT(added.find("\"docs\""), added.find("\"kaizen\""));
  Result<JsonConfig> again = JsonConfig::Parse(".mcp.json", added);
  ASSERT_TRUE(again.ok());
  EditLog removed;
  ASSERT_TRUE(RemoveMcpServer(*again, Server(), &removed).ok());
  EXPECT_EQ(again->Serialize(), text);
}

TEST(AgentConfig, StringListEntriesAreMergedOnce) {
  Result<JsonConfig> c = JsonConfig::Parse("hints.json", R"({"files": ["AGENTS.md"]})");
  ASSERT_TRUE(c.ok());
  EditLog log;
  ASSERT_TRUE(AddToStringList(*c, "files", "CLAUDE.md", &log).ok());
  ASSERT_TRUE(AddToStringList(*c, "files", "CLAUDE.md", &log).ok());
  EXPECT_EQ(log.changes.size(), 1u);
  EXPECT_EQ(c->doc()["files"].Size(), 2u);
  ASSERT_TRUE(RemoveFromStringList(*c, "files", "CLAUDE.md", &log).ok());
  ASSERT_TRUE(RemoveFromStringList(*c, "files", "AGENTS.md", &log).ok());
  EXPECT_TRUE(c->Empty());
}

TEST(AgentConfig, ShellQuotingRoundTrips) {
  for (const std::string word : {"/usr/bin/kaizen", "/my dir/kaizen", "it's", "$HOME", ""}) {
    const std::vector<std::string> words = ShellWords(ShellQuote(word) + " hook");
    ASSERT_EQ(words.size(), 2u) << word;
    EXPECT_EQ(words[0], word);
  }
  EXPECT_EQ(ShellQuote("/usr/bin/kaizen"), "/usr/bin/kaizen");
}

constexpr char kCodexConfig[] =
    "model = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs\"]\n";

TEST(AgentToml, TheBlockIsAppendedOnceAndRemovedToTheByte) {
  agent_toml::TomlEdit added = agent_toml::AddMcpServerTable(kCodexConfig, Server());
  EXPECT_TRUE(added.log.changed());
  EXPECT_EQ(added.text.rfind(kCodexConfig, 0), 0u);  // nothing above is touched
  EXPECT_NE(added.text.find("\n\n# >>> kaizen init"), std::string::npos);
  EXPECT_NE(added.text.find("[mcp_servers.kaizen]\ncommand = \"/opt/kaizen/bin/kaizen\"\n"
                            "args = [\"mcp\"]\n"),
            std::string::npos);
  agent_toml::TomlEdit again = agent_toml::AddMcpServerTable(added.text, Server());
  EXPECT_FALSE(again.log.changed());
  EXPECT_EQ(again.text, added.text);
  agent_toml::TomlEdit removed = agent_toml::RemoveMcpServerTable(added.text, Server());
  EXPECT_EQ(removed.text, kCodexConfig);
}

TEST(AgentToml, TheUsersOwnKaizenTableIsKeptInEveryForm) {
  for (const std::string text :
       {"[mcp_servers.kaizen]\ncommand = \"k\"\n",
        "[ mcp_servers . \"kaizen\" ]\ncommand = \"k\"\n", "[mcp_servers.kaizen.env]\nA = \"1\"\n",
        "[mcp_servers]\nkaizen = { command = \"k\" }\n", "mcp_servers.kaizen.command = \"k\"\n"}) {
    agent_toml::TomlEdit edit = agent_toml::AddMcpServerTable(text, Server());
    EXPECT_FALSE(edit.log.changed()) << text;
    EXPECT_EQ(edit.text, text);
    ASSERT_EQ(edit.log.notes.size(), 1u) << text;
    EXPECT_NE(edit.log.notes[0].find("kept your own"), std::string::npos);
  }
}

TEST(AgentToml, AnInlineMcpServersTableIsNotExtended) {
  const std::string text = "mcp_servers = { docs = { command = \"npx\" } }\n";
  agent_toml::TomlEdit edit = agent_toml::AddMcpServerTable(text, Server());
  EXPECT_FALSE(edit.log.changed());
  ASSERT_EQ(edit.log.notes.size(), 1u);
  EXPECT_NE(edit.log.notes[0].find("inline table"), std::string::npos);
}

TEST(AgentToml, AMovedBinaryRewritesTheBlockInPlace) {
  const std::string old = agent_toml::AddMcpServerTable(kCodexConfig, Server()).text +
                          "\n[profiles.fast]\nmodel = \"mini\"\n";
  McpServer moved = Server();
  moved.command = "kaizen";
  agent_toml::TomlEdit edit = agent_toml::AddMcpServerTable(old, moved);
  EXPECT_TRUE(edit.log.changed());
  EXPECT_NE(edit.text.find("command = \"kaizen\"\n"), std::string::npos);
  EXPECT_NE(edit.text.find("[profiles.fast]"), std::string::npos);
  EXPECT_EQ(edit.text.find("/opt/kaizen"), std::string::npos);
}

TEST(AgentToml, StringsAreEscaped) {
  EXPECT_EQ(agent_toml::TomlString("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
}

TEST(LineDiff, ShowsAddedLinesWithContext) {
  const std::string diff = base::UnifiedDiff("f", "a\nb\nc\n", "a\nb\nx\nc\n", true, true, 1);
  EXPECT_EQ(diff, "--- a/f\n+++ b/f\n@@ -2,2 +2,3 @@\n b\n+x\n c\n");
}

TEST(LineDiff, ANewFileComesFromDevNull) {
  EXPECT_EQ(base::UnifiedDiff("f", "", "a", false, true),
            "--- /dev/null\n+++ b/f\n@@ -0,0 +1,1 @@\n+a\n\\ No newline at end of file\n");
  EXPECT_EQ(base::UnifiedDiff("f", "same\n", "same\n", true, true), "");
}

}  // namespace
}  // namespace kaizen::agents::agent_config
