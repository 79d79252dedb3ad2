// The Ingestor's stateful stages, apart from the stateless ones: what runs for each chunk under
// the home's writer lock (the checks against the log, the PII tokens, the group commit), and its
// acknowledgement once the chunk is durable.
#include <absl/container/flat_hash_map.h>
#include <fmt/format.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/ingestor.h"
#include "ingest/ingestor_steps.h"
#include "ingest/pii_vault.h"
#include "ingest/store_mirror.h"
#include "ingest/stored_line.h"
#include "model/json_access.h"
#include "store/log_format.h"

namespace kaizen::ingest {
namespace {

using detail::PreparedLine;

// line.text with its placeholders replaced by token(pii[index]), into *resolved; returns where
// line.fatigue_at's digit is in it.
size_t ResolvePlaceholders(std::string_view nonce, const std::vector<PreparedLine::Pii>& pii,
                           const std::function<std::string(const PreparedLine::Pii&)>& token,
                           const StoredLine& line, std::string* resolved) {
  const std::string marker = fmt::format("_{}.", nonce);
  const std::string_view text = line.text;
  std::string& out = *resolved;
  out.clear();
  out.reserve(text.size() + 8 * pii.size());
  size_t done = 0;
  int64_t fatigue_shift = 0;
  for (size_t pos = text.find(marker); pos != std::string_view::npos;
       pos = text.find(marker, pos)) {
    size_t digits = pos + marker.size(), close = text.find(']', digits);
    size_t index = 0;
    bool ok = close != std::string_view::npos && close > digits;
    for (size_t i = digits; ok && i < close; ++i) {
      ok = text[i] >= '0' && text[i] <= '9';
      index = index * 10 + static_cast<size_t>(text[i] - '0');
    }
    ok = ok && index < pii.size();
    const size_t name = ok ? PiiCategoryName(pii[index].category).size() : 0;
    ok = ok && pos >= name + 1 && pos - name - 1 >= done && text[pos - name - 1] == '[';
    if (!ok) {
      pos += marker.size();
      continue;
    }
    const size_t start = pos - name - 1, end = close + 1;
    out.append(text.substr(done, start - done));
    std::string token_text = token(pii[index]);
    if (line.fatigue_at != std::string::npos && end <= line.fatigue_at) {
      fatigue_shift += static_cast<int64_t>(token_text.size()) - static_cast<int64_t>(end - start);
    }
    out += token_text;
    done = end;
    pos = end;
  }
  out.append(text.substr(done));
  if (line.fatigue_at == std::string::npos) return std::string::npos;
  return static_cast<size_t>(static_cast<int64_t>(line.fatigue_at) + fatigue_shift);
}

// The consent gate (seed 004: "If OFF, corrections not logged"): nothing of a user whose
// learning mode is off is stored. Consent events themselves always pass, or nobody could
// switch learning back on. True: the line is held back (l.skipped).
bool HeldBackByConsentGate(const IngestState& state,
                           absl::flat_hash_map<std::string, Key128>& user_keys, PreparedLine& l) {
  if (l.consent || !state.AnyLearningOff()) return false;
  for (const std::string& user : l.users) {
    // A user's key is two BLAKE2b hashes; a batch has few users and many events each.
    auto [known, added] = user_keys.try_emplace(user);
    if (added) known->second = UserKey(user);
    l.skipped = l.skipped || !state.LearningOn(known->second);
  }
  return l.skipped;
}

// Checks against the log, and against the lines before this one, which state already holds:
// what is refused goes to l.errors. Returns the prediction the feedback's delta is taken from.
std::optional<double> CheckAgainstTheLog(const IngestState& state, PreparedLine& l) {
  auto refuse = [&](std::string path, std::string message) {
    l.errors.push_back({std::move(path), std::move(message)});
  };
  if (state.KindOf(l.id)) {
    refuse("id", fmt::format("{} is already recorded (duplicate event)",
                             model::QuoteForMessage(l.id.ToString())));
  }
  std::optional<double> prediction = l.inline_prediction;
  if (l.kind == model::EventKind::kFeedback) {
    if (state.HasModalSession(l.record.key_a)) {
      refuse("modalId",
             fmt::format("{} was already answered in session {} (duplicate submission)",
                         model::QuoteForMessage(l.modal_id), model::QuoteForMessage(l.session_id)));
    }
    for (const auto& ref : l.refs) {
      const std::string_view version = l.RefVersion(ref);
      bool known = version.empty() ? state.HasArtifact(ref.key) : state.HasArtifactVersion(ref.key);
      if (!known) {
        refuse(std::string(l.RefPath(ref)) + ".id",
               fmt::format("{}{} names no recorded work event (record the work first, or give "
                           "the full WorkProductRef)",
                           model::QuoteForMessage(l.RefId(ref)),
                           version.empty() ? "" : " version " + model::QuoteForMessage(version)));
      } else if (l.RefPath(ref) == "workProduct") {
        prediction = state.Prediction(ref.key);
      }
    }
  } else if (l.kind == model::EventKind::kWork && state.HasArtifactVersion(l.record.key_b)) {
    refuse("workProduct.version",
           fmt::format("{} of artifact {} is already recorded (submit a new version)",
                       model::QuoteForMessage(l.artifact_version),
                       model::QuoteForMessage(l.artifact_id)));
  } else if (l.resolves && state.KindOf(*l.resolves) != model::EventKind::kError) {
    refuse("resolves", fmt::format("{} names no recorded error event",
                                   model::QuoteForMessage(l.resolves->ToString())));
  }
  return prediction;
}

// The line's PII placeholders replaced by the vault's tokens (into l.resolved), the vault opened
// under the lock by the first line with PII.
Status ResolvePii(const std::string& home, IngestCache& cache, std::string_view nonce,
                  const StoredLine& stored, std::optional<PiiVault>* vault, PreparedLine& l,
                  IngestSummary* summary) {
  if (!*vault) {
    auto opened = PiiVault::Open(home);
    if (!opened.ok()) {
      cache.Forget();  // the state holds lines of this chunk that will not be stored
      return opened.status();
    }
    vault->emplace(std::move(opened).value());
  }
  l.fatigue_at = ResolvePlaceholders(
      nonce, l.pii,
      [&](const PreparedLine::Pii& p) {
        return (*vault)->TokenFor(p.category, p.key, p.value, l.source);
      },
      stored, &l.resolved);
  summary->redacted += l.pii.size();
  return Status::Ok();
}

}  // namespace

// The cache caught up with what other processes appended, and with what other writers of a
// shared log stored.
Status Ingestor::CatchUpWithTheLog() {
  KZ_RETURN_IF_ERROR(cache_.CatchUp(&notes_));
  if (log_.remote() != nullptr && (pull_when_ == nullptr || pull_when_->exchange(false))) {
    // Other writers' events first, so this chunk is checked against the whole shared log.
    uint64_t pulled = 0;
    KZ_RETURN_IF_ERROR(PullMirror(log_, cache_, &pulled));
    if (pulled > 0) KZ_RETURN_IF_ERROR(cache_.CatchUp(&notes_));  // a first copy is unparsed
  }
  return Status::Ok();
}

// Each prepared line through the consent gate and the checks against the log; what passes gets
// its PII tokens, is finished into its day's buffer and applied to the state, so the lines after
// it are checked against it.
Status Ingestor::CheckAndApplyLines(Chunk& chunk, IngestState& state,
                                    absl::flat_hash_map<std::string, Key128>& user_keys,
                                    GroupCommit* commit, IngestSummary* summary) {
  std::vector<PreparedLine>& lines = chunk.lines;
  std::string* day_buffer = nullptr;  // by_day's buffer for day_of_buffer
  std::string_view day_of_buffer;
  for (size_t i = 0; i < lines.size(); ++i) {
    PreparedLine& l = lines[i];
    if (!l.errors.empty()) continue;
    if (HeldBackByConsentGate(state, user_keys, l)) continue;
    std::optional<double> prediction = CheckAgainstTheLog(state, l);
    if (!l.errors.empty()) continue;
    if (!l.pii.empty()) {
      KZ_RETURN_IF_ERROR(ResolvePii(log_.home(), cache_, placeholder_nonce_, chunk.StoredOf(l),
                                    &commit->vault, l, summary));
    }
    std::optional<double> delta;
    if (prediction && l.mean_score) delta = *l.mean_score - *prediction;
    int64_t fatigue =
        l.kind == model::EventKind::kFeedback ? state.SessionReviews(l.record.session) + 1 : 0;
    if (day_buffer == nullptr || day_of_buffer != l.day) {
      day_of_buffer = l.day;
      day_buffer = &commit->by_day.find(l.day)->second;
    }
    FinishStoredEvent(chunk.StoredOf(l), fatigue, delta, day_buffer);
    state.Apply(l.record);
    commit->records.push_back(l.record);
  }
  return Status::Ok();
}

// The PII map, when the chunk's lines gave it new tokens.
Status Ingestor::SaveVault(GroupCommit& commit) {
  if (commit.vault && commit.vault->dirty()) {
    // The map before the log: a token in the log whose value is lost would be worse than a map
    // entry for a line that failed to append.
    if (Status saved = commit.vault->Save(); !saved.ok()) {
      cache_.Forget();
      return saved;
    }
  }
  return Status::Ok();
}

// Where each append starts, read under the lock (only for a caller that asks: a stat per day).
Status Ingestor::ReadAppendOffsets(GroupCommit* commit) {
  for (const auto& [day, data] : commit->by_day) {
    const std::string file = day + std::string(store::kRawSuffix);
    const std::string path = log_.RawPath(file);
    uint64_t size = 0;
    if (log_.fs()->Exists(path)) {
      auto got = log_.fs()->FileSize(path);
      if (!got.ok()) {
        cache_.Forget();  // the state holds events that were not stored
        return got.status();
      }
      size = *got;
    }
    commit->start[file] = size;
  }
  return Status::Ok();
}

// The group commit: the day files appended to and fsynced, then the cache's records (derived:
// rebuilt from the log when they fail).
Status Ingestor::AppendAndCommit(const GroupCommit& commit, bool write_index) {
  const std::map<std::string, std::string>& by_day = commit.by_day;
  if (!by_day.empty()) {
    Status appended = log_.Append(by_day);
    if (!appended.ok()) {
      cache_.Forget();  // the state holds events that were not stored
      return appended;
    }
    std::map<std::string, uint64_t> bytes;
    for (const auto& [day, data] : by_day)
      bytes[day + std::string(store::kRawSuffix)] = data.size();
    if (!cache_.Commit(commit.records, bytes).ok()) {
      cache_.Forget();  // derived only: events are durable
    } else if (write_index) {
      (void)cache_.WriteIndex();  // derived: without it the next process reads more journal
    }
  }
  return Status::Ok();
}

namespace detail {

void SizeDayBuffers(const std::vector<PreparedLine>& lines, std::vector<std::string>* spare_days,
                    std::map<std::string, std::string>* by_day) {
  std::map<std::string, size_t> day_bytes;
  size_t* bytes = nullptr;  // the last line's day: lines in log order mostly share it
  const std::string* day = nullptr;
  for (const PreparedLine& l : lines) {
    if (!l.errors.empty()) continue;
    if (day == nullptr || *day != l.day) bytes = &day_bytes[*(day = &l.day)];
    *bytes += l.stored_size + 64;
  }
  for (const auto& [day, bytes] : day_bytes) {
    std::string& buffer = (*by_day)[day];
    if (!spare_days->empty()) {
      buffer = std::move(spare_days->back());
      spare_days->pop_back();
      buffer.clear();
    }
    buffer.reserve(bytes);
  }
}

void ReportAppended(const std::map<std::string, std::string>& by_day,
                    std::map<std::string, uint64_t>& start, const IngestOptions& options) {
  for (const auto& [day, data] : by_day) {
    AppendedLines a;
    a.file = day + std::string(store::kRawSuffix);
    a.offset = start[a.file];
    a.text = data;
    options.on_appended(a);
  }
}

void Acknowledge(std::vector<PreparedLine>& lines, const IngestOptions& options,
                 IngestSummary* summary) {
  // Acknowledge only now that the chunk is durable. One result for the chunk, its id's buffer
  // reused from line to line (the prepared lines keep theirs for the next chunk).
  LineResult r;
  for (size_t i = 0; i < lines.size(); ++i) {
    r.line_number = lines[i].line_number;
    r.text = lines[i].text;
    r.skipped = lines[i].skipped;
    r.stored = lines[i].errors.empty() && !r.skipped;
    r.id.clear();
    if (r.stored) r.id.assign(lines[i].id_text);
    r.errors = std::move(lines[i].errors);
    r.skip_reason.clear();
    if (r.skipped) {
      r.skip_reason = "learning mode is off for its user (admin consent event); not stored";
      ++summary->skipped;
    } else if (r.stored) {
      ++summary->stored;
    } else {
      ++summary->rejected;
    }
    if (options.on_line) options.on_line(r);
  }
}

}  // namespace detail
}  // namespace kaizen::ingest
