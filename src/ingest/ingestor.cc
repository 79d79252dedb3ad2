#include "ingest/ingestor.h"
#include "ingest/store_mirror.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include <sodium.h>

#include "ingest/ingestor_steps.h"

namespace kaizen::ingest {
namespace {

using detail::PreparedLine;

// The events the input holds, estimated from its first chunk when it has enough lines to go
// by, up to a bound (each costs about 50 bytes of the state's tables in advance).
uint64_t ExpectedEvents(size_t lines, uint64_t bytes, const LineSource& source) {
  uint64_t expected_events = 0;
  if (lines >= 1000) {
    constexpr uint64_t kMaxExpected = 4'000'000;
    const double per_byte = static_cast<double>(lines) / static_cast<double>(bytes);
    expected_events =
        lines +
        std::min<uint64_t>(kMaxExpected, static_cast<uint64_t>(per_byte * source.BytesLeft()));
  }
  return expected_events;
}

}  // namespace

Ingestor::Ingestor(std::string home, store::FileSystem* fs)
    : log_(std::move(home), fs), cache_(&log_) {}

Status Ingestor::Pull(uint64_t* pulled) {
  KZ_ASSIGN_OR_RETURN(auto lock, log_.Lock());
  KZ_RETURN_IF_ERROR(log_.EnsureLayout());
  return PullMirror(log_, cache_, pulled);  // catches the cache up when it has rows to check
}

std::vector<store::RecoveryNote> Ingestor::TakeNotes() { return std::exchange(notes_, {}); }

Status Ingestor::Ingest(std::string_view input, const IngestOptions& options,
                        IngestSummary* summary) {
  MemoryLineSource source(input);
  return Ingest(source, options, summary);
}

// <home>/config/privacy.json, read on the first call: its redactor, and the random nonce that
// marks this Ingestor's PII placeholders.
Status Ingestor::LoadPrivacyConfigOnce() {
  if (!redactor_) {
    KZ_ASSIGN_OR_RETURN(PrivacyConfig config, LoadPrivacyConfig(log_.home(), log_.fs()));
    KZ_ASSIGN_OR_RETURN(redactor_, SharedRedactor(config));
    unsigned char nonce[8];
    randombytes_buf(nonce, sizeof nonce);
    char hex[17];
    sodium_bin2hex(hex, sizeof hex, nonce, sizeof nonce);
    placeholder_nonce_ = hex;
  }
  return Status::Ok();
}

Status Ingestor::Ingest(LineSource& source, const IngestOptions& options, IngestSummary* summary) {
  // The shipped taxonomy is compiled on first use (a free text to read): a record of an event
  // without one does not pay for it.
  const text::ThemeTaxonomy* taxonomy = options.taxonomy;
  KZ_RETURN_IF_ERROR(LoadPrivacyConfigOnce());
  // The stateless stages run on every core; the machine this was tuned on has two.
  // Read once: glibc opens /sys/devices/system/cpu/online on every call, and a server calls
  // Ingest for every group commit.
  static const size_t threads = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
  // One scratch per preparing thread, and one for the thread that commits, which prepares too
  // once its chunk is written.
  if (scratch_.size() != threads + 1) scratch_ = std::vector<PrepareScratch>(threads + 1);
  ValidateOptions vopts;
  vopts.now_ms = options.now_ms;
  vopts.expected_kind = options.expected_kind;

  absl::flat_hash_map<std::string, Key128> user_keys;  // UserKey(user), as met
  // Day files' buffers, kept from chunk to chunk: a fresh buffer per chunk cost a page fault per
  // 4 KiB written into it.
  std::vector<std::string> spare_days;
  // Two chunks in turn, each reused with its buffers: one checked and written while the other is
  // read and prepared.
  Chunk chunks[2];
  Chunk* chunk = &chunks[0];
  Chunk* next = &chunks[1];
  KZ_RETURN_IF_ERROR(CutAndPrepare(source, options, vopts, taxonomy, threads, chunk));
  uint64_t expected_events = ExpectedEvents(chunk->lines.size(), chunk->cut.bytes, source);
  while (!chunk->lines.empty()) {
    std::vector<PreparedLine>& lines = chunk->lines;
    summary->blank += chunk->cut.blank;
    // Pipelined: the next chunk is read and prepared while this one is checked, written and
    // fsynced. No thread when the input is known to be over: most inputs (a server's batch, a
    // `record`) are one chunk.
    Status next_status;
    std::thread preparer;
    const bool last_chunk = source.Done();
    if (last_chunk) {
      // Nothing left: `next` (the chunk before this one) must not come round again.
      next->lines.clear();
      next->cut.lines.clear();
      next->cut.blank = 0;
    } else {
      next->claimable.store(false);
      next->next_block.store(0);
      preparer = std::thread(
          [&] { next_status = CutAndPrepare(source, options, vopts, taxonomy, threads, next); });
    }
    struct JoinOnExit {  // an early return must not leave the thread running
      std::thread& t;
      ~JoinOnExit() {
        if (t.joinable()) t.join();
      }
    } join_preparer{preparer};

    // Stateful stages, in order, under the home's writer lock.
    KZ_ASSIGN_OR_RETURN(auto lock, log_.Lock());
    KZ_RETURN_IF_ERROR(CatchUpWithTheLog());
    IngestState& state = cache_.state();
    // Room for the whole input at once when its size is known: growing the tables chunk by
    // chunk moved every entry several times, on the thread everything else waits for.
    state.Reserve(std::max<uint64_t>(lines.size(), expected_events));
    expected_events = 0;
    GroupCommit commit;
    detail::SizeDayBuffers(lines, &spare_days, &commit.by_day);
    KZ_RETURN_IF_ERROR(CheckAndApplyLines(*chunk, state, user_keys, &commit, summary));
    // Days whose every line was refused above: no empty file for them.
    std::erase_if(commit.by_day, [](const auto& day) { return day.second.empty(); });
    KZ_RETURN_IF_ERROR(SaveVault(commit));
    if (options.on_appended) KZ_RETURN_IF_ERROR(ReadAppendOffsets(&commit));
    KZ_RETURN_IF_ERROR(AppendAndCommit(commit, last_chunk && options.write_index));
    lock.reset();
    if (options.on_appended) detail::ReportAppended(commit.by_day, commit.start, options);
    detail::Acknowledge(lines, options, summary);
    if (options.on_progress) options.on_progress(chunk->cut.end);
    for (auto& [day, data] : commit.by_day) spare_days.push_back(std::move(data));
    if (preparer.joinable()) {
      // This chunk is done: help prepare the next one rather than wait for it.
      next->claimable.wait(false);
      PrepareBlocks(next, threads, options, vopts, taxonomy);  // the committer's scratch
      preparer.join();
    }
    KZ_RETURN_IF_ERROR(next_status);  // a read error: the chunks before are stored
    std::swap(chunk, next);
  }
  summary->blank += chunk->cut.blank;  // blank lines after the last event
  return Status::Ok();
}

}  // namespace kaizen::ingest
