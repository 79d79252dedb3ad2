#include "cli/terminal_keys.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace kaizen::cli {
namespace {

// The terminal's settings before raw mode, for the signal handlers: restoring them is one
// async-signal-safe tcsetattr.
struct termios g_saved;
volatile sig_atomic_t g_raw = 0;

extern "C" void RestoreAndReraise(int sig) {
  if (g_raw) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved);
  g_raw = 0;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

constexpr int kSignals[4] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

}  // namespace

RawTerminal::RawTerminal() {
  if (::tcgetattr(STDIN_FILENO, &g_saved) != 0) return;
  struct termios raw = g_saved;
  raw.c_lflag &= ~(ICANON | ECHO | ISIG | IEXTEN);
  raw.c_iflag &= ~(IXON | ICRNL);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  struct sigaction sa {};
  sa.sa_handler = RestoreAndReraise;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 4; ++i) ::sigaction(kSignals[i], &sa, &old_[i]);
  installed_ = true;
  g_raw = 1;
  if (::tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0) g_raw = 0;
  ok_ = g_raw != 0;
}

RawTerminal::~RawTerminal() {
  if (g_raw) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved);  // also drops unread keys
  g_raw = 0;
  if (!installed_) return;
  for (int i = 0; i < 4; ++i) ::sigaction(kSignals[i], &old_[i], nullptr);
}

KeyRead ReadOneKey(double timeout_seconds, unsigned char* key) {
  const int timeout_ms = static_cast<int>(timeout_seconds * 1000);
  while (true) {
    pollfd p{STDIN_FILENO, POLLIN, 0};
    const int ready = ::poll(&p, 1, timeout_ms);
    if (ready == 0) return KeyRead::kTimeout;
    if (ready < 0) {
      if (errno == EINTR) continue;
      return KeyRead::kClosed;
    }
    const ssize_t k = ::read(STDIN_FILENO, key, 1);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return KeyRead::kClosed;
    return KeyRead::kKey;
  }
}

}  // namespace kaizen::cli
