// PgLog against a real PostgreSQL server: the one named by $KAIZEN_TEST_PG (`make test` starts a
// throwaway cluster and sets it: tests/pg_cluster.py). Each test works in a database of its own.
#include "store/pg/pg_log.h"

#include "store/pg/pg_test_database.h"

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace kaizen::store {
namespace {

// The event line of a given id and kind, as a stored line looks.
std::string Line(const std::string& id, const std::string& kind = "outcome") {
  return "{\"kind\":\"" + kind + "\",\"id\":\"" + id +
         "\",\"timestamp\":\"2026-03-02T10:00:00.000Z\",\"note\":\"a \\\"quoted\\\" \\\\ word\"}";
}

std::string Id(int n) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "019c0000-0000-7000-8000-%012d", n);
  return buf;
}

class PgLogTest : public PgTestDatabase {
 protected:
  // Every row since `frontier`, and the new frontier.
  std::vector<std::string> IdsSince(PgLog& log, std::string* frontier) {
    std::vector<std::string> ids;
    auto since = log.ReadSince(*frontier, 2, [&](const std::vector<StoredRow>& rows) {
      for (const StoredRow& r : rows) {
        // A read of the whole log names no ids: each is in its body.
        if (*frontier == "0") {
          EXPECT_TRUE(r.id.empty() && r.xid.empty()) << r.id;
          const size_t at = r.body.find("\"id\":\"") + 6;
          ids.emplace_back(r.body.substr(at, r.body.find('"', at) - at));
        } else {
          ids.emplace_back(r.id);
        }
      }
      return Status::Ok();
    });
    EXPECT_TRUE(since.ok()) << since.status().message();
    if (since.ok()) *frontier = since->frontier;
    return ids;
  }
};

TEST_F(PgLogTest, StoredLinesComeBackByteForByteInBatchOrder) {
  auto log = Open();
  ASSERT_TRUE(log);
  std::map<std::string, std::string> batch;
  for (int i = 5; i >= 1; --i) batch["2026-03-02"] += Line(Id(i)) + "\n";
  batch["2026-04-01"] = Line(Id(9), "feedback") + "\n";
  ASSERT_TRUE(log->Insert(batch).ok());
  struct Row {
    std::string day, body;
  };
  std::vector<Row> all;
  ASSERT_TRUE(log->ReadAll(3,
                           [&](const std::vector<StoredRow>& rows) {
                             for (const StoredRow& r : rows)
                               all.push_back({std::string(r.day), std::string(r.body)});
                             return Status::Ok();
                           })
                  .ok());
  ASSERT_EQ(all.size(), 6u);
  std::string day1;
  for (const Row& r : all) {
    if (r.day == "2026-03-02") day1 += r.body + "\n";
  }
  EXPECT_EQ(day1, batch["2026-03-02"]);  // order within the day kept, escapes untouched
  EXPECT_EQ(all.back().body, Line(Id(9), "feedback"));
  EXPECT_EQ(all.back().day, "2026-04-01");
}

TEST_F(PgLogTest, TheProjectColumnNamesTheProjectWhereverTheKindKeepsIt) {
  auto log = Open();
  ASSERT_TRUE(log);
  auto event = [](int n, const std::string& kind, const std::string& rest) {
    return "{\"kind\":\"" + kind + "\",\"id\":\"" + Id(n) +
           "\",\"timestamp\":\"2026-03-02T10:00:00.000Z\"," + rest + "}\n";
  };
  std::map<std::string, std::string> batch;
  batch["2026-03-02"] = event(1, "feedback", "\"repository\":\"acme/webapp\"") +
                        event(2, "prompt", "\"project\":\"/home/ana/src/api/\"") +
                        event(3, "correction", "\"context\":{\"project\":\"jSeeker\"}") +
                        event(4, "reward", "\"context\":{\"repo\":\"git@github.com:a/docs.git\"}") +
                        event(5, "outcome", "\"note\":\"none\"");
  ASSERT_TRUE(log->Insert(batch).ok());
  PGconn* c = PQconnectdb(conninfo_.c_str());
  ASSERT_EQ(PQstatus(c), CONNECTION_OK) << PQerrorMessage(c);
  PGresult* r = PQexec(c, "SELECT coalesce(project, '-') FROM kaizen_events ORDER BY id");
  ASSERT_EQ(PQresultStatus(r), PGRES_TUPLES_OK) << PQerrorMessage(c);
  std::vector<std::string> projects;
  for (int i = 0; i < PQntuples(r); ++i) projects.emplace_back(PQgetvalue(r, i, 0));
  PQclear(r);
  PQfinish(c);
  EXPECT_EQ(projects, (std::vector<std::string>{"webapp", "api", "jSeeker", "docs", "-"}));
}

TEST_F(PgLogTest, ABatchHoldingAStoredIdIsRefusedWholeAndNamesTheId) {
  auto log = Open();
  ASSERT_TRUE(log);
  ASSERT_TRUE(log->Insert({{"2026-03-02", Line(Id(1)) + "\n"}}).ok());
  Status again = log->Insert({{"2026-03-02", Line(Id(2)) + "\n" + Line(Id(1)) + "\n"}});
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists);
  EXPECT_NE(again.message().find(Id(1)), std::string::npos) << again.message();
  auto count = log->Count();
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, 1u);  // Id(2) was not stored either
  auto fresh = log->InsertNew({{"2026-03-02", Line(Id(2)) + "\n" + Line(Id(1)) + "\n"}});
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ(*fresh, 1u);  // migrate's insert skips what is there
}

// The property the working copy depends on: a transaction that began (and took its id) before
// another one but commits after it is not skipped by a reader that read in between.
TEST_F(PgLogTest, ARowCommittedAfterALaterOneIsStillReadOnce) {
  auto log = Open();
  ASSERT_TRUE(log);
  std::string frontier = "0";
  ASSERT_TRUE(log->Insert({{"2026-03-02", Line(Id(1)) + "\n"}}).ok());
  EXPECT_EQ(IdsSince(*log, &frontier), std::vector<std::string>{Id(1)});

  PGconn* slow = PQconnectdb(conninfo_.c_str());
  ASSERT_EQ(PQstatus(slow), CONNECTION_OK);
  Exec(slow, "BEGIN");
  Exec(slow,
       "INSERT INTO kaizen_events (id, day, kind, body) VALUES ('" + Id(2) +
           "', '2026-03-02', 'outcome', '" + Line(Id(2)) + "')");       // takes its xid now
  ASSERT_TRUE(log->Insert({{"2026-03-02", Line(Id(3)) + "\n"}}).ok());  // a later xid, committed

  // Id(1) may come again: the frontier is the cluster's oldest open transaction, and another
  // test of the suite (ctest -j, same server) may have held it below Id(1) at the first read.
  std::vector<std::string> seen = IdsSince(*log, &frontier);
  EXPECT_NE(std::find(seen.begin(), seen.end(), Id(3)), seen.end());
  EXPECT_EQ(std::find(seen.begin(), seen.end(), Id(2)), seen.end());  // the open one is invisible
  Exec(slow, "COMMIT");
  PQfinish(slow);
  seen = IdsSince(*log, &frontier);
  // Id(2) now, and Id(3) again (above the frontier: the re-read window the mirror skips by id).
  EXPECT_NE(std::find(seen.begin(), seen.end(), Id(2)), seen.end());
  // The frontier moves past it once no transaction of the cluster older than it is open; the
  // other tests of the suite run beside this one on the same server (ctest -j), and one of their
  // transactions may still hold the snapshot's xmin back for a moment: read until it moves.
  int64_t again = 1;
  for (int tries = 0; tries < 2400 && again > 0; ++tries) {  // a minute at most, on a busy machine
    seen = IdsSince(*log, &frontier);
    again = std::count(seen.begin(), seen.end(), Id(2));
    if (again > 0) std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  EXPECT_EQ(again, 0);  // the frontier moved past it
}

TEST_F(PgLogTest, RewritingADayDeletesAndUpdatesOnlyItsOwnLinesAndBumpsTheEpoch) {
  auto log = Open();
  ASSERT_TRUE(log);
  const std::string old_text = Line(Id(1)) + "\n" + Line(Id(2)) + "\n";
  ASSERT_TRUE(log->Insert({{"2026-03-02", old_text}}).ok());
  // Another writer's line of the same day, stored after the rewriter read the day.
  ASSERT_TRUE(log->Insert({{"2026-03-02", Line(Id(3)) + "\n"}}).ok());
  const std::string changed = "{\"kind\":\"outcome\",\"id\":\"" + Id(2) + "\",\"stripped\":true}";
  auto epoch = log->RewriteDay("2026-03-02", old_text, changed + "\n");
  ASSERT_TRUE(epoch.ok()) << epoch.status().message();
  EXPECT_EQ(*epoch, 1u);
  std::map<std::string, std::string> bodies;
  ASSERT_TRUE(log->ReadAll(10,
                           [&](const std::vector<StoredRow>& rows) {
                             for (const StoredRow& r : rows) bodies[std::string(r.id)] = r.body;
                             return Status::Ok();
                           })
                  .ok());
  EXPECT_EQ(bodies.count(Id(1)), 0u);
  EXPECT_EQ(bodies[Id(2)], changed);
  EXPECT_EQ(bodies[Id(3)], Line(Id(3)));  // left alone
  // The deleted id may be stored again (its claim went with it).
  EXPECT_TRUE(log->Insert({{"2026-03-02", Line(Id(1)) + "\n"}}).ok());
}

TEST_F(PgLogTest, ACommittedBatchNotifiesAListener) {
  auto listener = Open();
  auto writer = Open();
  ASSERT_TRUE(listener && writer);
  ASSERT_TRUE(listener->Listen().ok());
  auto none = listener->WaitNotification(50);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(*none);
  ASSERT_TRUE(writer->Insert({{"2026-03-02", Line(Id(1)) + "\n"}}).ok());
  auto got = listener->WaitNotification(5000);
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(*got);
}

TEST_F(PgLogTest, AnUnreachableServerIsUnavailableAndNamesTheReason) {
  auto opened = PgLog::Open("postgresql://kaizen@127.0.0.1:1/none?connect_timeout=2");
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(opened.status().message().find("cannot connect to the store"), std::string::npos);
}

}  // namespace
}  // namespace kaizen::store
