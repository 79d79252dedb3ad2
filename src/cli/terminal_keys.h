// One-key answers on a terminal (seed 001 tier 2: "Single keystroke"), for `kaizen rate` and
// `kaizen review`: raw mode that every way out restores, and a read of one key with a timeout.
#pragma once

#include <signal.h>
#include <termios.h>

namespace kaizen::cli {

// Raw mode for single keys: no line buffering, no echo, and Ctrl-C arrives as a key (ISIG off),
// so every way out goes through the destructor. SIGTERM, SIGHUP, SIGQUIT and a SIGINT sent by
// kill(1) restore the terminal in their handler. One at a time per process.
class RawTerminal {
 public:
  RawTerminal();
  ~RawTerminal();
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;
  bool ok() const { return ok_; }

 private:
  struct sigaction old_[4]{};
  bool ok_ = false;
  bool installed_ = false;  // old_ holds the handlers to put back
};

enum class KeyRead { kKey, kTimeout, kClosed };

// Waits up to `timeout_seconds` for one byte of standard input.
KeyRead ReadOneKey(double timeout_seconds, unsigned char* key);

}  // namespace kaizen::cli
