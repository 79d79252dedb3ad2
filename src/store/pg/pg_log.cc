#include "store/pg/pg_log.h"

#include <fmt/format.h>
#include <libpq-fe.h>
#include <poll.h>
#include <simdjson.h>

#include <algorithm>
#include <set>
#include <type_traits>

#include "model/project_key.h"
#include "store/log_format.h"
#include "store/pg/pg_statements.h"

namespace kaizen::store {
namespace {

using pg::ArrayLiteral;
using pg::Exec;
using pg::ExecParams;
using pg::Failed;
using pg::PgResult;
using pg::Rollback;
using pg::Trimmed;

// The schema, made once per database under an advisory lock (several servers may start at once).
// `day` is the raw file day the line belongs to, kept so a copy back to files is byte for byte;
// `ts` is the event's own timestamp.
constexpr const char* kSchema = R"sql(
SELECT pg_advisory_xact_lock(7318252031);
CREATE TABLE IF NOT EXISTS kaizen_meta (key text PRIMARY KEY, value text NOT NULL);
INSERT INTO kaizen_meta VALUES ('schema_version', '1'), ('store_id', gen_random_uuid()::text),
  ('epoch', '0') ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS kaizen_event_ids (id text PRIMARY KEY);
CREATE TABLE IF NOT EXISTS kaizen_events (
  seq bigint GENERATED ALWAYS AS IDENTITY,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  id text NOT NULL,
  day date NOT NULL,
  ts timestamptz,
  kind text NOT NULL,
  reviewer text,
  project text,
  body text NOT NULL
) PARTITION BY RANGE (day);
CREATE INDEX IF NOT EXISTS kaizen_events_xid ON kaizen_events (xid, seq);
CREATE INDEX IF NOT EXISTS kaizen_events_seq ON kaizen_events (seq);
CREATE INDEX IF NOT EXISTS kaizen_events_day ON kaizen_events (day, xid, seq);
CREATE INDEX IF NOT EXISTS kaizen_events_id ON kaizen_events (id);
CREATE TABLE IF NOT EXISTS kaizen_tokens (name text PRIMARY KEY, role text NOT NULL,
  hash text NOT NULL UNIQUE, created text NOT NULL, revoked text NOT NULL DEFAULT '');
)sql";

// The columns a line is stored with, read from the stored event.
struct Columns {
  std::string id, kind, ts, reviewer, project;
  bool has_ts = false, has_reviewer = false, has_project = false;
};

Status ColumnsOf(simdjson::dom::parser& parser, std::string_view line, Columns* c) {
  simdjson::dom::element e;
  if (parser.parse(line.data(), line.size(), true).get(e) != simdjson::SUCCESS || !e.is_object()) {
    return InvalidArgument(fmt::format("a stored line is not a JSON object: {:.80}", line));
  }
  auto text = [&](const char* key, std::string* out) {
    std::string_view v;
    if (e[key].get_string().get(v) != simdjson::SUCCESS) return false;
    out->assign(v);
    return true;
  };
  if (!text("id", &c->id) || !text("kind", &c->kind)) {
    return InvalidArgument(fmt::format("a stored line has no string id and kind: {:.80}", line));
  }
  c->has_ts = text("timestamp", &c->ts);
  c->has_reviewer = text("reviewerId", &c->reviewer);
  // The project, as learning names it (model::ProjectKey), wherever the kind keeps it.
  std::string_view project;
  if (e["repository"].get_string().get(project) != simdjson::SUCCESS &&
      e["project"].get_string().get(project) != simdjson::SUCCESS &&
      e.at_pointer("/context/project").get_string().get(project) != simdjson::SUCCESS &&
      e.at_pointer("/context/repo").get_string().get(project) != simdjson::SUCCESS) {
    project = {};
  }
  project = model::ProjectKey(project);
  c->has_project = !project.empty();
  if (c->has_project) c->project.assign(project);
  return Status::Ok();
}

// The columns of a batch of lines as the array parameters of an INSERT ... SELECT unnest($1..$7).
struct RowArrays {
  ArrayLiteral ids, days, tss, kinds, reviewers, projects, bodies;
  void Add(std::string_view day, const Columns& c, std::string_view line) {
    ids.Add(c.id);
    days.Add(day);
    c.has_ts ? tss.Add(c.ts) : tss.AddNull();
    kinds.Add(c.kind);
    c.has_reviewer ? reviewers.Add(c.reviewer) : reviewers.AddNull();
    c.has_project ? projects.Add(c.project) : projects.AddNull();
    bodies.Add(line);
  }
  std::vector<const char*> Params() {
    return {ids.Done().c_str(),   days.Done().c_str(),      tss.Done().c_str(),
            kinds.Done().c_str(), reviewers.Done().c_str(), projects.Done().c_str(),
            bodies.Done().c_str()};
  }
};

template <typename Fn>
void ForEachLineOf(std::string_view text, Fn&& fn) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) fn(text.substr(start, end - start));
    start = end + 1;
  }
}

// "2025-11" -> "2025-12".
std::string NextMonth(std::string_view month) {
  int y = std::stoi(std::string(month.substr(0, 4)));
  int m = std::stoi(std::string(month.substr(5, 2)));
  if (++m == 13) {
    m = 1;
    ++y;
  }
  return fmt::format("{:04}-{:02}", y, m);
}

}  // namespace

PgLog::PgLog(pg_conn* conn) : conn_(conn), writer_id_(RandomHex(8)) {
  const char* host = PQhost(conn_);
  std::string h = host ? host : "";
  if (h.starts_with('/')) h = "[" + h + "]";  // a socket directory
  name_ = fmt::format("postgresql://{}@{}:{}/{}", PQuser(conn_), h, PQport(conn_), PQdb(conn_));
}

PgLog::~PgLog() { PQfinish(conn_); }

Result<std::unique_ptr<PgLog>> PgLog::Open(const std::string& conninfo) {
  pg_conn* conn = PQconnectdb(conninfo.c_str());
  if (conn == nullptr) return ResourceExhausted("out of memory connecting to the store");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string m = Trimmed(PQerrorMessage(conn));
    PQfinish(conn);
    return Unavailable(fmt::format("cannot connect to the store: {}", m));
  }
  std::unique_ptr<PgLog> log(new PgLog(conn));
  PQsetClientEncoding(conn, "UTF8");
  // The server's notices ("relation already exists, skipping") are not the user's business.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  KZ_RETURN_IF_ERROR(log->EnsureSchema());
  return log;
}

// A lost connection (the server restarted, a failover) is opened again before a statement; a
// statement that fails on a dropped connection returns Unavailable and the next call reconnects.
Status PgLog::Connected() {
  if (PQstatus(conn_) == CONNECTION_OK) return Status::Ok();
  PQreset(conn_);
  if (PQstatus(conn_) != CONNECTION_OK) {
    return Unavailable(
        fmt::format("the store {} is unreachable: {}", name_, Trimmed(PQerrorMessage(conn_))));
  }
  PQsetClientEncoding(conn_, "UTF8");
  months_.clear();
  if (listening_) {
    listening_ = false;
    return Listen();
  }
  return Status::Ok();
}

Status PgLog::EnsureSchema() {
  KZ_RETURN_IF_ERROR(Exec(conn_, name_, "BEGIN", "a transaction").status());
  auto made = Exec(conn_, name_, kSchema, "creating kaizen's tables");
  if (!made.ok()) {
    Rollback(conn_);
    return made.status();
  }
  auto id = Exec(conn_, name_, "SELECT value FROM kaizen_meta WHERE key = 'store_id'",
                 "reading the store id");
  if (!id.ok()) {
    Rollback(conn_);
    return id.status();
  }
  store_id_ = PQgetvalue(id->get(), 0, 0);
  return Exec(conn_, name_, "COMMIT", "creating kaizen's tables").status();
}

Status PgLog::EnsurePartitions(const std::map<std::string, std::string>& lines_by_day) {
  std::set<std::string> wanted;
  for (const auto& [day, lines] : lines_by_day) {
    if (day.size() != 10) return InvalidArgument(fmt::format("\"{}\" is not a day", day));
    std::string month = day.substr(0, 7);
    if (!std::binary_search(months_.begin(), months_.end(), month)) wanted.insert(month);
  }
  if (wanted.empty()) return Status::Ok();
  // Inside the caller's transaction: two servers making the same partition wait on the lock
  // rather than fail on "already exists".
  KZ_RETURN_IF_ERROR(
      Exec(conn_, name_, "SELECT pg_advisory_xact_lock(7318252032)", "locking the partitions")
          .status());
  for (const std::string& month : wanted) {
    std::string table = "kaizen_events_" + month.substr(0, 4) + month.substr(5, 2);
    std::string sql = fmt::format(
        "CREATE TABLE IF NOT EXISTS {} PARTITION OF kaizen_events FOR VALUES FROM ('{}-01') TO "
        "('{}-01')",
        table, month, NextMonth(month));
    KZ_RETURN_IF_ERROR(Exec(conn_, name_, sql.c_str(), "making a month's partition").status());
  }
  return Status::Ok();
}

Result<uint64_t> PgLog::InsertBatch(const std::map<std::string, std::string>& lines_by_day,
                                    bool skip_stored) {
  RowArrays rows;
  simdjson::dom::parser parser;
  Columns c;
  uint64_t n = 0;
  for (const auto& [day_key, text] : lines_by_day) {
    const std::string& day = day_key;  // a lambda may not capture a structured binding
    Status bad;
    ForEachLineOf(text, [&](std::string_view line) {
      if (!bad.ok()) return;
      if (bad = ColumnsOf(parser, line, &c); !bad.ok()) return;
      rows.Add(day, c, line);
      ++n;
    });
    KZ_RETURN_IF_ERROR(bad);
  }
  if (n == 0) return uint64_t{0};
  KZ_RETURN_IF_ERROR(Connected());
  KZ_RETURN_IF_ERROR(Exec(conn_, name_, "BEGIN", "a transaction").status());
  auto fail = [&](Status s) {
    Rollback(conn_);
    return s;
  };
  if (Status s = EnsurePartitions(lines_by_day); !s.ok()) return fail(s);
  // One statement: the ids claimed first (unique across partitions), then the rows of the claimed
  // ids only, and the notification, sent when the transaction commits.
  const char* sql = R"sql(
WITH claimed AS (
  INSERT INTO kaizen_event_ids (id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING RETURNING id
), stored AS (
  INSERT INTO kaizen_events (id, day, ts, kind, reviewer, project, body)
  SELECT r.id, r.day, r.ts, r.kind, r.reviewer, r.project, r.body
  FROM unnest($1::text[], $2::date[], $3::timestamptz[], $4::text[], $5::text[], $6::text[],
              $7::text[]) WITH ORDINALITY AS r(id, day, ts, kind, reviewer, project, body, n)
  JOIN claimed USING (id)
  ORDER BY r.n  -- seq in the batch's order: a copy back to files is byte for byte
  RETURNING 1
)
SELECT (SELECT count(*) FROM stored), pg_notify('kaizen_events', $8)
)sql";
  std::vector<const char*> params = rows.Params();
  params.push_back(writer_id_.c_str());  // who committed: a server skips its own batches
  auto r = ExecParams(conn_, name_, sql, params, "storing events");
  if (!r.ok()) return fail(r.status());
  const uint64_t stored = std::stoull(PQgetvalue(r->get(), 0, 0));
  if (stored != n && !skip_stored) {
    Rollback(conn_);
    // Which id: asked after the rollback, of what is committed.
    auto dup = ExecParams(conn_, name_,
                          "SELECT id FROM kaizen_event_ids WHERE id = ANY($1::text[]) LIMIT 1",
                          {rows.ids.Done().c_str()}, "finding a stored id");
    std::string id = dup.ok() && PQntuples(dup->get()) > 0 ? PQgetvalue(dup->get(), 0, 0) : "?";
    return AlreadyExists(fmt::format(
        "\"{}\" is already in the store {} (a replayed batch, or another writer stored it "
        "meanwhile); nothing of this batch was stored",
        id, name_));
  }
  if (auto done = Exec(conn_, name_, "COMMIT", "committing events"); !done.ok()) {
    return fail(done.status());
  }
  for (const auto& [day, lines] : lines_by_day) {
    std::string month = day.substr(0, 7);
    auto at = std::lower_bound(months_.begin(), months_.end(), month);
    if (at == months_.end() || *at != month) months_.insert(at, month);
  }
  return stored;
}

Status PgLog::Insert(const std::map<std::string, std::string>& lines_by_day) {
  return InsertBatch(lines_by_day, /*skip_stored=*/false).status();
}

Result<uint64_t> PgLog::InsertNew(const std::map<std::string, std::string>& lines_by_day) {
  return InsertBatch(lines_by_day, /*skip_stored=*/true);
}

namespace {

// Reads a big-endian integer.
template <typename T>
T BigEndian(const char* p) {
  using U = std::make_unsigned_t<T>;
  U v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) {
    v = static_cast<U>((v << 8) | static_cast<unsigned char>(p[i]));
  }
  return static_cast<T>(v);
}

}  // namespace

bool ParseCopyTuple(const char* p, const char* end, StoredRow* row) {
  if (end - p < 2 || BigEndian<int16_t>(p) != 5) return false;
  p += 2;
  std::string_view fields[5];
  for (std::string_view& f : fields) {
    if (end - p < 4) return false;
    const int32_t n = BigEndian<int32_t>(p);
    p += 4;
    if (n < 0 || end - p < n) return false;
    f = std::string_view(p, static_cast<size_t>(n));
    p += n;
  }
  if (fields[1].size() != 8) return false;
  row->xid = fields[0];
  row->seq = BigEndian<int64_t>(fields[1].data());
  row->id = fields[2];
  row->day = fields[3];
  row->body = fields[4];
  return p == end;  // one row a chunk: nothing after its fields
}

Result<PgLog::Since> PgLog::ReadSince(const std::string& frontier, size_t page_rows,
                                      const Page& fn) {
  if (frontier.empty() || frontier.find_first_not_of("0123456789") != std::string::npos) {
    return InvalidArgument(fmt::format("\"{}\" is not a transaction id", frontier));
  }
  KZ_RETURN_IF_ERROR(Connected());
  KZ_RETURN_IF_ERROR(
      Exec(conn_, name_, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "a transaction")
          .status());
  auto fail = [&](Status s) {
    Rollback(conn_);
    return s;
  };
  // The first statement takes the snapshot the rows are read under.
  auto head = Exec(conn_, name_,
                   "SELECT pg_snapshot_xmin(pg_current_snapshot())::text, value FROM kaizen_meta "
                   "WHERE key = 'epoch'",
                   "reading the log's frontier");
  if (!head.ok()) return fail(head.status());
  Since since;
  since.frontier = PQgetvalue(head->get(), 0, 0);
  since.epoch = std::stoull(PQgetvalue(head->get(), 0, 1));
  // A whole copy in day order, each day's rows in the order they were written (the index on
  // (day, xid, seq) streams them partition by partition, unsorted); what is new since a frontier
  // in the order it was written (through the index on (xid, seq): a few rows). The columns are
  // ordered by as stored (e.), not as the ::text the select list names the same.
  const std::string select =
      frontier == "0"
          ? std::string(
                "SELECT '', e.seq, '', e.day::text, e.body FROM kaizen_events e "
                "ORDER BY e.day, e.xid, e.seq")
          : fmt::format(
                "SELECT e.xid::text, e.seq, e.id, e.day::text, e.body FROM kaizen_events e "
                "WHERE e.xid >= '{}'::xid8 ORDER BY e.xid, e.seq",
                frontier);
  if (Status s = CopyRows(select, page_rows, fn); !s.ok()) return fail(s);
  KZ_RETURN_IF_ERROR(Exec(conn_, name_, "COMMIT", "ending a read").status());
  return since;
}

Status PgLog::ReadAll(size_t page_rows, const Page& fn) {
  KZ_RETURN_IF_ERROR(Connected());
  KZ_RETURN_IF_ERROR(
      Exec(conn_, name_, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "a transaction")
          .status());
  Status s = CopyRows("SELECT xid::text, seq, id, day::text, body FROM kaizen_events ORDER BY seq",
                      page_rows, fn);
  if (!s.ok()) {
    Rollback(conn_);
    return s;
  }
  return Exec(conn_, name_, "COMMIT", "ending a read").status();
}

Status PgLog::CopyRows(const std::string& select, size_t page_rows, const Page& fn) {
  const std::string sql = "COPY (" + select + ") TO STDOUT (FORMAT binary)";
  PgResult started(PQexec(conn_, sql.c_str()));
  if (!started || PQresultStatus(started.get()) != PGRES_COPY_OUT) {
    return Failed(conn_, started.get(), name_, "reading events");
  }
  // A page's rows point into the chunks libpq returned (one row each): freed once it is delivered.
  std::vector<char*> chunks;
  auto free_chunks = [&] {
    for (char* c : chunks) PQfreemem(c);
    chunks.clear();
  };
  std::vector<StoredRow> rows;
  bool header = false, trailer = false;
  Status bad;
  while (bad.ok()) {
    char* chunk = nullptr;
    const int n = PQgetCopyData(conn_, &chunk, 0);
    if (n == -1) break;  // the end of the stream; the command's result follows
    if (n < 0) {
      bad = Failed(conn_, nullptr, name_, "reading events");
      break;
    }
    chunks.push_back(chunk);
    const char* p = chunk;
    const char* end = chunk + n;
    if (!header) {
      // PGCOPY\n\377\r\n\0, 32 bits of flags, the header extension's length, the extension.
      constexpr std::string_view kSignature("PGCOPY\n\377\r\n\0", 11);
      const int32_t extension = n < 19 ? -1 : BigEndian<int32_t>(p + 15);
      if (n < 19 || std::string_view(p, 11) != kSignature || extension < 0 || n - 19 < extension) {
        bad = DataLoss(fmt::format("the store {} sent a COPY stream kaizen cannot read", name_));
        break;
      }
      p += 19 + extension;
      header = true;
    }
    if (p == end) continue;
    if (end - p == 2 && BigEndian<int16_t>(p) == -1) {
      trailer = true;
      continue;
    }
    StoredRow row;
    if (!ParseCopyTuple(p, end, &row)) {
      bad = DataLoss(fmt::format("the store {} sent a row kaizen cannot read", name_));
      break;
    }
    rows.push_back(row);
    if (rows.size() == page_rows) {
      bad = fn(rows);
      rows.clear();
      free_chunks();
    }
  }
  if (bad.ok() && !rows.empty()) bad = fn(rows);
  free_chunks();
  // The rest of a stream left early, then the COPY's own result.
  if (!bad.ok() && PQstatus(conn_) == CONNECTION_OK) {
    char* rest = nullptr;
    while (PQgetCopyData(conn_, &rest, 0) > 0) PQfreemem(rest);
  }
  while (PGresult* r = PQgetResult(conn_)) {
    if (bad.ok() && PQresultStatus(r) != PGRES_COMMAND_OK) {
      bad = Failed(conn_, r, name_, "reading events");
    }
    PQclear(r);
  }
  if (bad.ok() && !trailer) {
    bad = DataLoss(fmt::format("the store {} ended a COPY stream early", name_));
  }
  return bad;
}

Result<uint64_t> PgLog::Epoch() {
  KZ_RETURN_IF_ERROR(Connected());
  KZ_ASSIGN_OR_RETURN(
      PgResult r,
      Exec(conn_, name_, "SELECT value FROM kaizen_meta WHERE key = 'epoch'", "reading the epoch"));
  return std::stoull(PQgetvalue(r.get(), 0, 0));
}

Result<uint64_t> PgLog::Count() {
  KZ_RETURN_IF_ERROR(Connected());
  KZ_ASSIGN_OR_RETURN(PgResult r,
                      Exec(conn_, name_, "SELECT count(*) FROM kaizen_events", "counting events"));
  return std::stoull(PQgetvalue(r.get(), 0, 0));
}

Result<uint64_t> PgLog::CountStored(const std::vector<std::string>& ids) {
  ArrayLiteral list;
  for (const std::string& id : ids) list.Add(id);
  KZ_RETURN_IF_ERROR(Connected());
  KZ_ASSIGN_OR_RETURN(
      PgResult r,
      ExecParams(conn_, name_, "SELECT count(*) FROM kaizen_event_ids WHERE id = ANY($1::text[])",
                 {list.Done().c_str()}, "looking ids up"));
  return std::stoull(PQgetvalue(r.get(), 0, 0));
}

Result<uint64_t> PgLog::RewriteDay(std::string_view day, std::string_view old_text,
                                   std::string_view new_text) {
  simdjson::dom::parser parser;
  Columns c;
  std::map<std::string, std::string_view> before, after;
  Status bad;
  ForEachLineOf(old_text, [&](std::string_view line) {
    // A line that is not an event was never stored here (the database holds events only).
    if (ColumnsOf(parser, line, &c).ok()) before[c.id] = line;
  });
  ForEachLineOf(new_text, [&](std::string_view line) {
    if (!bad.ok()) return;
    if (bad = ColumnsOf(parser, line, &c); bad.ok()) after[c.id] = line;
  });
  KZ_RETURN_IF_ERROR(bad);
  ArrayLiteral gone, changed_ids, changed_bodies;
  std::map<std::string, std::string> added;
  for (const auto& [id, line] : before) {
    if (!after.contains(id)) gone.Add(id);
  }
  for (const auto& [id, line] : after) {
    auto it = before.find(id);
    if (it == before.end()) {
      added[std::string(day)].append(line).push_back('\n');
    } else if (it->second != line) {
      changed_ids.Add(id);
      changed_bodies.Add(line);
    }
  }
  KZ_RETURN_IF_ERROR(Connected());
  KZ_RETURN_IF_ERROR(Exec(conn_, name_, "BEGIN", "a transaction").status());
  auto fail = [&](Status s) {
    Rollback(conn_);
    return s;
  };
  const std::string day_text(day);
  for (auto [sql, params] : std::vector<std::pair<const char*, std::vector<const char*>>>{
           {"DELETE FROM kaizen_events WHERE day = $1::date AND id = ANY($2::text[])",
            {day_text.c_str(), gone.Done().c_str()}},
           {"DELETE FROM kaizen_event_ids WHERE id = ANY($1::text[])", {gone.Done().c_str()}},
           {"UPDATE kaizen_events e SET body = u.body FROM unnest($2::text[], $3::text[]) AS "
            "u(id, body) WHERE e.day = $1::date AND e.id = u.id",
            {day_text.c_str(), changed_ids.Done().c_str(), changed_bodies.Done().c_str()}}}) {
    if (auto r = ExecParams(conn_, name_, sql, params, "rewriting a day"); !r.ok()) {
      return fail(r.status());
    }
  }
  // Inside the same transaction: the new lines commit with the deletions, or nothing does.
  if (!added.empty()) {
    if (Status s = EnsurePartitions(added); !s.ok()) return fail(s);
    RowArrays rows;
    ForEachLineOf(added.begin()->second, [&](std::string_view line) {
      if (ColumnsOf(parser, line, &c).ok()) rows.Add(day, c, line);  // checked above
    });
    const char* sql = R"sql(
WITH claimed AS (INSERT INTO kaizen_event_ids (id) SELECT unnest($1::text[]) RETURNING id)
INSERT INTO kaizen_events (id, day, ts, kind, reviewer, project, body)
SELECT id, day, ts, kind, reviewer, project, body
FROM unnest($1::text[], $2::date[], $3::timestamptz[], $4::text[], $5::text[], $6::text[],
            $7::text[]) WITH ORDINALITY AS r(id, day, ts, kind, reviewer, project, body, n)
ORDER BY n
)sql";
    auto r = ExecParams(conn_, name_, sql, rows.Params(), "rewriting a day");
    if (!r.ok()) return fail(r.status());
  }
  auto epoch = Exec(conn_, name_,
                    "UPDATE kaizen_meta SET value = (value::bigint + 1)::text WHERE key = 'epoch' "
                    "RETURNING value, pg_notify('kaizen_events', 'rewrite')",
                    "counting a rewrite");
  if (!epoch.ok()) return fail(epoch.status());
  const uint64_t now = std::stoull(PQgetvalue(epoch->get(), 0, 0));
  KZ_RETURN_IF_ERROR(Exec(conn_, name_, "COMMIT", "committing a rewrite").status());
  return now;
}

Status PgLog::Listen() {
  KZ_RETURN_IF_ERROR(Connected());
  KZ_RETURN_IF_ERROR(
      Exec(conn_, name_, "LISTEN kaizen_events", "listening for new events").status());
  listening_ = true;
  return Status::Ok();
}

Result<bool> PgLog::WaitNotification(int timeout_ms, std::string_view ignore) {
  KZ_RETURN_IF_ERROR(Connected());
  auto drain = [&] {
    bool any = false;
    while (PGnotify* n = PQnotifies(conn_)) {
      any = any || ignore.empty() || ignore != n->extra;
      PQfreemem(n);
    }
    return any;
  };
  if (!PQconsumeInput(conn_)) {
    return Unavailable(fmt::format("the store {} is unreachable (listening): {}", name_,
                                   Trimmed(PQerrorMessage(conn_))));
  }
  if (drain()) return true;
  pollfd p{PQsocket(conn_), POLLIN, 0};
  if (p.fd < 0) return Unavailable(fmt::format("the store {} closed the connection", name_));
  if (::poll(&p, 1, timeout_ms) <= 0) return false;
  if (!PQconsumeInput(conn_)) {
    return Unavailable(fmt::format("the store {} is unreachable (listening): {}", name_,
                                   Trimmed(PQerrorMessage(conn_))));
  }
  return drain();
}

}  // namespace kaizen::store
