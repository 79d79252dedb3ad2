#include "cli/log_views.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "store/log_format.h"

namespace kaizen::cli {
namespace {

namespace od = simdjson::ondemand;

constexpr size_t kMaxBadLinesKept = 10;

// The folding thread is the critical path: it folds every event in log order and has work for a
// whole core, while the workers, together, need a little less than the rest of the machine (1M
// events on 2 cores: about 2.0 s of CPU for the fold, 1.9 s for the two workers). At equal
// priority the scheduler shares the cores among all three threads and the fold waits its turn.
// Five nice levels down (CFS weight 335 against 1024) the workers take what the fold leaves:
// `kaizen analyze` of 1M events went from 2.05-2.13 s to 1.95-2.01 s (docs/performance.md,
// "Compiler"). Relative to the thread's own niceness, so `nice kaizen ...` keeps the whole process
// lower.
void YieldToTheFold() {
  constexpr int kWorkerNiceness = 5;
  const auto tid = static_cast<id_t>(gettid());
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, tid);
  if (nice == -1 && errno != 0) return;
  // Linux: PRIO_PROCESS with a thread id sets that thread's niceness alone. A failure leaves
  // the thread at the process's priority, which is only slower.
  (void)setpriority(PRIO_PROCESS, tid, std::min(nice + kWorkerNiceness, 19));
}

// A run of consecutive events of one file, read by a worker and folded by the caller's thread.
// Their views point into the file's data and into `escaped`. Chunks are recycled: their views
// keep the capacity of their vectors, so reading an event allocates nothing once the pool is
// warm.
struct Chunk {
  std::vector<learn::EventViews> events;  // the first `used` are this chunk's
  size_t used = 0;
  std::deque<std::string> escaped;
  std::vector<BadLine> bad;

  learn::EventViews* Next() {
    if (used == events.size()) events.emplace_back();
    return &events[used++];
  }
  void Unread() { --used; }
  void Clear() {
    used = 0;
    escaped.clear();
    bad.clear();
  }
};

// One raw file in flight. The worker appends chunks; the folding thread takes them in order.
// `data` must outlive every chunk, so it is freed only once the file is folded.
struct FileBatch {
  std::string rel;
  uint64_t snapshot_size = 0;
  std::string data;
  uint64_t bytes = 0;
  std::deque<Chunk> chunks;  // GUARDED_BY(mu)
  bool done = false;         // GUARDED_BY(mu): no more chunks will come
  Status status;             // set before done
};

constexpr size_t kEventsPerChunk = 1024;
constexpr size_t kChunksAhead = 4;  // per file: bounds memory whatever the file size

class Pipeline {
 public:
  Pipeline(store::RawLog& log, std::vector<FileBatch>& files,
           const std::function<void(learn::EventViews*)>& prepare, const learn::ReadScope& scope)
      : log_(log), files_(files), prepare_(prepare), scope_(scope) {}

  void Worker() {
    YieldToTheFold();
    od::parser parser;
    learn::EventReader reader;
    reader.set_scope(scope_);
    while (true) {
      size_t i;
      {
        std::unique_lock<std::mutex> l(mu_);
        changed_.wait(
            l, [&] { return stop_ || next_ >= files_.size() || next_ < folded_ + kFilesAhead; });
        if (stop_ || next_ >= files_.size()) return;
        i = next_++;
      }
      ReadFile(parser, reader, &files_[i]);
    }
  }

  // Waits for the next chunk of file i; false when the file is finished. `out`'s previous
  // contents go back to the pool.
  bool NextChunk(size_t i, Chunk* out) {
    std::unique_lock<std::mutex> l(mu_);
    if (out->events.capacity() != 0) {
      out->Clear();
      pool_.push_back(std::move(*out));
    }
    changed_.wait(l, [&] { return !files_[i].chunks.empty() || files_[i].done; });
    if (files_[i].chunks.empty()) return false;
    *out = std::move(files_[i].chunks.front());
    files_[i].chunks.pop_front();
    changed_.notify_all();
    return true;
  }

  void FileFolded(size_t i) {
    {
      std::lock_guard<std::mutex> l(mu_);
      // The buffer goes back to the workers: reading a file then touches no fresh pages.
      if (buffers_.size() < kFilesAhead + 2) buffers_.push_back(std::move(files_[i].data));
      files_[i].data = std::string();
      ++folded_;
    }
    changed_.notify_all();
  }

  void Stop() {
    {
      std::lock_guard<std::mutex> l(mu_);
      stop_ = true;
    }
    changed_.notify_all();
  }

 private:
  static constexpr size_t kFilesAhead = 3;

  // Hands a full chunk to the folding thread, waiting while it is kChunksAhead behind, and
  // takes a recycled one to fill next.
  void Publish(FileBatch* f, Chunk* chunk) {
    std::unique_lock<std::mutex> l(mu_);
    changed_.wait(l, [&] { return stop_ || f->chunks.size() < kChunksAhead; });
    f->chunks.push_back(std::move(*chunk));
    *chunk = TakeFromPool();
    changed_.notify_all();
  }

  // REQUIRES: mu_ held.
  Chunk TakeFromPool() {
    if (pool_.empty()) {
      // Whole at once: grown a view at a time, a chunk's vector reallocated ten times and
      // touched twice its final size in fresh pages.
      Chunk c;
      c.events.reserve(kEventsPerChunk);
      return c;
    }
    Chunk c = std::move(pool_.back());
    pool_.pop_back();
    return c;
  }

  void Finish(FileBatch* f, Chunk* chunk, Status status) {
    std::lock_guard<std::mutex> l(mu_);
    if (chunk->used != 0 || !chunk->bad.empty()) f->chunks.push_back(std::move(*chunk));
    f->status = std::move(status);
    f->done = true;
    changed_.notify_all();
  }

  // A view of the chunk filled: prepares it and publishes the chunk when full.
  void Keep(FileBatch* f, Chunk* chunk, learn::EventViews* event) {
    if (prepare_) prepare_(event);
    if (chunk->used >= kEventsPerChunk) Publish(f, chunk);
  }

  // Reads one file into chunks of views, a line at a time. A line of a kind not read whole,
  // written as ingest writes it, is read to its timestamp without a parser
  // (EventReader::ReadHeaderOnly): most of the log, for a verb that folds some kinds. Any other
  // line is parsed in place. A bad line costs only itself and is reported with its place.
  void ReadFile(od::parser& parser, learn::EventReader& reader, FileBatch* f) {
    Chunk chunk;
    {
      std::lock_guard<std::mutex> l(mu_);
      chunk = TakeFromPool();
      if (!buffers_.empty()) {
        f->data = std::move(buffers_.back());
        buffers_.pop_back();
      }
    }
    std::string& d = f->data;
    Status status = log_.ReadRawPrefix(f->rel.substr(f->rel.rfind('/') + 1), f->snapshot_size,
                                       simdjson::SIMDJSON_PADDING, &d);
    if (!status.ok()) return Finish(f, &chunk, status);
    // Only what the snapshot saw, up to its last complete line (a torn tail is not an event).
    const size_t size = d.size() - simdjson::SIMDJSON_PADDING;
    size_t end = std::string_view(d.data(), size).rfind('\n');
    end = end == std::string_view::npos ? 0 : end + 1;
    f->bytes = end;
    std::fill(d.begin() + static_cast<std::ptrdiff_t>(end), d.end(), ' ');

    const char* buffer_end = d.data() + d.size();  // the file's padding included
    uint64_t line_number = 0;
    for (size_t pos = 0; pos < end;) {
      // Every line up to `end` ends in a newline. JSON text holds none inside a value, so a
      // stored event is exactly one line.
      const char* start = d.data() + pos;
      const auto* nl = static_cast<const char*>(std::memchr(start, '\n', end - pos));
      const std::string_view line(start, static_cast<size_t>(nl - start));
      pos += line.size() + 1;
      ++line_number;
      if (line.empty()) continue;
      learn::EventViews* event = chunk.Next();
      if (reader.ReadHeaderOnly(line, event)) {
        Keep(f, &chunk, event);
        continue;
      }
      // Parsed in place: the rest of the file and its padding follow the line, so its strings
      // point into the file's data.
      od::document doc;
      od::object o;
      if (parser.iterate(line.data(), line.size(), static_cast<size_t>(buffer_end - start))
              .get(doc) ||
          doc.get_object().get(o) || !reader.ReadDurable(o, &chunk.escaped, event)) {
        chunk.Unread();
        chunk.bad.push_back(
            {f->rel, line_number, "not a stored event (malformed JSON, or no kind/timestamp)"});
        continue;
      }
      // Read whole, the object ends where the parser stands; anything after it is a second value
      // (a line of a kind read only to its timestamp is not looked at past it).
      if (scope_.kinds.Has(event->kind) &&
          doc.current_location().error() != simdjson::OUT_OF_BOUNDS) {
        chunk.bad.push_back(
            {f->rel, line_number, "more than one JSON value on the line (the first was read)"});
      }
      Keep(f, &chunk, event);
    }
    Finish(f, &chunk, Status::Ok());
  }

  store::RawLog& log_;
  std::vector<FileBatch>& files_;
  const std::function<void(learn::EventViews*)>& prepare_;
  const learn::ReadScope scope_;
  std::mutex mu_;
  std::condition_variable changed_;
  size_t next_ = 0, folded_ = 0;
  bool stop_ = false;
  // A deque: a Chunk's move may throw (its deque member), so a growing vector would copy every
  // pooled chunk's events.
  std::deque<Chunk> pool_;            // GUARDED_BY(mu_)
  std::vector<std::string> buffers_;  // GUARDED_BY(mu_): file buffers to reuse
};

}  // namespace

Status ReadLogViews(store::RawLog& log, const std::function<void(learn::EventViews&)>& fn,
                    LogScan* scan, const std::function<void(learn::EventViews*)>& prepare,
                    const learn::ReadScope& scope) {
  std::vector<std::pair<std::string, uint64_t>> listed;
  if (!log.HomeExists()) return Status::Ok();  // a mistyped --home leaves no directory behind
  {
    KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
    KZ_RETURN_IF_ERROR(log.EnsureLayout());
    KZ_ASSIGN_OR_RETURN(listed, log.ListRawFiles());
  }
  std::vector<FileBatch> files(listed.size());
  for (size_t i = 0; i < listed.size(); ++i) {
    files[i].rel = std::string(store::kRawDir) + "/" + listed[i].first;
    files[i].snapshot_size = listed[i].second;
  }
  // Workers read and parse files ahead (at most a few files and a few chunks each are in
  // memory, however long the log); this thread folds events in log order.
  Pipeline pipeline(log, files, prepare, scope);
  const size_t workers = std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
  std::vector<std::thread> threads;
  for (size_t w = 0; w < workers; ++w) threads.emplace_back([&] { pipeline.Worker(); });

  Status result;
  Chunk chunk;
  for (size_t i = 0; i < files.size() && result.ok(); ++i) {
    while (pipeline.NextChunk(i, &chunk)) {
      for (size_t k = 0; k < chunk.used; ++k) {
        ++scan->events;
        fn(chunk.events[k]);
      }
      for (BadLine& bad : chunk.bad) {
        ++scan->unreadable;
        if (scan->first_unreadable.size() < kMaxBadLinesKept) {
          scan->first_unreadable.push_back(std::move(bad));
        }
      }
    }
    // Done: the status is final (set before `done`, read after NextChunk saw it).
    result = files[i].status;
    if (result.ok()) {
      scan->bytes += files[i].bytes;
      scan->files.emplace_back(listed[i].first, files[i].bytes);
    }
    pipeline.FileFolded(i);
  }
  pipeline.Stop();
  for (std::thread& t : threads) t.join();
  return result;
}

}  // namespace kaizen::cli
