#include "base/subprocess.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace kaizen::base {
namespace {

Subprocess Sh(const std::string& script) {
  Subprocess s;
  s.argv = {"sh", "-c", script};
  return s;
}

TEST(Subprocess, ArgumentsReachTheProgramAsGivenWithoutAShell) {
  Subprocess s;
  s.argv = {"sh", "-c", "echo \"$@\"", "sh", "one two", "$HOME"};
  auto r = RunSubprocess(s);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_TRUE(r->succeeded());
  EXPECT_EQ(r->out, "one two $HOME\n");
}

TEST(Subprocess, StandardErrorIsCapturedApartOrWithStandardOutput) {
  Subprocess s = Sh("echo out; echo err >&2; exit 3");
  auto apart = RunSubprocess(s);
  ASSERT_TRUE(apart.ok());
  EXPECT_EQ(apart->exit_code, 3);
  EXPECT_FALSE(apart->succeeded());
  EXPECT_EQ(apart->out, "out\n");
  EXPECT_EQ(apart->err, "err\n");
  EXPECT_EQ(apart->Outcome(0), "exit status 3");
  s.stderr_to = Subprocess::Stderr::kWithStdout;
  auto together = RunSubprocess(s);
  ASSERT_TRUE(together.ok());
  EXPECT_EQ(together->out, "out\nerr\n");
  EXPECT_EQ(together->err, "");
}

TEST(Subprocess, OutputBeyondTheCapIsReadAndDropped) {
  Subprocess s = Sh("head -c 100000 /dev/zero | tr '\\0' a");
  s.output_cap = 4096;
  auto r = RunSubprocess(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);  // it was never blocked on a full pipe
  EXPECT_EQ(r->out, std::string(4096, 'a'));
  EXPECT_TRUE(r->out_truncated);
}

TEST(Subprocess, InputIsWrittenToStandardInputWhichIsOtherwiseEmpty) {
  Subprocess s = Sh("wc -c");
  s.input = std::string(200000, 'x');  // more than a pipe holds
  auto r = RunSubprocess(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "200000\n");
  s.input.reset();
  r = RunSubprocess(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "0\n");  // /dev/null, never the terminal
}

TEST(Subprocess, InputTheProgramDoesNotReadDoesNotStopIt) {
  Subprocess s = Sh("exec 0<&-; echo done");
  s.input = std::string(1 << 20, 'x');
  auto r = RunSubprocess(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "done\n");
}

TEST(Subprocess, EnvironmentVariablesAreSetReplacingTheirNamesakes) {
  Subprocess s = Sh("echo \"$KZ_SUBPROCESS_TEST $PATH\"");
  s.env = {"KZ_SUBPROCESS_TEST=set", "PATH=/usr/bin:/bin"};
  auto r = RunSubprocess(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "set /usr/bin:/bin\n");
}

TEST(Subprocess, StandardOutputMayGoToOurStandardError) {
  Subprocess s = Sh("echo for-the-person");
  s.stdout_to_our_stderr = true;
  auto r = RunSubprocess(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->out, "");
  EXPECT_EQ(r->exit_code, 0);
}

// The program and what it started are killed when the deadline passes; the run does not wait
// for them (sleep 600 would hold it ten minutes).
TEST(Subprocess, APassedDeadlineKillsTheProgramAndItsProcessGroup) {
  Subprocess s = Sh("sleep 600 & sleep 600; echo never");
  s.timeout_seconds = 0.3;
  auto r = RunSubprocess(s);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->signal, 0);  // the kill for the deadline is not the program's own signal
  EXPECT_FALSE(r->succeeded());
  EXPECT_EQ(r->out, "");
  EXPECT_LT(r->seconds, 600);
  EXPECT_EQ(r->Outcome(0.3), "timed out after 0.3 s and was killed");
}

TEST(Subprocess, AProgramEndedByASignalSaysWhich) {
  auto r = RunSubprocess(Sh("kill -TERM $$"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->signal, 15);
  EXPECT_EQ(r->Outcome(0), "killed by signal 15 (Terminated)");
}

TEST(Subprocess, AProgramLeftRunningInTheBackgroundDoesNotHoldTheRun) {
  // The background sleep keeps the output pipe open after sh exits.
  auto r = RunSubprocess(Sh("sleep 600 & echo $!"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_LT(r->seconds, 600);
  const int background = std::atoi(r->out.c_str());
  ASSERT_GT(background, 0) << r->out;
  ::kill(background, SIGKILL);
}

TEST(Subprocess, AScriptWithoutAShebangLineRunsUnderTheShell) {
  const std::string dir = ::testing::TempDir();
  const std::string script = dir + "/kaizen-subprocess-no-shebang";
  {
    std::FILE* f = std::fopen(script.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("echo \"ran with $1\"\n", f);
    std::fclose(f);
  }
  ASSERT_EQ(::chmod(script.c_str(), 0755), 0);
  Subprocess s;
  s.argv = {script, "one"};
  auto r = RunSubprocess(s);
  ::unlink(script.c_str());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->out, "ran with one\n");
}

TEST(Subprocess, TheProgramGetsNoDescriptorOfOursBeyondTheStandardThree) {
  // Not close-on-exec, as Asio's sockets; high, so it is not the descriptor ls reads with.
  const int opened = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(opened, 0);
  const int extra = ::dup2(opened, 100);
  ::close(opened);
  ASSERT_EQ(extra, 100);
  auto r = RunSubprocess(Sh("ls /proc/self/fd"));
  ::close(extra);
  ASSERT_TRUE(r.ok());
  // 0, 1, 2, and the one ls opens to read the directory.
  EXPECT_EQ(r->out.find("\n" + std::to_string(extra) + "\n"), std::string::npos) << r->out;
}

TEST(Subprocess, SignalsBlockedHereAreNotBlockedInTheProgram) {
  sigset_t term, old;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &term, &old), 0);  // as kaizen serve's threads do
  auto r = RunSubprocess(Sh("grep SigBlk /proc/self/status"));
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->out.find("0000000000000000"), std::string::npos) << r->out;
}

TEST(Subprocess, AMissingProgramIsAnErrorNamingItAndWhy) {
  Subprocess s;
  s.argv = {"kaizen-no-such-program-xyz"};
  auto r = RunSubprocess(s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "\"kaizen-no-such-program-xyz\": No such file or directory");
  s.argv = {};
  EXPECT_EQ(RunSubprocess(s).status().message(), "no program given");
}

}  // namespace
}  // namespace kaizen::base
