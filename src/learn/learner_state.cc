// Learner::SaveState / LoadState: the header of learner_state.h around cereal's binary archive of
// every tracker's folded state.
#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <exception>
#include <istream>
#include <sstream>
#include <streambuf>

#include "learn/learner.h"
#include "learn/state_archive.h"

namespace kaizen::learn {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the learner state is written little-endian, in host order");

uint64_t LoadU64(std::string_view bytes, size_t at) {
  uint64_t v;
  std::memcpy(&v, bytes.data() + at, 8);
  return v;
}

uint32_t LoadU32(std::string_view bytes, size_t at) {
  uint32_t v;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

void StoreU64(std::string* bytes, size_t at, uint64_t v) { std::memcpy(bytes->data() + at, &v, 8); }

// Reads a string_view in place: the payload is not copied.
class ViewBuffer : public std::streambuf {
 public:
  explicit ViewBuffer(std::string_view bytes) {
    char* p = const_cast<char*>(bytes.data());  // never written: a get area only
    setg(p, p, p + bytes.size());
  }
  size_t left() const { return static_cast<size_t>(egptr() - gptr()); }
};

}  // namespace

namespace state_format {

uint64_t Checksum(std::string_view head, std::string_view payload) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (std::string_view part : {head, payload}) {
    size_t i = 0;
    for (; i + 8 <= part.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, part.data() + i, 8);
      h = (h ^ w) * 0x100000001b3ull;
      h ^= h >> 29;
    }
    uint64_t w = part.size() - i;  // the tail, and its length, as one more word
    for (; i < part.size(); ++i) w = (w << 8) | static_cast<unsigned char>(part[i]);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  return h;
}

}  // namespace state_format

template <class Archive>
void Learner::CommitWork::serialize(Archive& ar) {
  ar(version, artifact_id, task_type, confidence, auto_approved);
}

// The registry first: nothing else points into it (the review queue keeps its own copies).
template <class Archive>
void Learner::serialize(Archive& ar) {
  ar(registry_, events_, newest_ms_, by_kind_);
  ar(approval_, gates_, calibration_, speed_, autonomy_, preferences_, communication_, outcomes_,
     errors_, loops_, evidence_, rules_, score_bands_, bias_, kpis_, corrections_, profiles_,
     recent_, prompts_, queue_, signals_, state::SortedMap(commit_work_), history_, agreement_,
     questions_);
}

uint64_t Learner::PartsBits() const {
  static_assert(kPartCount <= 64);
  uint64_t bits = 0;
  for (size_t p = 0; p < kPartCount; ++p) {
    if (parts_.Has(static_cast<Part>(p))) bits |= uint64_t{1} << p;
  }
  return bits;
}

uint64_t Learner::ConfigFingerprint() const {
  LearnConfig config = config_;
  std::string all;
  for (const ConfigField& f : config.Fields()) {
    all.append(f.name);
    all.push_back('=');
    const auto bits = std::bit_cast<uint64_t>(*f.value);
    all.append(reinterpret_cast<const char*>(&bits), sizeof bits);
  }
  return state_format::Checksum(all, {});
}

std::string Learner::SaveState() const {
  using namespace state_format;
  std::ostringstream out;
  out.write(kMagic.data(), kMagic.size());
  out.write(reinterpret_cast<const char*>(&kLearnerStateVersion), 4);
  out << std::string(kHeaderBytes - kPartsAt, '\0');
  {
    state::OutArchive ar(out);
    ar(*this);
  }
  std::string bytes = std::move(out).str();
  StoreU64(&bytes, kPartsAt, PartsBits());
  StoreU64(&bytes, kConfigAt, ConfigFingerprint());
  StoreU64(&bytes, kPayloadSizeAt, bytes.size() - kHeaderBytes);
  const std::string_view view(bytes);
  StoreU64(&bytes, kChecksumAt, Checksum(view.substr(0, kChecksumAt), view.substr(kHeaderBytes)));
  return bytes;
}

Status Learner::LoadState(std::string_view bytes) {
  using namespace state_format;
  if (events_ != 0) {
    return FailedPrecondition(fmt::format(
        "learner state: loaded into a learner that folded {} events; load into a new one",
        events_));
  }
  if (bytes.size() < kHeaderBytes || bytes.substr(0, kMagic.size()) != kMagic) {
    return DataLoss(fmt::format(
        "learner state: {} bytes that do not start with a learner state header ({:?} and {} "
        "bytes); save it again",
        bytes.size(), std::string(kMagic), kHeaderBytes));
  }
  if (const uint32_t version = LoadU32(bytes, kVersionAt); version != kLearnerStateVersion) {
    return FailedPrecondition(fmt::format(
        "learner state: format version {}, this kaizen reads version {}; fold the log instead",
        version, kLearnerStateVersion));
  }
  const std::string_view payload = bytes.substr(kHeaderBytes);
  if (const uint64_t size = LoadU64(bytes, kPayloadSizeAt); size != payload.size()) {
    return DataLoss(fmt::format(
        "learner state: the header says {} payload bytes, {} are there (truncated or torn); fold "
        "the log instead",
        size, payload.size()));
  }
  if (LoadU64(bytes, kChecksumAt) != Checksum(bytes.substr(0, kChecksumAt), payload)) {
    return DataLoss("learner state: checksum mismatch (damaged bytes); fold the log instead");
  }
  if (const uint64_t parts = LoadU64(bytes, kPartsAt); parts != PartsBits()) {
    return FailedPrecondition(fmt::format(
        "learner state: saved by a learner of parts {:#x}, this one folds {:#x}; fold the log "
        "instead",
        parts, PartsBits()));
  }
  if (LoadU64(bytes, kConfigAt) != ConfigFingerprint()) {
    return FailedPrecondition(
        "learner state: saved with another learning config; fold the log instead");
  }
  ViewBuffer buffer(payload);
  std::istream in(&buffer);
  try {
    state::InArchive ar(in);
    ar(*this);
  } catch (const std::exception& e) {
    // cereal throws on a short read; a damaged size may throw bad_alloc or length_error.
    return DataLoss(
        fmt::format("learner state: damaged payload ({}); fold the log instead", e.what()));
  }
  if (buffer.left() != 0) {
    return DataLoss(
        fmt::format("learner state: {} bytes left after the state; fold the log "
                    "instead",
                    buffer.left()));
  }
  return Status::Ok();
}

}  // namespace kaizen::learn
