#include "serve/live_state.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "home/learned_checkpoint.h"
#include "home/learned_state.h"
#include "home/log_views.h"
#include "learn/event_reader.h"
#include "store/file/raw_log.h"
#include "store/file_system.h"
#include "store/shared_log.h"

namespace kaizen::serve {
namespace {

int64_t SystemNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Status ShuttingDown() {
  return Unavailable("kaizen is shutting down; nothing was stored, send it again later");
}

// One submission waiting for the writer. Shared between the two: the writer still touches `cv`
// (its notify) after the Submit may have seen `done` and returned.
struct Pending {
  bool catch_up = false;  // LiveState::CatchUp: no lines, only a fold of what others appended
  std::string_view jsonl;
  std::optional<model::EventKind> kind;
  std::optional<int64_t> now_ms;  // the pipeline's clock for these lines; default NowMs()
  SubmitResult* out = nullptr;
  // SubmitAsync: called by the writer instead of the notify below; `out` is then `result`.
  LiveState::SubmitDone on_done;
  SubmitResult result;
  // Each Submit waits on its own condition variable, so answering a batch wakes exactly its
  // submitters: one condition variable for all of them woke every waiting thread (hundreds under
  // load) to fight over one mutex, and that herd took more of the writer's time than the fsync.
  // (Not std::atomic::wait: libstdc++ spins and yields before it sleeps, which hundreds of waiting
  // threads turn into a measurable share of two cores.)
  std::mutex mu;
  std::condition_variable cv;
  Status status;      // GUARDED_BY(mu)
  bool done = false;  // GUARDED_BY(mu)
};
using PendingPtr = std::shared_ptr<Pending>;

// The lines a group commit appended to one raw file, copied out of the ingest callback.
struct OwnAppend {
  uint64_t offset = 0;
  std::string text;
};

// A fresh learner over the whole log, and how far into each file it read.
struct Folded {
  std::unique_ptr<learn::Learner> learner;
  std::map<std::string, uint64_t> bytes;  // raw file name -> bytes folded
};

}  // namespace

struct LiveState::Impl {
  LiveOptions options;
  learn::LearnConfig config;
  std::string config_digest;  // of the config files `config` and `taxonomy` were read from
  std::optional<text::ThemeTaxonomy> taxonomy;  // before the learner: it borrows it
  store::RawLog log{options.home, store::DefaultFileSystem()};
  ingest::Ingestor ingestor{options.home, store::DefaultFileSystem()};
  std::unique_ptr<store::SharedLog> remote;  // the writer thread's connection to options.store
  std::thread listener;                      // wakes the writer when the store notifies a commit
  std::atomic<bool> listening{false};
  // Another writer committed since the last copy (the listener says so): the next ingest copies
  // first. A server's own batches notify too, and are not news.
  std::atomic<bool> store_dirty{true};

  mutable std::shared_mutex learner_mu;
  std::unique_ptr<learn::Learner> learner;  // GUARDED_BY(learner_mu)
  std::map<std::string, uint64_t> folded;   // writer thread only (and Open)
  learn::EventReader reader;                // writer thread only
  uint64_t full_reloads = 0;                // GUARDED_BY(learner_mu)

  std::mutex queue_mu;
  std::condition_variable queue_cv;  // a submission arrived, or shutdown began
  std::condition_variable done_cv;   // the writer finished
  std::deque<PendingPtr> queue;      // GUARDED_BY(queue_mu)
  bool stopping = false;             // GUARDED_BY(queue_mu)
  bool writer_done = false;          // GUARDED_BY(queue_mu)
  std::thread writer;

  explicit Impl(LiveOptions o) : options(std::move(o)) {}

  const text::ThemeTaxonomy* Taxonomy() const { return taxonomy ? &*taxonomy : nullptr; }

  Result<Folded> FoldWholeLog() {
    Folded f;
    f.learner = std::make_unique<learn::Learner>(config, Taxonomy());
    home::LogScan scan;
    learn::Learner& l = *f.learner;
    KZ_RETURN_IF_ERROR(home::ReadLogViews(
        log, [&](learn::EventViews& e) { l.Add(e); }, &scan));
    home::WarnUnreadable(scan);
    for (auto& [name, bytes] : scan.files) f.bytes[name] = bytes;
    return f;
  }

  Status ReloadAll() {
    KZ_ASSIGN_OR_RETURN(Folded f, FoldWholeLog());
    std::unique_lock<std::shared_mutex> l(learner_mu);
    learner = std::move(f.learner);
    folded = std::move(f.bytes);
    ++full_reloads;
    return Status::Ok();
  }

  // Folds this process's own appends from memory, in log order (file-name order, then offset),
  // when `folded` is in step with them: every file starts exactly where the last fold ended and
  // none sorts before the newest file folded. Otherwise (another process appended in between, a
  // backfill, a rewritten file) it falls back to Refresh(), which reads the files and decides
  // between a tail fold and a whole fold. Either way each stored line is folded exactly once,
  // and `folded` ends past this batch, so the next poll does not fold it again. Writer only.
  Status FoldOwn(const std::map<std::string, OwnAppend>& appended) {
    if (appended.empty()) return Status::Ok();
    const std::string newest = folded.empty() ? std::string() : folded.rbegin()->first;
    for (const auto& [name, a] : appended) {
      auto it = folded.find(name);
      const uint64_t had = it == folded.end() ? 0 : it->second;
      if (name < newest || had != a.offset) return Refresh();
    }
    std::unique_lock<std::shared_mutex> l(learner_mu);
    for (const auto& [name, a] : appended) {
      FoldLines(a.text);
      folded[name] = a.offset + a.text.size();
    }
    return Status::Ok();
  }

  // Folds complete stored lines into the learner. REQUIRES: learner_mu held exclusively.
  void FoldLines(std::string_view text) {
    learn::EventViews event;
    store::ForEachLine(text, 1, [&](std::string_view line, uint64_t) {
      if (line.empty()) return;
      // An unreadable line was reported by `kaizen verify`'s rules; a live fold skips it as
      // the whole-log fold does.
      if (reader.ReadJson(line, &event)) learner->Add(event);
    });
  }

  // Folds what the log gained since the last fold: this process's writes and any other
  // process's. Called by the writer thread only.
  Status Refresh() {
    if (remote) {
      store_dirty.store(false);
      uint64_t pulled = 0;
      KZ_RETURN_IF_ERROR(ingestor.Pull(&pulled));
    }
    std::vector<std::pair<std::string, uint64_t>> listed;
    {
      KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
      KZ_ASSIGN_OR_RETURN(listed, log.ListRawFiles());
    }
    const std::string newest = folded.empty() ? std::string() : folded.rbegin()->first;
    std::map<std::string, uint64_t> now_listed(listed.begin(), listed.end());
    std::vector<std::pair<std::string, uint64_t>> grown;  // (file, new size), in log order
    for (const auto& [name, bytes] : folded) {
      auto it = now_listed.find(name);
      // A file gone or shorter: the log was rewritten (compact, forget). Fold it all again.
      if (it == now_listed.end() || it->second < bytes) return ReloadAll();
    }
    for (const auto& [name, size] : listed) {
      auto it = folded.find(name);
      const uint64_t had = it == folded.end() ? 0 : it->second;
      if (size <= had) continue;
      // An event in a day before the newest folded one (a backfill, a cold file): log order puts
      // it before events already folded, so only a whole fold gives the same state.
      if (name < newest) return ReloadAll();
      grown.emplace_back(name, size);
    }
    for (const auto& [name, size] : grown) {
      uint64_t& had = folded[name];
      KZ_ASSIGN_OR_RETURN(std::string data, log.ReadRaw(name, had));
      data.resize(std::min<uint64_t>(data.size(), size - had));  // what the listing acknowledged
      const size_t end = data.rfind('\n');
      if (end == std::string::npos) continue;  // no complete line yet
      data.resize(end + 1);
      std::unique_lock<std::shared_mutex> l(learner_mu);
      FoldLines(data);
      had += data.size();
    }
    return Status::Ok();
  }

  // Ingests one group of submissions of the same expected kind as one batch: one lock, one
  // fsync per day file.
  // Fills `appended` with what the group stored, per raw file; a chunk that does not continue
  // the previous one of its file (another process appended between two chunks) leaves a gap
  // FoldOwn cannot bridge, so it is marked by an impossible offset and FoldOwn re-reads.
  Status IngestGroup(const std::vector<PendingPtr>& group,
                     std::map<std::string, OwnAppend>* appended) {
    std::string buffer;
    std::vector<uint64_t> first_line;  // per submission: its first line number in the buffer
    uint64_t lines = 0;
    for (const PendingPtr& p : group) {
      first_line.push_back(lines + 1);
      buffer.append(p->jsonl);
      if (!p->jsonl.empty() && p->jsonl.back() != '\n') buffer.push_back('\n');
      lines += static_cast<uint64_t>(std::count(p->jsonl.begin(), p->jsonl.end(), '\n'));
      if (!p->jsonl.empty() && p->jsonl.back() != '\n') ++lines;
    }
    const size_t size = buffer.size();
    buffer.append(simdjson::SIMDJSON_PADDING, ' ');
    ingest::IngestOptions opts;
    opts.now_ms = group.front()->now_ms.value_or(NowMs());
    opts.expected_kind = group.front()->kind;
    opts.taxonomy = Taxonomy();
    opts.write_index = false;  // the server holds what it ingests in memory
    opts.on_line = [&](const ingest::LineResult& r) {
      const size_t i = static_cast<size_t>(
          std::upper_bound(first_line.begin(), first_line.end(), r.line_number) -
          first_line.begin() - 1);
      Pending* p = group[i].get();
      LineOutcome o;
      o.line_number = r.line_number - first_line[i] + 1;
      o.stored = r.stored;
      o.skipped = r.skipped;
      o.id = r.id;
      o.errors = r.errors;
      o.skip_reason = r.skip_reason;
      if (o.stored) ++p->out->summary.stored;
      if (o.skipped) ++p->out->summary.skipped;
      if (!o.stored && !o.skipped) ++p->out->summary.rejected;
      p->out->lines.push_back(std::move(o));
    };
    opts.on_appended = [&](const ingest::AppendedLines& a) {
      auto [it, fresh] = appended->try_emplace(a.file, OwnAppend{a.offset, std::string()});
      if (!fresh && it->second.offset + it->second.text.size() != a.offset) {
        it->second.offset = UINT64_MAX;  // a gap: no fold position equals it
      }
      it->second.text.append(a.text);
    };
    ingest::IngestSummary total;
    return ingestor.Ingest(std::string_view(buffer.data(), size), opts, &total);
  }

  // Wakes the group's submitters: each status and result is written before its `done`.
  static void Answer(const std::vector<PendingPtr>& group, const Status& status) {
    for (const PendingPtr& p : group) {
      if (p->on_done) {
        p->on_done(status, std::move(p->result));
        continue;
      }
      {
        std::lock_guard<std::mutex> l(p->mu);
        p->status = status;
        p->done = true;
      }
      p->cv.notify_one();  // after the unlock: the woken Submit does not block on `mu` again
    }
  }

  void WriterLoop() {
    using Clock = std::chrono::steady_clock;
    const auto poll = std::chrono::milliseconds(options.poll_ms);
    auto next_poll = Clock::now() + poll;
    while (true) {
      std::vector<PendingPtr> batch;
      {
        std::unique_lock<std::mutex> l(queue_mu);
        auto ready = [&] { return stopping || !queue.empty(); };
        if (options.poll_ms > 0) {
          queue_cv.wait_until(l, next_poll, ready);
        } else {
          queue_cv.wait(l, ready);
        }
        if (queue.empty() && stopping) break;
        batch.assign(queue.begin(), queue.end());
        queue.clear();
      }
      // Catch-up requests are answered after this batch's submissions, by one fold of what the
      // files gained.
      std::vector<PendingPtr> catch_ups, rest;
      for (PendingPtr& p : batch) (p->catch_up ? catch_ups : rest).push_back(std::move(p));
      // Submissions of one expected kind and clock go together, in arrival order. Each group is
      // answered as soon as it is durable and folded: a client that recorded an event and then asks
      // sees it (read-your-writes).
      while (!rest.empty()) {
        std::vector<PendingPtr> group, later;
        const std::optional<model::EventKind> kind = rest.front()->kind;
        const std::optional<int64_t> now = rest.front()->now_ms;
        for (PendingPtr& p : rest) {
          (p->kind == kind && p->now_ms == now ? group : later).push_back(std::move(p));
        }
        std::map<std::string, OwnAppend> appended;
        Status s = IngestGroup(group, &appended);
        // After a failure some chunks may be durable and others not: read what the files hold.
        Status folded_now = s.ok() ? FoldOwn(appended) : Refresh();
        // poll_ms 0: other processes' appends are folded after each of this process's writes,
        // before it is answered.
        if (folded_now.ok() && options.poll_ms <= 0) folded_now = Refresh();
        if (!folded_now.ok()) {
          fmt::print(stderr, "kaizen: could not fold new events: {}\n", folded_now.message());
        }
        Answer(group, s);
        rest = std::move(later);
      }
      if (!catch_ups.empty()) Answer(catch_ups, Refresh());
      // The poll for other processes' appends and rewrites, also under a steady stream of
      // submissions (the wait above then never times out).
      if (options.poll_ms > 0 && Clock::now() >= next_poll) {
        if (Status r = Refresh(); !r.ok()) {
          fmt::print(stderr, "kaizen: could not fold new events: {}\n", r.message());
        }
        next_poll = Clock::now() + poll;
      }
    }
    std::lock_guard<std::mutex> l(queue_mu);
    writer_done = true;
    done_cv.notify_all();
  }

  // Another server's commit wakes the writer, which copies and folds it (Refresh): seen here
  // within milliseconds, not at the next poll. A lost connection is retried; the poll still runs.
  void ListenLoop(store::SharedLog& pg) {
    bool subscribed = false;
    while (listening) {
      if (!subscribed) {
        if (Status s = pg.Listen(); !s.ok()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(500));
          continue;
        }
        subscribed = true;
        store_dirty.store(true);  // what was committed while not listening
      }
      Result<bool> got = pg.WaitNotification(200, remote->writer_id());
      if (!got.ok()) {
        subscribed = false;  // reconnect and listen again
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        continue;
      }
      if (!*got) continue;
      store_dirty.store(true);
      auto p = std::make_shared<Pending>();
      p->catch_up = true;
      if (!Enqueue(p)) break;
    }
  }

  // Queues p for the writer; false once Shutdown has begun.
  bool Enqueue(PendingPtr p) {
    {
      std::lock_guard<std::mutex> l(queue_mu);
      if (stopping) return false;
      queue.push_back(std::move(p));
    }
    queue_cv.notify_one();
    return true;
  }

  int64_t NowMs() const {
    if (options.fixed_now_ms) return *options.fixed_now_ms;
    if (options.now_is_newest) {
      std::shared_lock<std::shared_mutex> l(learner_mu);
      return learner->newest_ms();
    }
    return SystemNowMs();
  }
};

LiveState::LiveState(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Result<std::unique_ptr<LiveState>> LiveState::Open(const LiveOptions& options) {
  auto impl = std::make_unique<Impl>(options);
  if (!options.store.empty()) {
    KZ_ASSIGN_OR_RETURN(impl->remote, store::OpenSharedLog(options.store));
    impl->ingestor.set_remote(impl->remote.get());
    impl->ingestor.set_pull_when(&impl->store_dirty);
    uint64_t pulled = 0;
    KZ_RETURN_IF_ERROR(impl->ingestor.Pull(&pulled));
  }
  KZ_RETURN_IF_ERROR(home::LoadLearnConfig(options.home, &impl->config));
  KZ_ASSIGN_OR_RETURN(impl->taxonomy, home::LoadTaxonomy(options.home));
  KZ_ASSIGN_OR_RETURN(impl->config_digest, home::LearningConfigDigest(options.home));
  KZ_ASSIGN_OR_RETURN(Folded f, impl->FoldWholeLog());
  impl->learner = std::move(f.learner);
  impl->folded = std::move(f.bytes);
  // Every fallible step before the threads start: an Impl destroyed with a running thread would
  // end the process.
  std::unique_ptr<store::SharedLog> listen;
  if (!options.store.empty()) {
    KZ_ASSIGN_OR_RETURN(listen, store::OpenSharedLog(options.store));
  }
  Impl* raw = impl.get();
  impl->writer = std::thread([raw] { raw->WriterLoop(); });
  if (listen) {
    raw->listening = true;
    raw->listener = std::thread([raw, l = std::move(listen)] { raw->ListenLoop(*l); });
  }
  return std::unique_ptr<LiveState>(new LiveState(std::move(impl)));
}

LiveState::~LiveState() {
  impl_->listening = false;
  if (impl_->listener.joinable()) impl_->listener.join();
  Shutdown();
  if (impl_->writer.joinable()) impl_->writer.join();
}

void LiveState::SubmitAsync(std::string_view jsonl, std::optional<model::EventKind> kind,
                            SubmitDone done) {
  auto p = std::make_shared<Pending>();
  p->jsonl = jsonl;
  p->kind = kind;
  p->out = &p->result;
  p->on_done = std::move(done);
  if (!impl_->Enqueue(p)) p->on_done(ShuttingDown(), SubmitResult());
}

Status LiveState::Submit(std::string_view jsonl, std::optional<model::EventKind> kind,
                         SubmitResult* out, std::optional<int64_t> now_ms) {
  auto p = std::make_shared<Pending>();
  p->jsonl = jsonl;
  p->kind = kind;
  p->now_ms = now_ms;
  p->out = out;
  if (!impl_->Enqueue(p)) return ShuttingDown();
  std::unique_lock<std::mutex> l(p->mu);
  p->cv.wait(l, [&] { return p->done; });
  return p->status;
}

Status LiveState::CatchUp() {
  KZ_ASSIGN_OR_RETURN(std::string digest, home::LearningConfigDigest(impl_->options.home));
  if (digest != impl_->config_digest) {
    return FailedPrecondition(
        "config/learning.json or config/themes.json changed since kaizen serve started; restart "
        "it to learn under the new config");
  }
  auto p = std::make_shared<Pending>();
  p->catch_up = true;
  if (!impl_->Enqueue(p)) return ShuttingDown();
  std::unique_lock<std::mutex> l(p->mu);
  p->cv.wait(l, [&] { return p->done; });
  return p->status;
}

void LiveState::Read(const std::function<void(const learn::Learner&, int64_t)>& fn) {
  const int64_t now = impl_->NowMs();
  std::shared_lock<std::shared_mutex> l(impl_->learner_mu);
  fn(*impl_->learner, now);
}

void LiveState::Shutdown() {
  std::unique_lock<std::mutex> l(impl_->queue_mu);
  impl_->stopping = true;
  impl_->queue_cv.notify_all();
  impl_->done_cv.wait(l, [&] { return impl_->writer_done; });
}

int64_t LiveState::Now() const { return impl_->NowMs(); }
const std::string& LiveState::home() const { return impl_->options.home; }
const std::string& LiveState::project() const { return impl_->options.project; }
const text::ThemeTaxonomy& LiveState::taxonomy() const {
  return impl_->taxonomy ? *impl_->taxonomy : text::ThemeTaxonomy::Default();
}
uint64_t LiveState::events() const {
  std::shared_lock<std::shared_mutex> l(impl_->learner_mu);
  return impl_->learner->events();
}
uint64_t LiveState::full_reloads() const {
  std::shared_lock<std::shared_mutex> l(impl_->learner_mu);
  return impl_->full_reloads;
}

}  // namespace kaizen::serve
