// The statements of the PostgreSQL store (store/pg/pg_log.h), shared by its files: results freed
// on scope exit, errors turned into statuses that say whether a retry may help.
#pragma once

#include <fmt/format.h>
#include <libpq-fe.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::store::pg {

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, ResultDeleter>;

inline std::string Trimmed(const char* message) {
  std::string m = message ? message : "";
  while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
  return m;
}

// A text[] literal, built element by element: {"a","b\"c",NULL}.
class ArrayLiteral {
 public:
  void Add(std::string_view v) {
    out_.push_back(out_.empty() ? '{' : ',');
    out_.push_back('"');
    for (char ch : v) {
      if (ch == '"' || ch == '\\') out_.push_back('\\');
      out_.push_back(ch);
    }
    out_.push_back('"');
  }
  void AddNull() {
    out_.push_back(out_.empty() ? '{' : ',');
    out_ += "NULL";
  }
  // The literal; no Add after it. May be called again.
  const std::string& Done() {
    if (!done_) {
      if (out_.empty()) out_.push_back('{');
      out_.push_back('}');
      done_ = true;
    }
    return out_;
  }

 private:
  std::string out_;
  bool done_ = false;
};

// The status of a statement that did not return what was expected.
inline Status Failed(pg_conn* conn, PGresult* r, const std::string& name, std::string_view what) {
  const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
  std::string m = Trimmed(r ? PQresultErrorMessage(r) : PQerrorMessage(conn));
  if (m.empty()) m = Trimmed(PQerrorMessage(conn));
  // Class 08 (connection exception), 57P0x (the server is shutting down or restarting), or the
  // connection itself gone: the caller may retry.
  std::string_view sqlstate = state ? state : "";
  if (PQstatus(conn) != CONNECTION_OK || sqlstate.starts_with("08") ||
      sqlstate.starts_with("57P")) {
    return Unavailable(fmt::format("the store {} is unreachable ({}): {}", name, what, m));
  }
  if (sqlstate == "23505") return AlreadyExists(m);
  return IoError(fmt::format("the store {} refused {}: {}{}", name, what, m,
                             sqlstate.empty() ? "" : fmt::format(" (SQLSTATE {})", sqlstate)));
}

// Runs `sql` (no parameters), expecting it to succeed.
inline Result<PgResult> Exec(pg_conn* conn, const std::string& name, const char* sql,
                             std::string_view what) {
  PgResult r(PQexec(conn, sql));
  const ExecStatusType s = r ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
  if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) return Failed(conn, r.get(), name, what);
  return r;
}

inline Result<PgResult> ExecParams(pg_conn* conn, const std::string& name, const char* sql,
                                   const std::vector<const char*>& params, std::string_view what) {
  PgResult r(PQexecParams(conn, sql, static_cast<int>(params.size()), nullptr, params.data(),
                          nullptr, nullptr, 0));
  const ExecStatusType s = r ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
  if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) return Failed(conn, r.get(), name, what);
  return r;
}

// Rolls back whatever transaction is open; errors are moot (the connection may be gone).
inline void Rollback(pg_conn* conn) {
  if (PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) != PQTRANS_IDLE) {
    PQclear(PQexec(conn, "ROLLBACK"));
  }
}

}  // namespace kaizen::store::pg
