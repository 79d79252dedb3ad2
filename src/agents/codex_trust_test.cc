// What Codex's /hooks review stores for a hook, computed as Codex computes it (checked against a
// Codex 0.171 that ran a hook only with this hash), and the trust read back from a config.toml.
#include "agents/codex_trust.h"

#include <gtest/gtest.h>

namespace kaizen::agents {
namespace {

TEST(CodexTrust, EventsAreNamedInSnakeCase) {
  EXPECT_EQ(CodexEventLabel("PreToolUse"), "pre_tool_use");
  EXPECT_EQ(CodexEventLabel("SessionEnd"), "session_end");
  EXPECT_EQ(CodexEventLabel("Stop"), "stop");
}

TEST(CodexTrust, TheHashIsShaOfTheHooksKeySortedJson) {
  // Python: json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False).
  EXPECT_EQ(CodexHookTrustHash("PreToolUse", "apply_patch|Edit|Write|Bash",
                               "kaizen hook --agent codex", 30),
            "sha256:f60e4502c39f8a9083fcbed96f9db2e099788f6cbfa8cc893d6fa3057126a06e");
}

TEST(CodexTrust, StopHasNoMatcherInItsHashAndTextIsEscapedAsCodexDoes) {
  EXPECT_EQ(CodexHookTrustHash("Stop", "ignored",
                               "/opt/k\xc3\xa9/kaizen hook --agent codex --home \"/a b\"", 30),
            "sha256:4f319951990f966e63868c7a13d5c3c0265b486b2de8295e9a9d5349bb72e3e4");
}

TEST(CodexTrust, TheKeyNamesTheFileTheEventAndThePlace) {
  EXPECT_EQ(CodexHookKey("/p/.codex/hooks.json", "PreToolUse", 1, 0),
            "/p/.codex/hooks.json:pre_tool_use:1:0");
}

TEST(CodexTrust, AConfigTrustsItsProjectsAndReviewedHooks) {
  constexpr char kConfig[] = R"toml(model = "gpt-5.5"

[projects."/work/app"]
trust_level = "trusted"

[projects."/work/other"]
trust_level = "untrusted"

[hooks.state."/work/app/.codex/hooks.json:stop:0:0"]
trusted_hash = "sha256:abc"
)toml";
  Result<CodexTrust> app = ParseCodexTrust(kConfig, "config.toml", "/work/app");
  ASSERT_TRUE(app.ok()) << app.status().message();
  EXPECT_TRUE(app->project_trusted);
  ASSERT_EQ(app->hook_hashes.size(), 1u);
  EXPECT_EQ(app->hook_hashes.at("/work/app/.codex/hooks.json:stop:0:0"), "sha256:abc");
  EXPECT_FALSE(ParseCodexTrust(kConfig, "config.toml", "/work/other")->project_trusted);
  EXPECT_FALSE(ParseCodexTrust(kConfig, "config.toml", "/work/none")->project_trusted);
}

TEST(CodexTrust, AConfigThatIsNotTomlIsRefusedNamingTheLine) {
  Result<CodexTrust> bad = ParseCodexTrust("a = 1\n[projects\n", "/h/config.toml", "/p");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("/h/config.toml:2:"), std::string::npos)
      << bad.status().message();
}

TEST(CodexTrust, ANonAsciiCharacterOutsideAStringIsRefusedBeforeTomlPlusPlusSeesIt) {
  // toml++ 3.3.0 reaches TOML_UNREACHABLE on it (found by fuzz/hook_fuzz.cc).
  Result<CodexTrust> bad = ParseCodexTrust("a = 1\n\xc3\xa9 = 2\n", "/h/config.toml", "/p");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("/h/config.toml:2:1: not valid TOML: a non-ASCII"),
            std::string::npos)
      << bad.status().message();
  // In strings and comments it is the user's text.
  Result<CodexTrust> ok = ParseCodexTrust(
      "# caf\xc3\xa9\n[projects.\"/home/jos\xc3\xa9\"]\ntrust_level = 'trusted' # \xc3\xa9\n"
      "note = \"\"\"\n\xc3\xa9 \\\" \xc3\xa9\"\"\"\n",
      "config.toml", "/home/jos\xc3\xa9");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_TRUE(ok->project_trusted);
  // A multi-line string that ends in quotes of its own, then a bare character after it.
  EXPECT_FALSE(ParseCodexTrust("a = \"\"\"x\"\"\"\"\xc3\xa9\n", "c.toml", "/p").ok());
}

}  // namespace
}  // namespace kaizen::agents
