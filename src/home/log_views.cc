#include "home/log_views.h"

#include <simdjson.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "store/copy_progress.h"
#include "store/log_format.h"

namespace kaizen::home {
namespace {

static_assert(simdjson::SIMDJSON_PADDING <= store::kPieceSlack,
              "a piece a copy hands over has room for the parser's padding");

namespace od = simdjson::ondemand;

// One raw file, read whole by the first worker that needs it and freed once its last slice is
// folded (the views of a slice point into its data until then).
struct RawFile {
  std::string name;            // as ListRawFiles names it
  uint64_t start = 0;          // read from here (a line start); offsets below are from it
  uint64_t first_line = 0;     // lines before `start`
  uint64_t snapshot_size = 0;  // read up to here, then up to the last complete line
  size_t first_slice = 0;      // the log-wide number of its slice 0
  size_t slices = 0;
  enum class State { kUnread, kReading, kRead } state = State::kUnread;  // GUARDED_BY(mu)
  std::string data;  // then SIMDJSON_PADDING spaces
  size_t end = 0;    // through the last complete line
  Status status;     // set before kRead
};

// The events of one slice, read by a worker and folded by it. Kept by the worker from slice to
// slice: its views keep the capacity of their vectors, so reading an event allocates nothing
// once warm.
struct Slice {
  std::vector<learn::EventViews> events;  // the first `used` are this slice's
  size_t used = 0;
  std::deque<std::string> escaped;
  struct Bad {
    uint64_t line;  // within the slice, 1-based
    const char* why;
  };
  std::vector<Bad> bad;
  uint64_t lines = 0;  // newlines in the slice: where the next slice's line numbers start

  learn::EventViews* Next() {
    if (used == events.size()) events.emplace_back();
    return &events[used++];
  }
  void Unread() { --used; }
  void Clear() {
    used = 0;
    escaped.clear();
    bad.clear();
    lines = 0;
  }
};

class Reading {
 public:
  // Reads `files`, listed whole beforehand, or (with `follow`) the pieces a copy in progress
  // writes, each as soon as it is written.
  Reading(store::RawLog& log, std::vector<RawFile> files, store::CopyProgress* follow,
          uint64_t slice_bytes, const std::function<void(learn::EventViews&)>& fn,
          const std::function<void(learn::EventViews*)>& prepare, const learn::ReadScope& scope,
          LogScan* scan)
      : log_(log),
        follow_(follow),
        slice_bytes_(slice_bytes),
        fn_(fn),
        prepare_(prepare),
        scope_(scope),
        scan_(scan) {
    for (RawFile& f : files) AddFile(std::move(f));
    listed_ = follow == nullptr;
  }

  // Takes slices in log order, reads each, and folds it once every slice before it is folded.
  void Worker() {
    od::parser parser;
    learn::EventReader reader;
    reader.set_scope(scope_);
    Slice slice;
    slice.events.reserve(1024);
    size_t file = 0;
    while (true) {
      size_t n;
      RawFile* f;
      {
        std::unique_lock<std::mutex> l(mu_);
        if (!NextSliceListed(l)) return;
        n = next_++;
        while (file + 1 < files_.size() && files_[file + 1].first_slice <= n) ++file;
        f = &files_[file];  // a deque's elements stay where they are as it grows
      }
      slice.Clear();
      if (Load(f)) Parse(parser, reader, *f, n - f->first_slice, &slice);
      if (!Fold(*f, n, &slice)) return;
    }
  }

  Status result() const { return result_; }
  Status copy_result() const { return copy_result_; }

 private:
  void AddFile(RawFile f) {
    const uint64_t bytes = f.snapshot_size - f.start;
    f.first_slice = slices_;
    f.slices = std::max<uint64_t>(1, (bytes + slice_bytes_ - 1) / slice_bytes_);
    slices_ += f.slices;
    files_.push_back(std::move(f));
  }

  // Whether the next slice to take exists: listed, or (following a copy) once the copy wrote the
  // piece it falls in. One worker at a time waits for the copy's next piece; the others wait for
  // that one (and, woken, look at next_ again: another may have taken slices meanwhile). False
  // when reading stops, or the copy ended before that slice.
  bool NextSliceListed(std::unique_lock<std::mutex>& l) {
    while (!stop_ && next_ >= slices_ && !listed_) {
      if (fetching_) {
        changed_.wait(l);
        continue;
      }
      fetching_ = true;
      const size_t k = pieces_;
      l.unlock();
      std::optional<store::CopiedPiece> piece = follow_->Piece(k);
      Status ended = piece ? Status::Ok() : follow_->Wait();
      l.lock();
      fetching_ = false;
      if (piece) {
        ++pieces_;
        RawFile f;
        f.name = std::move(piece->file);
        f.start = piece->start;
        f.first_line = piece->lines_before;
        f.snapshot_size = piece->end;
        if (!piece->bytes.empty()) {
          // Handed over by the copy: whole lines, spare capacity for the padding.
          f.data = std::move(piece->bytes);
          f.end = f.data.size();
          f.data.append(simdjson::SIMDJSON_PADDING, ' ');
          f.state = RawFile::State::kRead;
        }
        AddFile(std::move(f));
      } else {
        listed_ = true;
        copy_result_ = ended;
        if (!ended.ok()) stop_ = true;  // a piece may be missing: no fold of what was read
      }
      changed_.notify_all();
    }
    return !stop_ && next_ < slices_;
  }

  // Reads the file unless another worker is reading it, waiting for it then. False when it could
  // not be read (f->status says why).
  bool Load(RawFile* f) {
    {
      std::unique_lock<std::mutex> l(mu_);
      if (f->state == RawFile::State::kUnread) {
        f->state = RawFile::State::kReading;
        if (!buffers_.empty()) {
          f->data = std::move(buffers_.back());
          buffers_.pop_back();
        }
      } else {
        changed_.wait(l, [&] { return f->state == RawFile::State::kRead; });
        return f->status.ok();
      }
    }
    std::string& d = f->data;
    f->status =
        log_.ReadRawRange(f->name, f->start, f->snapshot_size, simdjson::SIMDJSON_PADDING, &d);
    if (f->status.ok()) {
      // Only what the snapshot saw, up to its last complete line (a torn tail is not an event).
      const size_t size = d.size() - simdjson::SIMDJSON_PADDING;
      const size_t nl = std::string_view(d.data(), size).rfind('\n');
      f->end = nl == std::string_view::npos ? 0 : nl + 1;
      std::fill(d.begin() + static_cast<std::ptrdiff_t>(f->end), d.end(), ' ');
    }
    {
      std::lock_guard<std::mutex> l(mu_);
      f->state = RawFile::State::kRead;
    }
    changed_.notify_all();
    return f->status.ok();
  }

  // Where slice k of the file starts: the first line start at or after k * slice_bytes_ (its
  // end is where slice k + 1 starts), so neighbouring slices agree without talking. Searched no
  // further than `limit`: nullopt when no line starts before it.
  std::optional<size_t> SliceStart(const RawFile& f, size_t k, size_t limit) const {
    const uint64_t at = k * slice_bytes_;
    if (at == 0) return 0;
    if (at >= f.end) return f.end;
    if (f.data[at - 1] == '\n') return at;
    limit = std::min(limit, f.end);
    if (at >= limit) return std::nullopt;
    const auto* nl = static_cast<const char*>(std::memchr(f.data.data() + at, '\n', limit - at));
    if (nl == nullptr) return limit == f.end ? std::optional<size_t>(f.end) : std::nullopt;
    return static_cast<size_t>(nl - f.data.data()) + 1;
  }

  // Reads slice k of a read file into views, a line at a time. A line of a kind not read whole,
  // written as ingest writes it, is read to its timestamp without a parser
  // (EventReader::ReadHeaderOnly): most of the log, for a verb that folds some kinds. Any other
  // line is parsed in place. A bad line costs only itself and is reported with its place.
  void Parse(od::parser& parser, learn::EventReader& reader, const RawFile& f, size_t k,
             Slice* slice) {
    const std::string& d = f.data;
    // A slice in which no line starts (inside a line longer than a slice) is empty: its search
    // stops at its own end, so a long line costs a scan of itself, not one per slice it spans.
    const std::optional<size_t> begin = SliceStart(f, k, (k + 1) * slice_bytes_);
    if (!begin || *begin >= std::min<uint64_t>(f.end, (k + 1) * slice_bytes_)) return;
    // The end is the next line start after the slice: the slice's last line, read below anyway.
    const size_t end = k + 1 == f.slices ? f.end : *SliceStart(f, k + 1, f.end);
    const char* buffer_end = d.data() + d.size();  // the file's padding included
    for (size_t pos = *begin; pos < end;) {
      // Every line up to `end` ends in a newline. JSON text holds none inside a value, so a
      // stored event is exactly one line.
      const char* start = d.data() + pos;
      const auto* nl = static_cast<const char*>(std::memchr(start, '\n', end - pos));
      const std::string_view line(start, static_cast<size_t>(nl - start));
      pos += line.size() + 1;
      const uint64_t line_number = ++slice->lines;
      if (line.empty()) continue;
      learn::EventViews* event = slice->Next();
      if (reader.ReadHeaderOnly(line, event)) {
        if (prepare_) prepare_(event);
        continue;
      }
      // Parsed in place: the rest of the file and its padding follow the line, so its strings
      // point into the file's data.
      od::document doc;
      od::object o;
      if (parser.iterate(line.data(), line.size(), static_cast<size_t>(buffer_end - start))
              .get(doc) ||
          doc.get_object().get(o) || !reader.ReadDurable(o, &slice->escaped, event)) {
        slice->Unread();
        slice->bad.push_back(
            {line_number, "not a stored event (malformed JSON, or no kind/timestamp)"});
        continue;
      }
      // Read whole, the object ends where the parser stands; anything after it is a second value
      // (a line of a kind read only to its timestamp is not looked at past it).
      if (scope_.kinds.Has(event->kind) &&
          doc.current_location().error() != simdjson::OUT_OF_BOUNDS) {
        slice->bad.push_back(
            {line_number, "more than one JSON value on the line (the first was read)"});
      }
      if (prepare_) prepare_(event);
    }
  }

  // Waits for slice n's turn and folds it: its events in order, its bad lines with their place
  // in the file. After a file's last slice the file is done: counted, and its buffer reused.
  // False when reading stops (a file could not be read).
  bool Fold(RawFile& f, size_t n, Slice* slice) {
    {
      std::unique_lock<std::mutex> l(mu_);
      changed_.wait(l, [&] { return stop_ || folded_ == n; });
      if (stop_) return false;
    }
    // This thread alone folds until it moves folded_ on: the turns are handed over under mu_.
    bool more = true;
    if (n == f.first_slice) line_base_ = f.first_line;
    if (!f.status.ok()) {
      result_ = f.status;
      more = false;
    } else {
      for (size_t i = 0; i < slice->used; ++i) {
        ++scan_->events;
        fn_(slice->events[i]);
      }
      for (const Slice::Bad& bad : slice->bad) {
        ++scan_->unreadable;
        if (scan_->first_unreadable.size() < kMaxBadLinesKept) {
          scan_->first_unreadable.push_back(
              {std::string(store::kRawDir) + "/" + f.name, line_base_ + bad.line, bad.why});
        }
      }
      line_base_ += slice->lines;
    }
    const bool last = n + 1 == f.first_slice + f.slices;
    if (more && last) {
      scan_->bytes += f.end;
      // A copy followed writes a day file in several pieces: one file read.
      if (!scan_->files.empty() && scan_->files.back().first == f.name) {
        scan_->files.back().second = f.start + f.end;
      } else {
        scan_->files.emplace_back(f.name, f.start + f.end);
      }
      scan_->last_file_lines = line_base_;
      line_base_ = 0;
    }
    {
      std::lock_guard<std::mutex> l(mu_);
      if (!more) stop_ = true;
      if (last || !more) {
        // A followed copy's next piece reuses it; a file read, the next file read.
        if (follow_ != nullptr) {
          follow_->Recycle(std::move(f.data));
        } else {
          buffers_.push_back(std::move(f.data));
        }
        f.data = std::string();
      }
      ++folded_;
    }
    changed_.notify_all();
    return more;
  }

  store::RawLog& log_;
  store::CopyProgress* const follow_;
  const uint64_t slice_bytes_;
  const std::function<void(learn::EventViews&)>& fn_;
  const std::function<void(learn::EventViews*)>& prepare_;
  const learn::ReadScope scope_;
  LogScan* scan_;  // written by the folding turn only
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<RawFile> files_;         // GUARDED_BY(mu_): grows while a copy is followed
  size_t slices_ = 0;                 // GUARDED_BY(mu_): of files_
  bool listed_ = false;               // GUARDED_BY(mu_): files_ is every file there is to read
  bool fetching_ = false;             // GUARDED_BY(mu_): a worker waits for the copy's next piece
  size_t pieces_ = 0;                 // GUARDED_BY(mu_): pieces of the copy taken
  Status copy_result_;                // GUARDED_BY(mu_): how the followed copy ended
  size_t next_ = 0;                   // GUARDED_BY(mu_): the next slice to take
  size_t folded_ = 0;                 // GUARDED_BY(mu_): slices folded
  bool stop_ = false;                 // GUARDED_BY(mu_)
  std::vector<std::string> buffers_;  // GUARDED_BY(mu_): file buffers to reuse
  uint64_t line_base_ = 0;            // the folding turn's: lines of the file before the slice
  Status result_;                     // the folding turn's
};

}  // namespace

Status ReadLogViews(store::RawLog& log, const std::function<void(learn::EventViews&)>& fn,
                    LogScan* scan, const std::function<void(learn::EventViews*)>& prepare,
                    const learn::ReadScope& scope, uint64_t slice_bytes, size_t threads,
                    const LogPosition& from) {
  slice_bytes = std::max<uint64_t>(1, slice_bytes);
  // A first copy of the store streaming into this (new) home: followed, piece by piece. Any other
  // copy in progress is waited for, as the writer lock below would.
  KZ_ASSIGN_OR_RETURN(std::shared_ptr<store::CopyProgress> copy,
                      store::WholeCopyToFollow(log.home()));
  if (copy && !from.file.empty()) {  // a checkpoint's end is not where a whole copy begins
    KZ_RETURN_IF_ERROR(copy->Wait());
    copy = nullptr;
  }
  std::vector<std::pair<std::string, uint64_t>> listed;
  if (copy == nullptr) {
    if (!log.HomeExists()) return Status::Ok();  // a mistyped --home leaves no directory behind
    KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
    KZ_RETURN_IF_ERROR(log.EnsureLayout());
    KZ_ASSIGN_OR_RETURN(listed, log.ListRawFiles());
  }
  std::erase_if(listed, [&](const auto& file) { return file.first < from.file; });
  std::vector<RawFile> files(listed.size());
  for (size_t i = 0; i < listed.size(); ++i) {
    RawFile& f = files[i];
    f.name = listed[i].first;
    if (f.name == from.file) {
      f.start = std::min(from.offset, listed[i].second);
      f.first_line = from.lines;
    }
    f.snapshot_size = listed[i].second;
  }
  // Each thread, this one included, takes the next slice, reads it and folds it in its turn: at
  // most one slice per thread and the files they fall in are in memory, however long the log.
  // Handing views to a separate folding thread, as until 2026-11-23, cost about as much CPU again
  // as the work (1M events, three sections: 0.64-0.69 s of CPU on one thread, 0.94-1.09 s on
  // three), the folding thread missing the cache on every view and string it touched.
  Reading reading(log, std::move(files), copy.get(), slice_bytes, fn, prepare, scope, scan);
  const size_t workers =
      threads > 0 ? threads : std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 4);
  std::vector<std::thread> pool;
  for (size_t w = 1; w < workers; ++w) pool.emplace_back([&] { reading.Worker(); });
  reading.Worker();
  for (std::thread& t : pool) t.join();
  KZ_RETURN_IF_ERROR(reading.copy_result());
  return reading.result();
}

}  // namespace kaizen::home
