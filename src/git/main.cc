// kaizen-git: the verbs that read git repositories, run by `kaizen git ...` with the words after
// `git` (base/sibling.h says why they live in a program of their own).
//
//   kaizen-git scan REPO ...     `kaizen git scan`: seed 001 tier 1 signals and seed 004
//                                corrections from the repository's history (git_scan.cc)
//   kaizen-git file-diff PATH... [--commit REV|BASE..HEAD]
//                                the agent's change of the paths, for `kaizen serve`'s review
//                                page and for `kaizen check` to record: the working tree's
//                                uncommitted change, or the named commit's or range's, as
//                                {"text": ..., "source": ...} on stdout; exit 1 and the reason on
//                                stderr when there is none
#include <CLI/CLI.hpp>

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/verb.h"
#include "git/git_verbs.h"
#include "home/store_open.h"
#include "signals/git_file_diff.h"

namespace {

int FileDiff(const std::vector<std::string>& paths, const std::string& commit) {
  kaizen::Result<kaizen::signals::FileDiff> diff = kaizen::signals::DiffOfPaths(paths, commit);
  if (!diff.ok()) {
    fmt::print(stderr, "{}\n", diff.status().message());
    return 1;
  }
  if (!simdjson::validate_utf8(diff->text.data(), diff->text.size())) {
    fmt::print(stderr, "the diff is not UTF-8 text: not shown\n");
    return 1;
  }
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  w.Key("text");
  w.String(diff->text.data(), static_cast<rapidjson::SizeType>(diff->text.size()));
  w.Key("source");
  w.String(diff->source.data(), static_cast<rapidjson::SizeType>(diff->source.size()));
  w.EndObject();
  fmt::print("{}\n", std::string_view(b.GetString(), b.GetSize()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kaizen::cli;
  CLI::App app{"kaizen git: automatic reward signals from a git repository"};
  app.name("kaizen git");
  app.require_subcommand(1);
  Common c;
  if (const char* env = std::getenv("KAIZEN_HOME"); env && *env) {
    c.home = env;
  } else {
    c.home = "./.kaizen";
  }
  std::vector<Verb> verbs;
  verbs.push_back(AddGitScanVerb(app, c));
  std::vector<std::string> paths;
  std::string commit;
  CLI::App* diff =
      app.add_subcommand("file-diff", "the change of files, as JSON (kaizen serve, kaizen check)");
  diff->group("");  // not for people: the review page's and the self-check's helper
  diff->add_option("PATH", paths, "the files (absolute), in one repository")->required();
  diff->add_option("--commit", commit, "a commit, or BASE..HEAD (default: the working tree)");
  RefuseEmptyValues(&app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kaizen::kExitOk : kaizen::kExitUsage;
  }
  if (diff->parsed()) return FileDiff(paths, commit);
  // A scan stores into the team's shared store too (--store, $KAIZEN_STORE), its home the
  // store's working copy, as every verb of `kaizen` does (home/store_open.h).
  std::unique_ptr<kaizen::store::SharedLog> remote;
  if (kaizen::Status s = kaizen::home::OpenStore(&c, &remote); !s.ok())
    return kaizen::home::StoreOpenFailed("git", s);
  for (const Verb& verb : verbs) {
    if (verb.sub->parsed()) return verb.run();
  }
  return kaizen::kExitUsage;
}
