#include "agents/hook_payload.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

#include "agents/hook_steps.h"

namespace kaizen::agents {
namespace {

HookPayload Parse(std::string_view json, std::optional<HookAgent> given = std::nullopt) {
  Result<HookPayload> p = ParseHookPayload(json, given);
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? *p : HookPayload{};
}

TEST(HookPayload, TheAgentIsRecognisedFromThePayloadsShape) {
  EXPECT_EQ(Parse(R"({"hook_event_name":"Stop","session_id":"s"})").agent, HookAgent::kClaudeCode);
  EXPECT_EQ(Parse(R"({"hook_event_name":"Stop","session_id":"s","turn_id":"t"})").agent,
            HookAgent::kCodex);
  EXPECT_EQ(
      Parse(R"({"hook_event_name":"Stop","session_id":"s","transcript_path":"/h/.codex/x.jsonl"})")
          .agent,
      HookAgent::kCodex);
  EXPECT_EQ(Parse(R"({"event":"Stop","session_id":"s"})").agent, HookAgent::kGoose);
  EXPECT_EQ(
      Parse(R"({"hook_event_name":"Stop","session_id":"s","turn_id":"t"})", HookAgent::kClaudeCode)
          .agent,
      HookAgent::kClaudeCode);
}

TEST(HookPayload, EventNamesMapToHookPoints) {
  auto event = [](std::string_view name) {
    return Parse(std::string(R"({"session_id":"s","hook_event_name":")") + std::string(name) +
                 "\"}")
        .event;
  };
  EXPECT_EQ(event("SessionStart"), HookEvent::kSessionStart);
  EXPECT_EQ(event("UserPromptSubmit"), HookEvent::kUserPrompt);
  EXPECT_EQ(event("PreToolUse"), HookEvent::kPreTool);
  EXPECT_EQ(event("PostToolUse"), HookEvent::kPostTool);
  EXPECT_EQ(event("PostToolUseFailure"), HookEvent::kPostToolFailure);
  EXPECT_EQ(event("Stop"), HookEvent::kStop);
  EXPECT_EQ(event("SubagentStop"), HookEvent::kStop);
  EXPECT_TRUE(Parse(R"({"session_id":"s","hook_event_name":"SubagentStop"})").subagent);
  EXPECT_EQ(event("SessionEnd"), HookEvent::kSessionEnd);
  EXPECT_EQ(event("Notification"), HookEvent::kOther);
}

TEST(HookPayload, AnUnreadablePayloadNamesWhatIsWrong) {
  EXPECT_NE(ParseHookPayload("nope", std::nullopt).status().message().find("not JSON"),
            std::string::npos);
  EXPECT_NE(ParseHookPayload("[]", std::nullopt).status().message().find("not a JSON object"),
            std::string::npos);
  EXPECT_NE(ParseHookPayload(R"({"session_id":"s"})", std::nullopt)
                .status()
                .message()
                .find("hook_event_name"),
            std::string::npos);
  EXPECT_NE(ParseHookPayload(R"({"hook_event_name":"Stop","session_id":3})", std::nullopt)
                .status()
                .message()
                .find("session_id"),
            std::string::npos);
}

TEST(HookPayload, EachAgentsFileToolsGiveTheTextTheyWrite) {
  HookPayload write = Parse(
      R"({"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a.md","content":"all"}})");
  ASSERT_EQ(write.writes.size(), 1u);
  EXPECT_EQ(write.writes[0].path, "a.md");
  EXPECT_EQ(write.writes[0].text, "all");
  EXPECT_TRUE(write.writes[0].whole);

  HookPayload multi = Parse(
      R"({"session_id":"s","hook_event_name":"PreToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"b.ts","edits":[{"old_string":"x","new_string":"one"},{"old_string":"y","new_string":"two"}]}})");
  ASSERT_EQ(multi.writes.size(), 2u);
  EXPECT_EQ(multi.writes[1].text, "two");
  EXPECT_FALSE(multi.writes[1].whole);

  HookPayload goose = Parse(
      R"({"session_id":"s","event":"PreToolUse","tool_name":"developer__edit","tool_input":{"path":"c.py","before":"a","after":"b"}})");
  ASSERT_EQ(goose.writes.size(), 1u);
  EXPECT_EQ(goose.writes[0].text, "b");

  HookPayload read = Parse(
      R"({"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a.md"}})");
  EXPECT_TRUE(read.writes.empty());
}

TEST(HookPayload, AnApplyPatchEnvelopeGivesTheAddedLinesOfEachFile) {
  const std::string patch =
      "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: docs/new.md\n+# Title\n+body\n"
      "*** Update File: src/a.ts\n@@ function f\n-old\n+new line\n context\n"
      "*** Delete File: gone.txt\n*** End Patch\nEOF\n";
  simdjson::dom::parser parser;
  std::string json = R"({"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash",)"
                     R"("turn_id":"t","tool_input":{"command":)";
  // The patch as a JSON string.
  json += "\"";
  for (char c : patch) {
    if (c == '\n') {
      json += "\\n";
    } else if (c == '"') {
      json += "\\\"";
    } else {
      json += c;
    }
  }
  json += "\"}}";
  HookPayload p = Parse(json);
  ASSERT_EQ(p.writes.size(), 2u);
  EXPECT_EQ(p.writes[0].path, "docs/new.md");
  EXPECT_EQ(p.writes[0].text, "# Title\nbody\n");
  EXPECT_TRUE(p.writes[0].whole);
  EXPECT_EQ(p.writes[1].path, "src/a.ts");
  EXPECT_EQ(p.writes[1].text, "new line\n");
  EXPECT_FALSE(p.writes[1].whole);
}

TEST(HookPayload, NestedInputOfAnotherToolIsSearchedForAPatchSafely) {
  // Found by the hook fuzzer: arrays and objects inside an unknown tool's input were iterated
  // through a reference into a temporary.
  HookPayload p = Parse(
      R"({"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Task","tool_input":{"args":["x",{"y":["*** Begin Patch\n*** Add File: n.md\n+hi\n*** End Patch"]}],"n":{"m":1}}})");
  ASSERT_EQ(p.writes.size(), 1u);
  EXPECT_EQ(p.writes[0].path, "n.md");
  EXPECT_EQ(p.writes[0].text, "hi\n");
}

TEST(HookPayload, AFailedToolIsReadFromItsEventOrItsResponse) {
  HookPayload exit_code = Parse(
      R"({"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":{"exit_code":2,"stderr":"make: *** [all] Error 1"}})");
  EXPECT_TRUE(exit_code.tool_failed);
  EXPECT_EQ(exit_code.failure, "make: *** [all] Error 1");
  HookPayload ok = Parse(
      R"({"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"x","stderr":"","interrupted":false}})");
  EXPECT_FALSE(ok.tool_failed);
  HookPayload event = Parse(
      R"({"session_id":"s","event":"PostToolUseFailure","tool_name":"developer__shell","error":"boom"})");
  EXPECT_TRUE(event.tool_failed);
  EXPECT_EQ(event.failure, "boom");
  HookPayload flagged = Parse(
      R"({"session_id":"s","hook_event_name":"PostToolUse","tool_name":"mcp__x","tool_response":{"is_error":true,"content":"denied"}})");
  EXPECT_TRUE(flagged.tool_failed);
  EXPECT_EQ(flagged.failure, "denied");
}

TEST(HookPayload, TheSameCallHasTheSameKeyAndAnotherInputAnother) {
  const char* a =
      R"({"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"npm test"}})";
  const char* b =
      R"({"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"npm run lint"}})";
  EXPECT_EQ(Parse(a).tool_call_key, Parse(a).tool_call_key);
  EXPECT_NE(Parse(a).tool_call_key, Parse(b).tool_call_key);
}

TEST(HookOutput, ClaudeCodeAndCodexGetHookSpecificOutputAndGooseADecision) {
  EXPECT_EQ(SessionStartOutput(HookAgent::kClaudeCode, "ctx"),
            R"({"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx"}})");
  EXPECT_EQ(SessionStartOutput(HookAgent::kGoose, "ctx"), "");
  EXPECT_EQ(SessionStartOutput(HookAgent::kCodex, ""), "");
  EXPECT_EQ(
      BlockOutput(HookAgent::kCodex, "why \"quoted\""),
      R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"why \"quoted\""}})");
  EXPECT_EQ(BlockOutput(HookAgent::kGoose, "why"), R"({"decision":"block","reason":"why"})");
  EXPECT_EQ(WarnOutput(HookAgent::kClaudeCode, "w"),
            R"({"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"w"}})");
  EXPECT_EQ(WarnOutput(HookAgent::kGoose, "w"), "");
}

TEST(HookOutput, ToolErrorsGetSeed002Types) {
  EXPECT_EQ(ClassifyToolError("Error: request timed out after 30s"), "timeout");
  EXPECT_EQ(ClassifyToolError("CONFLICT (content): Merge conflict in a.ts"), "conflict");
  EXPECT_EQ(ClassifyToolError("TypeError: x is undefined"), "validation");
  EXPECT_EQ(ClassifyToolError("segmentation fault"), "tool_failure");
  EXPECT_EQ(ClassifyToolError(""), "unknown");
}

TEST(EnforcementConfig, ModesPerPatternOverTheDefault) {
  Result<EnforcementConfig> c =
      ParseEnforcementConfig(R"({"default":"warn","patterns":{"p1":"off","p2":"block"}})");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->ModeOf("p1"), EnforcementMode::kOff);
  EXPECT_EQ(c->ModeOf("p2"), EnforcementMode::kBlock);
  EXPECT_EQ(c->ModeOf("other"), EnforcementMode::kWarn);
  EXPECT_EQ(ParseEnforcementConfig("{}")->ModeOf("x"), EnforcementMode::kBlock);
}

TEST(EnforcementConfig, BadValuesNameTheKeyTheValueAndTheRule) {
  EXPECT_EQ(ParseEnforcementConfig(R"({"default":"sometimes"})").status().message(),
            R"(default: "sometimes" must be one of "block", "warn", "off")");
  EXPECT_EQ(ParseEnforcementConfig(R"({"patterns":{"p":1}})").status().message(),
            R"(patterns.p: 1 must be one of "block", "warn", "off")");
  EXPECT_EQ(ParseEnforcementConfig(R"({"mode":"off"})").status().message(),
            "mode: unknown key (the keys are default, patterns)");
  EXPECT_FALSE(ParseEnforcementConfig("[").ok());
}

TEST(HookPayload, CodexsPatchOutputSaysItsExitCode) {
  const HookPayload failed = Parse(
      R"({"hook_event_name":"PostToolUse","session_id":"s","turn_id":"t","tool_name":"apply_patch",)"
      R"("tool_response":"Exit code: 1\nWall time: 0 seconds\nOutput:\nverification failed: x.py"})");
  EXPECT_TRUE(failed.tool_failed);
  EXPECT_EQ(failed.failure, "verification failed: x.py");
  EXPECT_FALSE(failed.response_is_text);
  const HookPayload ok = Parse(
      R"({"hook_event_name":"PostToolUse","session_id":"s","turn_id":"t","tool_name":"apply_patch",)"
      R"("tool_response":"Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess."})");
  EXPECT_FALSE(ok.tool_failed);
}

TEST(HookPayload, CodexsShellOutputSaysNothingOfHowItEnded) {
  const HookPayload p = Parse(
      R"({"hook_event_name":"PostToolUse","session_id":"s","turn_id":"t","tool_name":"Bash",)"
      R"("tool_response":"ls: cannot access 'x': No such file or directory\n","tool_use_id":"call_1"})");
  EXPECT_FALSE(p.tool_failed);
  EXPECT_TRUE(p.response_is_text);
  EXPECT_EQ(p.tool_use_id, "call_1");
}

TEST(HookPayload, ClaudeCodesPostToolUseFailureIsAFailureWithItsError) {
  const HookPayload p =
      Parse(R"({"hook_event_name":"PostToolUseFailure","session_id":"s","tool_name":"Bash",)"
            R"("tool_input":{"command":"exit 3"},"error":"Exit code 3","is_interrupt":false})");
  EXPECT_EQ(p.event, HookEvent::kPostToolFailure);
  EXPECT_TRUE(p.tool_failed);
  EXPECT_EQ(p.failure, "Exit code 3");
}

}  // namespace
}  // namespace kaizen::agents
