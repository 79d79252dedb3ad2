// How a Codex shell command ended, read from Codex's session log: the shapes Codex 0.171 writes
// (an item_completed entry) and older ones (exec_command_end), the newest entry of a call, and
// lines that are cut or not JSON.
#include "agents/codex_rollout.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace kaizen::agents {
namespace {

// Trimmed from a rollout Codex CLI 0.171.0 wrote for `ls /nonexistent; exit 3`.
constexpr char kItemCompleted[] =
    R"({"timestamp":"2026-12-02T15:18:06.681Z","type":"event_msg","payload":{"type":"item_completed","turn_id":"t1","item":{"type":"CommandExecution","id":"call_7","command":["/bin/bash","-lc","ls /nonexistent; exit 3"],"status":"failed","aggregated_output":"ls: cannot access '/nonexistent': No such file or directory\n","exit_code":3}}})";

TEST(CodexRollout, AFailedCommandsExitCodeAndOutputAreFound) {
  const std::string rollout =
      std::string(R"({"type":"session_meta","payload":{"id":"s"}})") + "\n" + kItemCompleted + "\n";
  std::optional<CommandEnd> end = FindCommandEnd(rollout, "call_7");
  ASSERT_TRUE(end);
  EXPECT_EQ(end->exit_code, 3);
  EXPECT_EQ(end->output, "ls: cannot access '/nonexistent': No such file or directory\n");
}

TEST(CodexRollout, AnOlderCodexsExecCommandEndIsReadToo) {
  const std::string rollout =
      R"({"type":"event_msg","payload":{"type":"exec_command_end","call_id":"c9","exit_code":0,"aggregated_output":"ok\n"}})";
  std::optional<CommandEnd> end = FindCommandEnd(rollout, "c9");
  ASSERT_TRUE(end);
  EXPECT_EQ(end->exit_code, 0);
  EXPECT_EQ(end->output, "ok\n");
}

TEST(CodexRollout, OnlyTheCallAskedForCountsAndTheNewestEntryWins) {
  const std::string rollout =
      std::string(kItemCompleted) + "\n" +
      R"({"payload":{"type":"item_completed","item":{"id":"call_70","exit_code":9}}})" + "\n" +
      R"({"payload":{"type":"item_completed","item":{"id":"call_7","exit_code":0}}})" + "\n";
  EXPECT_EQ(FindCommandEnd(rollout, "call_7")->exit_code, 0);
  EXPECT_EQ(FindCommandEnd(rollout, "call_70")->exit_code, 9);
  EXPECT_FALSE(FindCommandEnd(rollout, "call_8"));
  EXPECT_FALSE(FindCommandEnd(rollout, ""));
}

TEST(CodexRollout, ACutOrForeignLineIsSkippedNotMisread) {
  const std::string whole(kItemCompleted);
  // The last line cut mid-write, and a line that names the call only in its text.
  const std::string rollout =
      whole + "\n" + R"({"payload":{"type":"agent_message","message":"call_7 \"exit_code\": 1"}})" +
      "\n" + whole.substr(0, whole.size() / 2);
  std::optional<CommandEnd> end = FindCommandEnd(rollout, "call_7");
  ASSERT_TRUE(end);
  EXPECT_EQ(end->exit_code, 3);
}

TEST(CodexRollout, TheFileIsReadAndAMissingOneIsUnknown) {
  char path[] = "/tmp/kaizen-rollout-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path) << kItemCompleted << "\n";
  EXPECT_EQ(ReadCommandEnd(path, "call_7")->exit_code, 3);
  std::remove(path);
  EXPECT_FALSE(ReadCommandEnd(path, "call_7"));
  EXPECT_FALSE(ReadCommandEnd("", "call_7"));
}

}  // namespace
}  // namespace kaizen::agents
