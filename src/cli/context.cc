// `kaizen context --server-type X --stage Y --dimensions a,b [--type T] [--project P] [--json|--md]
// [--budget TOKENS] [--now T|end]`: what the agent should read before such a task (seed 000
// §5.3), within a token budget. Answered by the home's `kaizen serve` when one runs.
#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <string>

#include "cli/verbs.h"
#include "home/learned_state.h"
#include "home/project_dir.h"
#include "home/serve_client.h"
#include "render/context.h"

namespace kaizen::cli {
namespace {

struct ContextOptions {
  std::string server_type, work_type, stage, dimensions, project;
  bool markdown = false;
  int64_t budget = 0;  // 0: memory.context_budget_tokens
};

}  // namespace

Verb AddContextVerb(CLI::App& app, Common& c) {
  auto o = std::make_shared<ContextOptions>();
  auto* sub = app.add_subcommand(
      "context",
      "preferences, standards, matching rules, similar past reviews and anti-patterns "
      "for a task, within a token budget");
  sub->add_option("--server-type", o->server_type, "the task's mcpServerType (e.g. shopify)");
  sub->add_option("--type", o->work_type, "the work product type (e.g. mcp-server)");
  sub->add_option("--stage", o->stage, "the pipeline stage");
  sub->add_option("--dimensions", o->dimensions,
                  "comma-separated quality dimensions the task is judged on");
  sub->add_option("--project", o->project,
                  "the project the task is in (a name or a directory): its rules besides the "
                  "global ones; default: the repository of the current directory");
  sub->add_option("--budget", o->budget,
                  "token budget (tokens = bytes / 4); default "
                  "memory.context_budget_tokens")
      ->check(CLI::Range(int64_t{1}, int64_t{10'000'000}));
  auto* md = sub->add_flag("--md", o->markdown, "markdown output (the default)");
  AddCommonOptions(sub, c, true, true);
  sub->get_option("--json")->excludes(md);
  return {
      sub, [&c, o] {
        std::error_code ec;
        const std::string project =
            !o->project.empty()
                ? o->project
                : home::ProjectDirectory(std::filesystem::current_path(ec).string());
        render::ContextQuery query{o->server_type, o->work_type, o->stage, {}, project};
        if (!o->dimensions.empty()) {
          if (Status s = render::ParseDimensions(o->dimensions, &query.dimensions); !s.ok()) {
            return home::FailVerb("context", s);
          }
        }
        // The home's running server answers from its live learner (home/serve_client.h).
        std::string asked = c.json ? "format=json" : "format=md";
        for (const auto& [name, value] :
             {std::pair<const char*, const std::string*>{"server_type", &o->server_type},
              {"type", &o->work_type},
              {"stage", &o->stage},
              {"dimensions", &o->dimensions},
              {"project", &project}}) {
          if (!value->empty()) asked += fmt::format("&{}={}", name, home::UrlEncode(*value));
        }
        if (o->budget > 0) asked += fmt::format("&budget={}", o->budget);
        asked += "&" + home::NowQuery(c.now);
        if (std::optional<std::string> answer = home::ReadFromServer(c.home, "context", asked)) {
          fmt::print("{}", *answer);
          return kExitOk;
        }
        home::LearnedState state;
        if (Status s = home::LoadLearnedStateUnserved(c, &state, render::kContextParts); !s.ok()) {
          return home::FailVerb("context", s);
        }
        home::WarnUnreadable(state.scan);
        const size_t budget =
            o->budget > 0
                ? static_cast<size_t>(o->budget)
                : static_cast<size_t>(state.learner->config().memory.context_budget_tokens);
        render::ContextResult result = render::Context(*state.learner, query, state.now_ms);
        fmt::print("{}", render::RenderContext(&result,
                                               c.json ? render::ContextFormat::kJson
                                                      : render::ContextFormat::kMarkdown,
                                               budget));
        return kExitOk;
      }};
}

}  // namespace kaizen::cli
