// A database of its own per test on the real PostgreSQL server $KAIZEN_TEST_PG names (`make
// test` starts a throwaway cluster and sets it: tests/pg_cluster.py); the test is skipped when
// it is not set.
#pragma once

#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <string>

#include "store/pg/pg_log.h"

namespace kaizen::store {

class PgTestDatabase : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* server = std::getenv("KAIZEN_TEST_PG");
    if (server == nullptr || *server == '\0') {
      GTEST_SKIP() << "KAIZEN_TEST_PG is not set (make test sets it: tests/pg_cluster.py)";
    }
    admin_ = PQconnectdb(server);
    ASSERT_EQ(PQstatus(admin_), CONNECTION_OK) << PQerrorMessage(admin_);
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    db_ = "kz_unit_" + std::string(test->name());
    for (char& ch : db_) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    db_.resize(std::min<size_t>(db_.size(), 63));  // PostgreSQL's identifier length
    Exec(admin_, "DROP DATABASE IF EXISTS " + db_);
    Exec(admin_, "CREATE DATABASE " + db_);
    // The same server, this test's database (a later dbname wins in libpq's conninfo).
    conninfo_ = std::string(server);
    if (conninfo_.find("://") != std::string::npos) {
      conninfo_ += (conninfo_.find('?') == std::string::npos ? "?" : "&") + ("dbname=" + db_);
    } else {
      conninfo_ += " dbname=" + db_;
    }
  }
  void TearDown() override {
    if (admin_ != nullptr) PQfinish(admin_);
  }
  static void Exec(PGconn* c, const std::string& sql) {
    PGresult* r = PQexec(c, sql.c_str());
    const ExecStatusType s = PQresultStatus(r);
    EXPECT_TRUE(s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK) << sql << ": " << PQerrorMessage(c);
    PQclear(r);
  }
  std::unique_ptr<PgLog> Open() {
    auto opened = PgLog::Open(conninfo_);
    EXPECT_TRUE(opened.ok()) << opened.status().message();
    return opened.ok() ? std::move(*opened) : nullptr;
  }

  PGconn* admin_ = nullptr;
  std::string db_, conninfo_;
};

}  // namespace kaizen::store
