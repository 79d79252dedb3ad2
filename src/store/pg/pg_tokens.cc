// The token registry in a shared store (store/token_registry.h): one table, so every server of a
// team checks the same tokens and a revocation reaches all of them.
#include <fmt/format.h>

#include "store/pg/pg_log.h"
#include "store/pg/pg_statements.h"

namespace kaizen::store {

Result<std::vector<TokenEntry>> PgLog::ListTokens() {
  KZ_RETURN_IF_ERROR(Connected());
  KZ_ASSIGN_OR_RETURN(
      pg::PgResult r,
      pg::Exec(conn_, name_,
               "SELECT name, role, hash, created, revoked FROM kaizen_tokens ORDER BY name",
               "reading the tokens"));
  std::vector<TokenEntry> out;
  for (int i = 0; i < PQntuples(r.get()); ++i) {
    TokenEntry e;
    e.name = PQgetvalue(r.get(), i, 0);
    std::optional<Role> role = ParseRole(PQgetvalue(r.get(), i, 1));
    if (!role) {
      return DataLoss(fmt::format("the store {} holds token {} with an unknown role \"{}\"", name_,
                                  e.name, PQgetvalue(r.get(), i, 1)));
    }
    e.role = *role;
    e.hash = PQgetvalue(r.get(), i, 2);
    e.created = PQgetvalue(r.get(), i, 3);
    e.revoked = PQgetvalue(r.get(), i, 4);
    out.push_back(std::move(e));
  }
  return out;
}

Status PgLog::AddToken(const TokenEntry& e) {
  KZ_RETURN_IF_ERROR(Connected());
  const std::string role(RoleName(e.role));
  // A revoked name is taken over; a valid one is left as it is (0 rows: AlreadyExists).
  KZ_ASSIGN_OR_RETURN(
      pg::PgResult r,
      pg::ExecParams(conn_, name_,
                     "INSERT INTO kaizen_tokens (name, role, hash, created) VALUES ($1, $2, $3, "
                     "$4) ON CONFLICT (name) DO UPDATE SET role = excluded.role, hash = "
                     "excluded.hash, created = excluded.created, revoked = '' WHERE "
                     "kaizen_tokens.revoked <> ''",
                     {e.name.c_str(), role.c_str(), e.hash.c_str(), e.created.c_str()},
                     "making a token"));
  if (std::string_view(PQcmdTuples(r.get())) == "0") {
    return AlreadyExists(fmt::format(
        "a valid token is named \"{}\" already (kaizen token revoke {} first)", e.name, e.name));
  }
  return Status::Ok();
}

Status PgLog::RevokeToken(std::string_view name, std::string_view at) {
  KZ_RETURN_IF_ERROR(Connected());
  const std::string n(name), when(at);
  KZ_ASSIGN_OR_RETURN(pg::PgResult r,
                      pg::ExecParams(conn_, name_,
                                     "UPDATE kaizen_tokens SET revoked = $2 WHERE name = $1 AND "
                                     "revoked = ''",
                                     {n.c_str(), when.c_str()}, "revoking a token"));
  if (std::string_view(PQcmdTuples(r.get())) == "0") {
    return NotFound(fmt::format("no valid token is named \"{}\" (kaizen token list)", name));
  }
  return Status::Ok();
}

}  // namespace kaizen::store
