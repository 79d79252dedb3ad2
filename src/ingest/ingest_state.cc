#include "ingest/ingest_state.h"

#include <sodium.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "ingest/privacy.h"
#include "model/json_access.h"
#include "model/timestamp.h"
#include "store/log_format.h"

namespace kaizen::ingest {
namespace {

constexpr std::string_view kJournal = "feedback/indexes/ingest.cache";
constexpr std::string_view kWatermark = "feedback/indexes/ingest.watermark";
constexpr std::string_view kIndex = "feedback/indexes/ingest.index";
// 2: 80-byte records; 3: consent records; 4: keys hashed with SipHash-128 (BLAKE2b-128 before),
// checksums taken a word at a time.
constexpr std::string_view kWatermarkMagic = "kaizen-ingest-watermark 4";

// FNV-1a taken a word at a time, each step folding the high bits down so they reach the next
// multiplication: a record is nine words, and byte by byte the hash was a chain of 72
// multiplications for every event. Every step is a bijection of h, so a change in any one word
// always changes the checksum. It detects torn and damaged records, nothing more.
uint64_t ChecksumOf(const CacheRecord& r) {
  static_assert(offsetof(CacheRecord, checksum) % 8 == 0);
  const auto* p = reinterpret_cast<const unsigned char*>(&r);
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < offsetof(CacheRecord, checksum); i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  return h;
}

using model::StringAt;

}  // namespace

Key128 HashKey(std::string_view a, std::string_view b) {
  // SipHash takes one buffer: `a` NUL `b`, on the stack for the ids it is given (at most
  // model::kMaxIdentifierBytes each).
  static constexpr unsigned char kKey[crypto_shorthash_siphashx24_KEYBYTES] = {
      'k', 'a', 'i', 'z', 'e', 'n', '-', 'i', 'n', 'g', 'e', 's', 't', '-', 'k', '1'};
  char stack[1024];
  std::string heap;
  const size_t n = a.size() + 1 + b.size();
  char* buffer = stack;
  if (n > sizeof stack) {
    heap.resize(n);
    buffer = heap.data();
  }
  // std::copy, not memcpy: an empty view's data() may be null, which memcpy may not be given.
  std::copy(a.begin(), a.end(), buffer);
  buffer[a.size()] = '\0';
  std::copy(b.begin(), b.end(), buffer + a.size() + 1);
  unsigned char out[crypto_shorthash_siphashx24_BYTES];
  crypto_shorthash_siphashx24(out, reinterpret_cast<const unsigned char*>(buffer), n, kKey);
  Key128 k;
  std::memcpy(&k.hi, out, 8);
  std::memcpy(&k.lo, out + 8, 8);
  if (k.empty()) k.lo = 1;  // the empty key means "none"
  return k;
}

uint64_t HashSession(std::string_view session_id) { return HashKey(session_id).hi; }

Key128 UserKey(std::string_view user_id) { return HashKey("user", Pseudonym(user_id)); }

std::optional<CacheRecord> RecordOf(simdjson::dom::element e, const model::EventKind* kind_override,
                                    const model::Uuid* id_override) {
  auto kind = kind_override ? std::optional(*kind_override) : model::ParseKind(StringAt(e, "kind"));
  auto id = id_override ? std::optional(*id_override) : model::ParseUuid(StringAt(e, "id"));
  if (!kind || !id) return std::nullopt;
  CacheRecord r;
  r.kind = static_cast<uint8_t>(*kind);
  std::memcpy(r.id, id->bytes.data(), 16);
  if (*kind == model::EventKind::kFeedback) {
    std::string_view session = StringAt(e, "sessionId");
    r.key_a = HashKey(StringAt(e, "modalId"), session);
    r.session = HashSession(session);
  } else if (*kind == model::EventKind::kWork) {
    simdjson::dom::element wp;
    if (e["workProduct"].get(wp) == simdjson::SUCCESS) {
      std::string_view artifact = StringAt(wp, "id");
      r.key_a = HashKey(artifact);
      r.key_b = HashKey(artifact, StringAt(wp, "version"));
      double p;
      if (wp["bubaScorePrediction"].get_double().get(p) == simdjson::SUCCESS) {
        r.prediction = p;
        r.flags |= CacheRecord::kHasPrediction;
      }
    }
  } else if (auto consent = ConsentOf(e, *kind)) {
    r.flags |= CacheRecord::kConsent;
    if (!consent->learning_mode) r.flags |= CacheRecord::kLearningOff;
    r.key_a = UserKey(consent->user_id);
    // The stored timestamp (the Ingestor sets the one an event will be stored with).
    auto ts = model::ParseTimestamp(StringAt(e, "timestamp"));
    r.session = static_cast<uint64_t>(ts.ok() ? ts->unix_ms : 0);
  }
  r.checksum = ChecksumOf(r);
  return r;
}

namespace {
model::Uuid UuidOf(const uint8_t (&bytes)[16]) {
  model::Uuid id;
  std::memcpy(id.bytes.data(), bytes, 16);
  return id;
}
IndexEntry IdKey(const model::Uuid& id) {
  IndexEntry e;
  std::memcpy(&e.hi, id.bytes.data(), 8);
  std::memcpy(&e.lo, id.bytes.data() + 8, 8);
  return e;
}
uint64_t DoubleBits(double d) { return std::bit_cast<uint64_t>(d); }
}  // namespace

std::optional<model::EventKind> IngestState::KindOf(const model::Uuid& id) const {
  auto it = ids_.find(id);
  if (it != ids_.end()) return static_cast<model::EventKind>(it->second);
  if (base_) {
    const IndexEntry key = IdKey(id);
    if (const IndexEntry* e = base_->Find(IndexTable::kIds, key.hi, key.lo))
      return static_cast<model::EventKind>(e->a);
  }
  return std::nullopt;
}

std::optional<double> IngestState::Prediction(const Key128& key) const {
  for (auto [m, table] : {std::pair{&versions_, IndexTable::kVersions},
                          std::pair{&artifacts_, IndexTable::kArtifacts}}) {
    std::optional<double> p;
    if (auto it = m->find(key); it != m->end()) {
      p = it->second;
    } else if (base_) {
      if (const IndexEntry* e = base_->Find(table, key.hi, key.lo)) p = std::bit_cast<double>(e->a);
    }
    if (p && !std::isnan(*p)) return p;
  }
  return std::nullopt;
}

std::optional<IngestState::Consent> IngestState::ConsentOf(const Key128& user) const {
  if (auto it = consent_.find(user); it != consent_.end()) return it->second;
  if (base_) {
    if (const IndexEntry* e = base_->Find(IndexTable::kConsent, user.hi, user.lo))
      return Consent{static_cast<int64_t>(e->a), e->b != 0};
  }
  return std::nullopt;
}

bool IngestState::LearningOn(const Key128& user) const {
  if (learning_off_ == 0) return true;
  auto consent = ConsentOf(user);
  return !consent || !consent->off;
}

uint32_t IngestState::SessionReviews(uint64_t session) const {
  uint32_t n = 0;
  if (auto it = session_reviews_.find(session); it != session_reviews_.end()) n = it->second;
  if (base_) {
    if (const IndexEntry* e = base_->Find(IndexTable::kSessions, session, 0))
      n += static_cast<uint32_t>(e->a);
  }
  return n;
}

bool IngestState::Apply(const CacheRecord& r) {
  if (base_) {
    const IndexEntry key = IdKey(UuidOf(r.id));
    if (base_->Find(IndexTable::kIds, key.hi, key.lo)) return false;
  }
  return ApplyPastBase(r);
}

bool IngestState::ApplyPastBase(const CacheRecord& r) {
  const model::Uuid id = UuidOf(r.id);
  if (!ids_.emplace(id, r.kind).second) return false;
  if (r.kind == static_cast<uint8_t>(model::EventKind::kFeedback)) {
    modal_sessions_.insert(r.key_a);
    ++session_reviews_[r.session];
  } else if (r.kind == static_cast<uint8_t>(model::EventKind::kWork)) {
    double p = (r.flags & CacheRecord::kHasPrediction) ? r.prediction : NAN;
    artifacts_[r.key_a] = p;  // the latest version's prediction
    versions_[r.key_b] = p;
  } else if (r.flags & CacheRecord::kConsent) {
    const int64_t at = static_cast<int64_t>(r.session);
    const std::optional<Consent> before = ConsentOf(r.key_a);
    if (before && at < before->at_ms) return true;  // an older change, recorded later
    const bool off = (r.flags & CacheRecord::kLearningOff) != 0;
    if (before && before->off) --learning_off_;
    consent_[r.key_a] = {at, off};
    if (off) ++learning_off_;
  }
  return true;
}

void IngestState::SetBase(std::shared_ptr<const IngestIndex> base) {
  base_ = std::move(base);
  learning_off_ = base_ ? base_->learning_off() : 0;
}

namespace {
// The base's sorted table with the delta's entries merged in: a delta entry replaces the base's
// of the same key, or, with `add`, adds its count to it.
std::vector<IndexEntry> Merge(std::span<const IndexEntry> base, std::vector<IndexEntry> delta,
                              bool add) {
  std::sort(delta.begin(), delta.end());
  std::vector<IndexEntry> out;
  out.reserve(base.size() + delta.size());
  size_t i = 0, j = 0;
  while (i < base.size() || j < delta.size()) {
    if (j == delta.size() || (i < base.size() && base[i] < delta[j])) {
      out.push_back(base[i++]);
    } else if (i == base.size() || delta[j] < base[i]) {
      out.push_back(delta[j++]);
    } else {
      IndexEntry e = delta[j++];
      if (add) e.a += base[i].a;
      out.push_back(e);
      ++i;
    }
  }
  return out;
}
}  // namespace

IndexTables IngestState::Tables() const {
  auto base = [&](IndexTable t) { return base_ ? base_->Table(t) : std::span<const IndexEntry>(); };
  auto key = [](const Key128& k, uint64_t a = 0, uint64_t b = 0) {
    return IndexEntry{k.hi, k.lo, a, b};
  };
  IndexTables tables;
  std::vector<IndexEntry> delta;
  delta.reserve(ids_.size());
  for (const auto& [id, kind] : ids_) {
    IndexEntry e = IdKey(id);
    e.a = kind;
    delta.push_back(e);
  }
  tables[size_t(IndexTable::kIds)] = Merge(base(IndexTable::kIds), std::move(delta), false);
  delta.clear();
  for (const Key128& k : modal_sessions_) delta.push_back(key(k));
  tables[size_t(IndexTable::kModalSessions)] =
      Merge(base(IndexTable::kModalSessions), std::move(delta), false);
  delta.clear();
  for (const auto& [k, p] : artifacts_) delta.push_back(key(k, DoubleBits(p)));
  tables[size_t(IndexTable::kArtifacts)] =
      Merge(base(IndexTable::kArtifacts), std::move(delta), false);
  delta.clear();
  for (const auto& [k, p] : versions_) delta.push_back(key(k, DoubleBits(p)));
  tables[size_t(IndexTable::kVersions)] =
      Merge(base(IndexTable::kVersions), std::move(delta), false);
  delta.clear();
  for (const auto& [s, n] : session_reviews_) delta.push_back(IndexEntry{s, 0, n, 0});
  tables[size_t(IndexTable::kSessions)] =
      Merge(base(IndexTable::kSessions), std::move(delta), true);
  delta.clear();
  for (const auto& [k, c] : consent_)
    delta.push_back(key(k, static_cast<uint64_t>(c.at_ms), c.off ? 1 : 0));
  tables[size_t(IndexTable::kConsent)] = Merge(base(IndexTable::kConsent), std::move(delta), false);
  return tables;
}

void IngestState::Reserve(size_t more) {
  const size_t n = ids_.size() + more;
  if (n <= reserved_) return;
  // Grow geometrically so repeated calls stay amortized O(1) per event.
  const size_t target = std::max(n, ids_.size() * 2);
  ids_.reserve(target);
  modal_sessions_.reserve(target / 2);
  artifacts_.reserve(target / 4);
  versions_.reserve(target / 4);
  reserved_ = target;
}

void IngestState::Clear() {
  base_.reset();
  ids_.clear();
  modal_sessions_.clear();
  artifacts_.clear();
  versions_.clear();
  session_reviews_.clear();
  consent_.clear();
  learning_off_ = 0;
  reserved_ = 0;
}

Status IngestCache::Reset() {
  Forget();
  generation_ = 0;  // the next watermark starts a new generation
  KZ_RETURN_IF_ERROR(log_->fs()->Remove(store::PathIn(log_->home(), kWatermark)));
  KZ_RETURN_IF_ERROR(log_->fs()->Remove(store::PathIn(log_->home(), kIndex)));
  return log_->fs()->Remove(store::PathIn(log_->home(), kJournal));
}

Status IngestCache::ReadWatermark(uint64_t* generation, uint64_t* journal_bytes,
                                  std::map<std::string, uint64_t>* covered, bool* found) {
  const std::string path = store::PathIn(log_->home(), kWatermark);
  *found = false;
  if (!log_->fs()->Exists(path)) return Status::Ok();
  KZ_ASSIGN_OR_RETURN(std::string text, log_->fs()->ReadFrom(path, 0));
  std::map<std::string, uint64_t> result;
  uint64_t journal = 0, gen = 0;
  bool magic = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) return Status::Ok();  // torn: treat as missing
    std::string_view line(text.data() + pos, nl - pos);
    pos = nl + 1;
    if (!magic) {
      if (line != kWatermarkMagic) return Status::Ok();
      magic = true;
      continue;
    }
    size_t sp = line.rfind(' ');
    if (sp == std::string_view::npos) return Status::Ok();
    uint64_t value = std::strtoull(std::string(line.substr(sp + 1)).c_str(), nullptr, 10);
    std::string key(line.substr(0, sp));
    if (key == "journal") {
      journal = value;
    } else if (key == "generation") {
      gen = value;
    } else {
      result[key] = value;
    }
  }
  if (!magic) return Status::Ok();
  *generation = gen;
  *journal_bytes = journal;
  *covered = std::move(result);
  *found = true;
  return Status::Ok();
}

Status IngestCache::WriteWatermark() {
  while (generation_ == 0) {
    generation_ = (uint64_t{randombytes_random()} << 32) | randombytes_random();
  }
  std::string text = fmt::format("{}\ngeneration {}\njournal {}\n", kWatermarkMagic, generation_,
                                 journal_applied_);
  for (const auto& [file, size] : covered_) text += fmt::format("{} {}\n", file, size);
  // Derived data: no fsync. A stale watermark only makes the next open rescan more raw bytes.
  return log_->fs()->WriteFileAtomic(store::PathIn(log_->home(), kWatermark), text, false);
}

Status IngestCache::AppendJournal(const std::vector<CacheRecord>& records) {
  if (records.empty()) return Status::Ok();
  KZ_ASSIGN_OR_RETURN(auto f, log_->fs()->OpenAppendable(store::PathIn(log_->home(), kJournal)));
  if (f->Size() != journal_applied_) {
    // Someone else's records we have not read: CatchUp must run first. A caller bug.
    return Internal("ingest cache journal changed outside the lock");
  }
  KZ_RETURN_IF_ERROR(f->Append(std::string_view(reinterpret_cast<const char*>(records.data()),
                                                records.size() * sizeof(CacheRecord))));
  journal_applied_ = f->Size();
  return Status::Ok();
}

Status IngestCache::CatchUp(std::vector<store::RecoveryNote>* notes) {
  KZ_RETURN_IF_ERROR(log_->EnsureLayout());
  for (int attempt = 0; attempt < 2; ++attempt) {
    uint64_t wm_generation = 0, wm_journal = 0;
    std::map<std::string, uint64_t> wm_covered;
    bool found = false;
    KZ_RETURN_IF_ERROR(ReadWatermark(&wm_generation, &wm_journal, &wm_covered, &found));
    if (found && wm_generation != generation_) {
      // Another process rebuilt the cache: what this one folded in may no longer match it.
      if (generation_ != 0) Forget();
      generation_ = wm_generation;
    }
    const std::string journal_path = store::PathIn(log_->home(), kJournal);
    uint64_t journal_size =
        log_->fs()->Exists(journal_path) ? log_->fs()->FileSize(journal_path).value() : 0;
    bool rebuild = (found && journal_size < wm_journal) || (!found && journal_size > 0) ||
                   journal_applied_ > journal_size;
    if (!rebuild && found && journal_applied_ == 0) {
      // A fresh start: the index holds the journal's first records, so only the rest is read.
      std::shared_ptr<const IngestIndex> index =
          IngestIndex::Open(store::PathIn(log_->home(), kIndex));
      if (index && index->generation() == generation_ &&
          index->records() * sizeof(CacheRecord) <= journal_size) {
        journal_applied_ = index->records() * sizeof(CacheRecord);
        state_.SetBase(std::move(index));
      }
    }
    if (!rebuild && journal_size > journal_applied_) {
      KZ_ASSIGN_OR_RETURN(std::string bytes, log_->fs()->ReadFrom(journal_path, journal_applied_));
      size_t n = bytes.size() / sizeof(CacheRecord);
      state_.Reserve(n);  // a million records: one allocation per table, not a rehash per doubling
      for (size_t i = 0; i < n && !rebuild; ++i) {
        CacheRecord r;
        std::memcpy(&r, bytes.data() + i * sizeof(CacheRecord), sizeof r);
        if (r.checksum != ChecksumOf(r)) {
          rebuild = true;
          break;
        }
        state_.ApplyPastBase(r);
      }
      journal_applied_ += n * sizeof(CacheRecord);
      if (!rebuild && bytes.size() % sizeof(CacheRecord) != 0) {
        // A torn record from a crash: drop it; the raw line behind it is rescanned below because
        // the watermark was not advanced past it.
        KZ_ASSIGN_OR_RETURN(auto f, log_->fs()->OpenAppendable(journal_path));
        KZ_RETURN_IF_ERROR(f->Truncate(journal_applied_));
      }
    }
    if (rebuild) {
      KZ_RETURN_IF_ERROR(Reset());
      continue;
    }
    if (found) covered_ = wm_covered;
    KZ_ASSIGN_OR_RETURN(auto files, log_->ListRawFiles());
    bool shrank = false;
    for (const auto& [file, size] : files) {
      uint64_t covered = covered_.count(file) ? covered_[file] : 0;
      if (size < covered) {
        shrank = true;
        break;
      }
    }
    if (shrank && attempt == 0) {
      // Raw files were rewritten (compaction, repair): rebuild the whole cache from them.
      KZ_RETURN_IF_ERROR(Reset());
      continue;
    }
    bool changed = false;
    for (const auto& [file, listed_size] : files) {
      uint64_t covered = covered_.count(file) ? covered_[file] : 0;
      if (listed_size <= covered) continue;
      KZ_ASSIGN_OR_RETURN(bool cut, log_->CutTornTail(file, notes));
      (void)cut;
      KZ_ASSIGN_OR_RETURN(std::string data, log_->ReadRaw(file, covered));
      std::vector<CacheRecord> records;
      simdjson::dom::parser parser;
      uint64_t first_line = 0;  // computed lazily: only corruption reports need line numbers
      bool first_line_known = false;
      size_t pos = 0;
      uint64_t index = 0;
      while (pos < data.size()) {
        size_t nl = data.find('\n', pos);
        if (nl == std::string::npos) break;
        std::string_view line(data.data() + pos, nl - pos);
        simdjson::dom::element e;
        std::optional<CacheRecord> r;
        if (parser.parse(line.data(), line.size(), true).get(e) == simdjson::SUCCESS)
          r = RecordOf(e);
        if (r) {
          records.push_back(*r);
        } else {
          if (!first_line_known) {
            KZ_ASSIGN_OR_RETURN(std::string prefix, log_->ReadRaw(file, 0));
            first_line =
                1 + std::count(prefix.begin(), prefix.begin() + static_cast<long>(covered), '\n');
            first_line_known = true;
          }
          notes->push_back({std::string(store::kRawDir) + "/" + file,
                            fmt::format("line {}: not a valid stored event; skipped (run `kaizen "
                                        "verify` for details)",
                                        first_line + index)});
        }
        ++index;
        pos = nl + 1;
      }
      // Lines stored before a crash could be in the journal already (appended, the watermark not
      // yet moved past them): only what is new to the state is appended, so the journal keeps
      // each id once (ApplyPastBase relies on it).
      std::erase_if(records, [&](const CacheRecord& r) { return !state_.Apply(r); });
      KZ_RETURN_IF_ERROR(AppendJournal(records));
      covered_[file] = covered + pos;
      changed = true;
    }
    if (changed || !found) KZ_RETURN_IF_ERROR(WriteWatermark());
    return Status::Ok();
  }
  return Internal("the ingest cache could not be rebuilt");
}

Status IngestCache::WriteIndex(bool force) {
  const uint64_t tail = state_.applied_since_base();
  if (tail == 0 || (!force && tail < kIndexTail)) return Status::Ok();
  if (journal_applied_ % sizeof(CacheRecord) != 0) return Status::Ok();
  const uint64_t records = journal_applied_ / sizeof(CacheRecord);
  const IndexTables tables = state_.Tables();
  const std::string path = store::PathIn(log_->home(), kIndex);
  // Durable before the rename: a file that names records it does not hold would hide ids.
  KZ_RETURN_IF_ERROR(log_->fs()->WriteFileAtomic(
      path, IngestIndex::Serialize(generation_, records, state_.learning_off(), tables), true));
  std::shared_ptr<const IngestIndex> index = IngestIndex::Open(path);
  if (!index) return Internal(fmt::format("{}: written but unreadable", path));
  // The new base holds all that was in memory: start over from it.
  state_.Clear();
  state_.SetBase(std::move(index));
  return Status::Ok();
}

void IngestCache::Forget() {
  state_.Clear();
  journal_applied_ = 0;
  covered_.clear();
}

Status IngestCache::Commit(const std::vector<CacheRecord>& records,
                           const std::map<std::string, uint64_t>& appended) {
  KZ_RETURN_IF_ERROR(AppendJournal(records));
  for (const auto& [file, bytes] : appended) covered_[file] += bytes;
  return WriteWatermark();
}

}  // namespace kaizen::ingest
