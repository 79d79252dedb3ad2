// A copy of a shared store into a home's day files, followed while it runs. The first copy of a
// store into an empty home streams every row in log order (day, then the order each day's rows
// were written): a reader in the same process can fold each piece of a day file as soon as it is
// written instead of waiting for the whole copy (home/log_views.h). A process runs at most one
// copy per home; the copy registers its progress under the home's path for readers to find.
//
// The copy never waits for a reader: a piece comes with its bytes while the bytes held for
// readers stay under kHeldBytes, and is only named past that (the reader reads it back from the
// page cache), so a slow reader or none costs the copy nothing and holds bounded memory.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::store {

// Bytes [start, end) of a day file, written by the copy: whole lines, `lines_before` of them
// before `start` in that file.
struct CopiedPiece {
  std::string file;  // as RawLog::ListRawFiles names it
  uint64_t start = 0;
  uint64_t end = 0;
  uint64_t lines_before = 0;
  // The piece's bytes when the copy handed them over (empty: read them from the file), with at
  // least kPieceSlack bytes of spare capacity, so a reader pads them in place.
  std::string bytes;
};

inline constexpr size_t kPieceSlack = 64;

class CopyProgress {
 public:
  CopyProgress() = default;
  ~CopyProgress();  // waits for the copy Start began
  CopyProgress(const CopyProgress&) = delete;
  CopyProgress& operator=(const CopyProgress&) = delete;

  // Runs `copy` on a thread of its own, then Finish with what it returned.
  void Start(std::function<Status()> copy);

  // The copy says, before its first piece, whether it fills an empty home from the start: its
  // pieces are then the home's whole log, in log order. Otherwise (rows appended to a copy made
  // earlier) it adds no piece, and a reader waits for the end and reads the files.
  void SetWhole(bool whole);
  // Announces a piece; its bytes are dropped (the file holds them) past kHeldBytes held.
  void Add(CopiedPiece piece);
  // A buffer a reader gave back (empty, its capacity kept), or a new one.
  std::string Reusable();
  // The copy ended: with OK, every piece is durable and the home records what it copied.
  void Finish(Status status);

  // Blocks until the copy said whether it is whole, or ended; true when whole.
  bool Whole();
  // Blocks until piece `k` (0-based, in log order) is written or the copy ended: nullopt then
  // (Wait() says how it ended). The piece's bytes go to the first caller.
  std::optional<CopiedPiece> Piece(size_t k);
  // Gives a piece's bytes back once read, for the copy's next piece.
  void Recycle(std::string bytes);

  // Bytes of pieces held for readers, at most.
  static constexpr size_t kHeldBytes = size_t{128} << 20;
  // Blocks until the copy ended (and its thread, when Start made one): its status.
  Status Wait();

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::optional<bool> whole_;        // GUARDED_BY(mu_)
  std::vector<CopiedPiece> pieces_;  // GUARDED_BY(mu_)
  std::optional<Status> finished_;   // GUARDED_BY(mu_)
  size_t held_ = 0;                  // GUARDED_BY(mu_): pieces_' bytes not taken yet
  std::vector<std::string> spare_;   // GUARDED_BY(mu_): buffers given back
  std::thread thread_;               // set under mu_ (Start), joined once (Wait)
  std::once_flag joined_;
};

// Makes `progress` the copy in progress into `home` for readers of this process (null: none).
void SetCopyInProgress(const std::string& home, std::shared_ptr<CopyProgress> progress);
// The copy in progress into `home` (as the copy named it), or null.
std::shared_ptr<CopyProgress> CopyInProgress(const std::string& home);
// What a reader of `home`'s log does first: the copy in progress when it is whole (the reader
// follows it instead of reading the files); null otherwise, after any other copy in progress
// ended (its error when it failed).
Result<std::shared_ptr<CopyProgress>> WholeCopyToFollow(const std::string& home);

}  // namespace kaizen::store
