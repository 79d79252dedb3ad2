// The ingest index: a state that starts from the index file and applies the rest in memory answers
// every question as the whole state held in memory does, and a damaged file is never trusted.
#include "ingest/ingest_index.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "base/test_files.h"
#include "ingest/ingest_state.h"

namespace kaizen::ingest {
namespace {

namespace fs = std::filesystem;

// A log's worth of records of every kind the state keys: repeated sessions and artifacts, works
// with and without predictions, and consent changes that arrive out of time order.
std::vector<CacheRecord> Records(int n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<CacheRecord> out;
  for (int i = 0; i < n; ++i) {
    CacheRecord r;
    const uint64_t id = static_cast<uint64_t>(i) + 1;
    std::memcpy(r.id, &id, 8);
    std::memcpy(r.id + 8, &seed, 4);
    switch (rng() % 4) {
      case 0:
        r.kind = static_cast<uint8_t>(model::EventKind::kFeedback);
        r.key_a = HashKey("modal-" + std::to_string(rng() % 50), "s" + std::to_string(rng() % 9));
        r.session = HashSession("s" + std::to_string(rng() % 9));
        break;
      case 1: {
        r.kind = static_cast<uint8_t>(model::EventKind::kWork);
        const std::string artifact = "art-" + std::to_string(rng() % 40);
        r.key_a = HashKey(artifact);
        r.key_b = HashKey(artifact, "v" + std::to_string(rng() % 5));
        if (rng() % 3 != 0) {
          r.prediction = static_cast<double>(rng() % 100) / 10;
          r.flags |= CacheRecord::kHasPrediction;
        }
        break;
      }
      case 2:
        r.kind = static_cast<uint8_t>(model::EventKind::kAdmin);
        r.flags |= CacheRecord::kConsent;
        if (rng() % 2 == 0) r.flags |= CacheRecord::kLearningOff;
        r.key_a = UserKey("user-" + std::to_string(rng() % 6));
        r.session = 1000 + rng() % 500;  // its time: often older than a change already applied
        break;
      default:
        r.kind = static_cast<uint8_t>(model::EventKind::kOutcome);
        break;
    }
    out.push_back(r);
  }
  return out;
}

class IngestIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = base::test_files::MakeTempDir("kaizen-ingest-index");
    ASSERT_FALSE(dir_.empty());
    path_ = dir_ + "/ingest.index";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::shared_ptr<const IngestIndex> WriteAndOpen(const IngestState& state, uint64_t records,
                                                  uint64_t generation = 7) {
    const IndexTables tables = state.Tables();
    uint64_t off = 0;
    for (const IndexEntry& e : tables[size_t(IndexTable::kConsent)]) off += e.b;
    std::ofstream(path_, std::ios::binary | std::ios::trunc)
        << IngestIndex::Serialize(generation, records, off, tables);
    return IngestIndex::Open(path_);
  }

  std::string dir_, path_;
};

void ExpectSameAnswers(const IngestState& whole, const IngestState& based,
                       const std::vector<CacheRecord>& records) {
  EXPECT_EQ(based.event_count(), whole.event_count());
  EXPECT_EQ(based.AnyLearningOff(), whole.AnyLearningOff());
  for (const CacheRecord& r : records) {
    model::Uuid id;
    std::memcpy(id.bytes.data(), r.id, 16);
    EXPECT_EQ(based.KindOf(id), whole.KindOf(id));
    EXPECT_EQ(based.HasModalSession(r.key_a), whole.HasModalSession(r.key_a));
    EXPECT_EQ(based.HasArtifact(r.key_a), whole.HasArtifact(r.key_a));
    EXPECT_EQ(based.HasArtifactVersion(r.key_b), whole.HasArtifactVersion(r.key_b));
    EXPECT_EQ(based.Prediction(r.key_a), whole.Prediction(r.key_a));
    EXPECT_EQ(based.Prediction(r.key_b), whole.Prediction(r.key_b));
    EXPECT_EQ(based.SessionReviews(r.session), whole.SessionReviews(r.session));
    EXPECT_EQ(based.LearningOn(r.key_a), whole.LearningOn(r.key_a));
  }
  model::Uuid unknown;
  unknown.bytes.fill(0xEE);
  EXPECT_FALSE(based.KindOf(unknown));
  EXPECT_FALSE(based.HasArtifact(HashKey("never-recorded")));
}

TEST_F(IngestIndexTest, AStateOverTheIndexAnswersAsTheWholeStateInMemory) {
  const std::vector<CacheRecord> records = Records(4000, 3);
  for (size_t split : {size_t{0}, size_t{1}, size_t{1500}, records.size()}) {
    IngestState whole, first;
    for (size_t i = 0; i < split; ++i) {
      whole.Apply(records[i]);
      first.Apply(records[i]);
    }
    IngestState based;
    auto index = WriteAndOpen(first, split);
    ASSERT_NE(index, nullptr);
    based.SetBase(index);
    for (size_t i = split; i < records.size(); ++i) {
      whole.Apply(records[i]);
      based.Apply(records[i]);
    }
    // Applying again changes nothing, over the base as in memory.
    for (const CacheRecord& r : records) based.Apply(r);
    SCOPED_TRACE(split);
    ExpectSameAnswers(whole, based, records);
    // And the merged tables are the whole state's.
    const IndexTables a = whole.Tables(), b = based.Tables();
    for (size_t t = 0; t < kIndexTables; ++t) {
      ASSERT_EQ(a[t].size(), b[t].size()) << t;
      EXPECT_EQ(std::memcmp(a[t].data(), b[t].data(), a[t].size() * sizeof(IndexEntry)), 0) << t;
    }
  }
}

TEST_F(IngestIndexTest, IndexesOverIndexesKeepCountingSessionsAndConsent) {
  // Three generations of index, each the last one merged with the next slice.
  const std::vector<CacheRecord> records = Records(3000, 11);
  IngestState whole, based;
  for (size_t start = 0; start < records.size(); start += 1000) {
    for (size_t i = start; i < start + 1000; ++i) {
      whole.Apply(records[i]);
      based.Apply(records[i]);
    }
    auto index = WriteAndOpen(based, start + 1000);
    ASSERT_NE(index, nullptr);
    based.Clear();
    based.SetBase(index);
    EXPECT_EQ(based.applied_since_base(), 0u);
  }
  ExpectSameAnswers(whole, based, records);
}

TEST_F(IngestIndexTest, AFileThatDisagreesWithItsHeaderIsNotOpened) {
  IngestState state;
  for (const CacheRecord& r : Records(200, 5)) state.Apply(r);
  ASSERT_NE(WriteAndOpen(state, 200), nullptr);
  const std::string whole = base::test_files::ReadAll(path_);

  EXPECT_EQ(IngestIndex::Open(dir_ + "/missing.index"), nullptr);
  for (size_t cut : {size_t{0}, size_t{10}, size_t{87}, whole.size() - 1}) {
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << whole.substr(0, cut);
    EXPECT_EQ(IngestIndex::Open(path_), nullptr) << "cut at " << cut;
  }
  std::ofstream(path_, std::ios::binary | std::ios::trunc) << whole << "extra";
  EXPECT_EQ(IngestIndex::Open(path_), nullptr) << "bytes past the tables";
  std::string other_version = whole;
  other_version[11] = '9';  // "kaizen-ix-v9"
  std::ofstream(path_, std::ios::binary | std::ios::trunc) << other_version;
  EXPECT_EQ(IngestIndex::Open(path_), nullptr) << "another format version";
  std::string huge_count = whole;
  const uint64_t count = ~uint64_t{0} / 16;
  std::memcpy(huge_count.data() + 40, &count, 8);  // the first table's count
  std::ofstream(path_, std::ios::binary | std::ios::trunc) << huge_count;
  EXPECT_EQ(IngestIndex::Open(path_), nullptr) << "a count whose size overflows";
}

}  // namespace
}  // namespace kaizen::ingest
