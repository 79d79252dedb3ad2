// `kaizen token create --name NAME --role reviewer|agent|admin`, `kaizen token list`,
// `kaizen token revoke NAME`: the team's tokens (store/token_registry.h), kept in the home or,
// with --store, in the shared database. Who runs these holds the home (or the database's
// credentials), which is an admin's power already. A token is printed once, when it is made.
#include <fmt/format.h>

#include <memory>
#include <string>

#include "base/json_text.h"
#include "cli/verb.h"
#include "cli/verbs.h"
#include "home/clock.h"
#include "model/timestamp.h"
#include "store/file_system.h"
#include "store/token_registry.h"

namespace kaizen::cli {
namespace {

struct TokenOptions {
  std::string name, role = "reviewer";
};

int Fail(std::string_view what, const Status& s) {
  fmt::print(stderr, "kaizen token {}: {}\n", what, s.message());
  switch (s.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kAlreadyExists:
    case StatusCode::kNotFound:
      return kExitUsage;
    default:
      return kExitSystem;
  }
}

Result<std::string> Now(const Common& c) {
  KZ_ASSIGN_OR_RETURN(int64_t now, home::NowMs(c.now));
  return model::FormatUtc(now);
}

int Create(const Common& c, const TokenOptions& o) {
  store::TokenRegistry registry(c.home, store::DefaultFileSystem(), c.remote);
  auto now = Now(c);
  if (!now.ok()) return Fail("create", now.status());
  store::TokenEntry e;
  e.name = o.name;
  e.role = *store::ParseRole(o.role);  // CLI11 checked it
  const std::string token = store::NewToken();
  e.hash = store::TokenHash(token);
  e.created = *now;
  if (Status s = registry.Add(e); !s.ok()) return Fail("create", s);
  if (c.json) {
    fmt::print("{{\"name\":{},\"role\":\"{}\",\"token\":\"{}\"}}\n", base::JsonQuote(e.name),
               o.role, token);
    return kExitOk;
  }
  fmt::print("{}\n", token);
  fmt::print(stderr,
             "kaizen token: made the {} token \"{}\" ({}); it is shown this once, only its hash is "
             "kept. Give it to them as KAIZEN_TOKEN, or sign a browser in at /#token=...\n",
             o.role, e.name, c.remote ? "in the store" : "in " + c.home + "/config/tokens.json");
  return kExitOk;
}

int List(const Common& c) {
  store::TokenRegistry registry(c.home, store::DefaultFileSystem(), c.remote);
  auto all = registry.List();
  if (!all.ok()) return Fail("list", all.status());
  if (c.json) {
    std::string out = "{\"tokens\":[";
    for (size_t i = 0; i < all->size(); ++i) {
      const store::TokenEntry& e = (*all)[i];
      out += fmt::format("{}{{\"name\":{},\"role\":\"{}\",\"created\":\"{}\",\"revoked\":{}}}",
                         i ? "," : "", base::JsonQuote(e.name), store::RoleName(e.role), e.created,
                         e.revoked.empty() ? "null" : base::JsonQuote(e.revoked));
    }
    fmt::print("{}]}}\n", out);
    return kExitOk;
  }
  if (all->empty()) {
    fmt::print(
        "no named tokens: kaizen serve takes the home's single token for every write "
        "(kaizen token create --name NAME --role reviewer|agent|admin makes one)\n");
    return kExitOk;
  }
  for (const store::TokenEntry& e : *all) {
    fmt::print("{:<24} {:<9} made {}{}\n", e.name, store::RoleName(e.role), e.created,
               e.revoked.empty() ? "" : ", revoked " + e.revoked);
  }
  return kExitOk;
}

int Revoke(const Common& c, const std::string& name) {
  store::TokenRegistry registry(c.home, store::DefaultFileSystem(), c.remote);
  auto now = Now(c);
  if (!now.ok()) return Fail("revoke", now.status());
  if (Status s = registry.Revoke(name, *now); !s.ok()) return Fail("revoke", s);
  fmt::print("revoked the token \"{}\": kaizen serve refuses it within a second\n", name);
  return kExitOk;
}

}  // namespace

Verb AddTokenVerb(CLI::App& app, Common& c) {
  auto o = std::make_shared<TokenOptions>();
  auto* sub = app.add_subcommand(
      "token", "the team's tokens: one per reviewer, agent or admin (create, list, revoke)");
  sub->require_subcommand(1);
  auto* create = sub->add_subcommand("create", "make a token and print it, once");
  create->add_option("--name", o->name, "who it is for (a reviewer's name is their reviewerId)")
      ->required()
      ->check(CLI::Validator([](std::string& v) { return store::CheckTokenName(v); }, "NAME"));
  create->add_option("--role", o->role, "reviewer (default), agent or admin")
      ->check(CLI::IsMember({"reviewer", "agent", "admin"}));
  AddCommonOptions(create, c, /*with_json=*/true, /*with_now=*/false);
  auto* list = sub->add_subcommand("list", "every token made: name, role, when, revoked");
  AddCommonOptions(list, c, /*with_json=*/true, /*with_now=*/false);
  auto* revoke = sub->add_subcommand("revoke", "stop a token from writing");
  revoke->add_option("NAME", o->name, "the token's name")->required();
  AddCommonOptions(revoke, c, /*with_json=*/false, /*with_now=*/false);
  return {sub, [&c, o, create, list, revoke] {
            if (create->parsed()) return Create(c, *o);
            if (list->parsed()) return List(c);
            (void)revoke;
            return Revoke(c, o->name);
          }};
}

}  // namespace kaizen::cli
