// `kaizen record KIND [FILE|-]` and `kaizen import FILE...`: the CLI's doors onto the pipeline.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include "cli/commands.h"
#include "home/clock.h"
#include "home/derived_files.h"
#include "home/input.h"
#include "home/learned_state.h"
#include "ingest/ingestor.h"
#include "ingest/mapped_line_source.h"
#include "model/event_kind.h"
#include "model/limits.h"
#include "store/file_system.h"

namespace kaizen::cli {
namespace {

// A hand-written event is often one JSON object pretty-printed over several lines. A file of at
// most four events' size whose first non-blank line is not JSON on its own, and whose whole text
// is one JSON object, is that object minified onto one line; nullopt: read the input as JSONL
// (its errors then name each line, as before). A pipe is always read as JSONL: it cannot be read
// twice.
std::optional<std::string> OneObjectOverLines(const home::InputFile& in) {
  constexpr uint64_t kMaxBytes = 4 * model::kMaxEventBytes;
  if (in.size() == 0 || in.size() > kMaxBytes) return std::nullopt;
  std::string text(in.size(), '\0');
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n =
        ::pread(in.fd(), text.data() + got, text.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    got += static_cast<size_t>(n);
  }
  simdjson::dom::parser parser;
  simdjson::dom::element element;
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos || text[start] != '{') return std::nullopt;
  const size_t end = text.find('\n', start);
  if (end == std::string::npos) return std::nullopt;  // one line: JSONL already
  const simdjson::padded_string first(std::string_view(text).substr(start, end - start));
  if (parser.parse(first).get(element) == simdjson::SUCCESS) return std::nullopt;
  const simdjson::padded_string whole(text);
  simdjson::dom::object object;
  if (parser.parse(whole).get(object) != simdjson::SUCCESS) return std::nullopt;
  std::string line(text.size(), '\0');
  size_t length = 0;
  if (simdjson::minify(text.data(), text.size(), line.data(), length) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  line.resize(length);
  line.push_back('\n');
  return line;
}

std::string LineResultJson(const ingest::LineResult& r, std::string_view file) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  if (!file.empty()) {
    w.Key("file");
    w.String(file.data(), static_cast<rapidjson::SizeType>(file.size()));
  }
  w.Key("line");
  w.Uint64(r.line_number);
  w.Key("stored");
  w.Bool(r.stored);
  if (r.skipped) {  // the consent gate: not stored, not an error
    w.Key("skipped");
    w.Bool(true);
    w.Key("reason");
    w.String(r.skip_reason.c_str());
  }
  if (r.stored) {
    w.Key("id");
    w.String(r.id.c_str());
  } else {
    w.Key("errors");
    w.StartArray();
    for (const auto& e : r.errors) {
      w.StartObject();
      w.Key("path");
      w.String(e.path.c_str());
      w.Key("message");
      w.String(e.message.c_str());
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
  return b.GetString();
}

void PrintNotes(ingest::Ingestor& ingestor) {
  for (const auto& note : ingestor.TakeNotes()) {
    fmt::print(stderr, "kaizen: recovered {}: {}\n", note.file, note.text);
  }
}

class RejectFile {
 public:
  explicit RejectFile(const std::string& path) {
    if (path.empty()) return;
    errno = 0;
    out_.open(path, std::ios::binary | std::ios::trunc);
    if (!out_.is_open()) error_ = errno;
  }
  bool failed(const std::string& path) const { return !path.empty() && !out_.is_open(); }
  void Keep(std::string_view line) {
    if (!out_.is_open()) return;
    out_ << line << '\n';
    if (out_.fail() && error_ == 0) error_ = errno;
  }
  bool Close() {
    if (!out_.is_open()) return true;
    errno = 0;
    out_.close();
    if (out_.fail() && error_ == 0) error_ = errno;
    return !out_.fail();
  }
  // Why it failed, as the system said (": No space left on device"), or nothing when it did not
  // say.
  std::string Why() const { return error_ ? std::string(": ") + std::strerror(error_) : ""; }

 private:
  std::ofstream out_;
  int error_ = 0;
};

// The reject file is opened, and so emptied, before any input is read: naming an input FILE
// there destroyed it, and the run then stored nothing from the empty file ("imported 0 events",
// exit 0). The input among `files` that is the same file as `reject_file` (by device and inode,
// so another spelling of the path is caught too), or nothing.
std::optional<std::string> RejectIsInput(const std::string& reject_file,
                                         const std::vector<std::string>& files) {
  struct stat r;
  if (reject_file.empty() || ::stat(reject_file.c_str(), &r) != 0) return std::nullopt;
  for (const std::string& f : files) {
    struct stat in;
    if (f != "-" && ::stat(f.c_str(), &in) == 0 && in.st_dev == r.st_dev && in.st_ino == r.st_ino) {
      return f;
    }
  }
  return std::nullopt;
}

int RefuseRejectIsInput(std::string_view verb, const std::string& reject_file,
                        const std::string& input) {
  fmt::print(stderr,
             "kaizen {}: --reject \"{}\" is the input FILE \"{}\"; it would be emptied "
             "before it is read (give another file)\n",
             verb, reject_file, input);
  return kExitUsage;
}

}  // namespace

int RecordCommand(const Common& c, const std::string& kind_name, const std::string& file,
                  const std::string& reject_file) {
  auto kind = model::ParseKind(kind_name);
  if (!kind) {
    fmt::print(stderr, "kaizen record: KIND \"{}\" is not one of {}\n", kind_name,
               model::KindList());
    return kExitUsage;
  }
  auto now = home::NowMs(c.now);
  if (!now.ok()) {
    fmt::print(stderr, "kaizen record: {}\n", now.status().message());
    return kExitUsage;
  }
  auto input = home::InputFile::Open(file);
  if (!input.ok()) {
    fmt::print(stderr, "kaizen record: {}\n", input.status().message());
    return kExitSystem;
  }
  if (auto same = RejectIsInput(reject_file, {file})) {
    return RefuseRejectIsInput("record", reject_file, *same);
  }
  RejectFile rejects(reject_file);
  if (rejects.failed(reject_file)) {
    fmt::print(stderr, "kaizen record: cannot write the reject file {}{}\n", reject_file,
               rejects.Why());
    return kExitSystem;
  }
  auto taxonomy = home::LoadTaxonomy(c.home);
  if (!taxonomy.ok()) {
    fmt::print(stderr, "kaizen record: {}\n", taxonomy.status().message());
    return kExitUsage;
  }
  ingest::Ingestor ingestor(c.home, store::DefaultFileSystem());
  ingestor.set_remote(c.remote);
  ingest::IngestOptions options;
  options.now_ms = *now;
  options.expected_kind = kind;
  if (*taxonomy) options.taxonomy = &**taxonomy;
  options.on_line = [&](const ingest::LineResult& r) {
    if (c.json) {
      fmt::print("{}\n", LineResultJson(r, ""));
    } else if (r.stored) {
      fmt::print("{}\n", r.id);
    }
    if (r.skipped && !c.json)
      fmt::print(stderr, "line {}: skipped: {}\n", r.line_number, r.skip_reason);
    if (!r.stored && !r.skipped) {
      rejects.Keep(r.text);
      if (!c.json) {
        for (const auto& e : r.errors)
          fmt::print(stderr, "line {}: {}\n", r.line_number, e.ToString());
      }
    }
  };
  ingest::IngestSummary summary;
  std::unique_ptr<ingest::LineSource> source;
  std::optional<simdjson::padded_string> object;
  if (std::optional<std::string> one = OneObjectOverLines(*input)) {
    object.emplace(*one);
    source = std::make_unique<ingest::MemoryLineSource>(std::string_view(*object),
                                                        model::kMaxEventBytes);
  } else {
    source = ingest::LinesOf(input->fd());
  }
  Status s = ingestor.Ingest(*source, options, &summary);
  PrintNotes(ingestor);
  std::fflush(stdout);
  if (!s.ok()) {
    fmt::print(stderr, "kaizen record: {} (events not listed above were not stored)\n",
               s.message());
    // InvalidArgument: the home's config/privacy.json is wrong (a usage error, nothing stored).
    return s.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitSystem;
  }
  if (summary.stored > 0) (void)home::MarkDerivedStale(ingestor.log());
  if (!rejects.Close()) {
    fmt::print(stderr, "kaizen record: cannot write the reject file {}{}\n", reject_file,
               rejects.Why());
    return kExitSystem;
  }
  if (summary.skipped > 0) {
    fmt::print(
        stderr,
        "kaizen record: {} events skipped, not stored: learning mode is off for their user\n",
        summary.skipped);
  }
  if (summary.stored == 0 && summary.rejected == 0 && summary.skipped == 0) {
    fmt::print(stderr, "kaizen record: no event in the input (it is empty or blank)\n");
    return kExitRejected;
  }
  return summary.rejected ? kExitRejected : kExitOk;
}

int ImportCommand(const Common& c, const std::vector<std::string>& files,
                  const std::string& reject_file) {
  auto now = home::NowMs(c.now);
  if (!now.ok()) {
    fmt::print(stderr, "kaizen import: {}\n", now.status().message());
    return kExitUsage;
  }
  if (auto same = RejectIsInput(reject_file, files)) {
    return RefuseRejectIsInput("import", reject_file, *same);
  }
  RejectFile rejects(reject_file);
  if (rejects.failed(reject_file)) {
    fmt::print(stderr, "kaizen import: cannot write the reject file {}{}\n", reject_file,
               rejects.Why());
    return kExitSystem;
  }
  auto taxonomy = home::LoadTaxonomy(c.home);
  if (!taxonomy.ok()) {
    fmt::print(stderr, "kaizen import: {}\n", taxonomy.status().message());
    return kExitUsage;
  }
  const bool tty = ::isatty(2);
  const auto start = std::chrono::steady_clock::now();
  ingest::Ingestor ingestor(c.home, store::DefaultFileSystem());
  ingestor.set_remote(c.remote);
  ingest::IngestSummary total;
  int exit_code = kExitOk;
  for (const std::string& file : files) {
    auto input = home::InputFile::Open(file);
    if (!input.ok()) {
      fmt::print(stderr, "kaizen import: {}\n", input.status().message());
      exit_code = kExitSystem;
      continue;
    }
    ingest::IngestOptions options;
    options.now_ms = *now;
    if (*taxonomy) options.taxonomy = &**taxonomy;
    const uint64_t size = input->size();
    options.on_line = [&](const ingest::LineResult& r) {
      if (c.json) fmt::print("{}\n", LineResultJson(r, file));
      if (!r.stored && !r.skipped) {
        rejects.Keep(r.text);
        if (!c.json) {
          for (const auto& e : r.errors) {
            fmt::print(stderr, "{}:{}: {}\n", file, r.line_number, e.ToString());
          }
        }
      }
    };
    uint64_t stored_before = total.stored;
    if (tty) {
      options.on_progress = [&](uint64_t done) {
        if (size == 0) {  // a pipe: how much is read, not how much is left
          fmt::print(stderr, "\r{} {:.1f} MB read", file, static_cast<double>(done) / 1e6);
          return;
        }
        int pct = static_cast<int>(std::min<uint64_t>(done * 100 / size, 100));
        int bar = pct / 4;
        fmt::print(stderr, "\r{} [{}{}] {:3}%", file, std::string(static_cast<size_t>(bar), '#'),
                   std::string(static_cast<size_t>(25 - bar), ' '), pct);
      };
    }
    const std::unique_ptr<ingest::LineSource> source = ingest::LinesOf(input->fd());
    Status s = ingestor.Ingest(*source, options, &total);
    if (tty) fmt::print(stderr, "\n");
    PrintNotes(ingestor);
    if (!s.ok()) {
      fmt::print(stderr,
                 "kaizen import: {}: {} ({} events of this file were stored before the failure)\n",
                 file, s.message(), total.stored - stored_before);
      exit_code = s.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitSystem;
      break;
    }
  }
  if (total.stored > 0) (void)home::MarkDerivedStale(ingestor.log());
  const bool rejects_kept = rejects.Close();
  if (!rejects_kept) {
    fmt::print(stderr, "kaizen import: cannot write the reject file {}{}\n", reject_file,
               rejects.Why());
    exit_code = kExitSystem;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (c.json) {
    fmt::print(
        "{{\"summary\":{{\"stored\":{},\"rejected\":{},\"skipped\":{},\"blank\":{},"
        "\"seconds\":{:.3f}}}}}\n",
        total.stored, total.rejected, total.skipped, total.blank, seconds);
  } else {
    // The consent gate's count only when it held something back (seed 004: learning mode off).
    fmt::print("imported {} events, rejected {}{}{} ({} blank lines skipped) in {:.2f} s\n",
               total.stored, total.rejected,
               reject_file.empty() || !total.rejected || !rejects_kept
                   ? ""
                   : " (kept in " + reject_file + ")",
               total.skipped
                   ? fmt::format(", skipped {} (learning mode off for their user)", total.skipped)
                   : "",
               total.blank, seconds);
  }
  if (total.stored > 0) {
    // The learned state is folded here, while the user waits for the import anyway: the first
    // agent session after importing a large history would otherwise fold it in its hooks, against
    // their budget of seconds, and fail open. Derived: a failure costs only that fold.
    if (tty) fmt::print(stderr, "kaizen import: folding the learned state for the next verbs\n");
    home::CheckpointUse use;
    if (Status s = home::CheckpointLearnedState(c.home, &use); !s.ok()) {
      fmt::print(stderr,
                 "kaizen import: learned state not checkpointed (the next verb folds it): {}\n",
                 s.message());
    }
  }
  if (exit_code == kExitOk && total.rejected) exit_code = kExitRejected;
  return exit_code;
}

}  // namespace kaizen::cli
