// `kaizen mcp [--home H] [--now T] [--verbose]`: the MCP server over stdio (serve/mcp_server.h),
// so agents call kaizen's tools. stdout carries only protocol messages; stderr only errors, and
// the start-up line when --verbose asks for it: agents log a server's stderr as errors (Claude
// Code: "Server stderr: ..."), so a line that says all is well must not be there by default.
#include <csignal>
#include <filesystem>
#include <memory>

#include <fmt/format.h>
#include <unistd.h>

#include "cli/verbs.h"
#include "home/clock.h"
#include "home/learned_checkpoint.h"
#include "home/project_dir.h"
#include "serve/mcp_server.h"

namespace kaizen::cli {

Verb AddMcpVerb(CLI::App& app, Common& c) {
  auto* sub = app.add_subcommand(
      "mcp", "serve kaizen's tools and memory files to an agent over MCP (JSON-RPC on stdio)");
  AddCommonOptions(sub, c, /*with_json=*/false, /*with_now=*/true);
  static bool verbose = false;
  sub->add_flag("--verbose", verbose, "say on stderr which home is served");
  return {sub, [&c] {
            serve::McpOptions options;
            options.live.home = c.home;
            options.live.store = c.store;
            // The agent starts its MCP servers in the project it works in.
            std::error_code ec;
            options.live.project =
                home::ProjectDirectory(std::filesystem::current_path(ec).string());
            if (c.now == "end") {
              options.live.now_is_newest = true;  // a replayed or demo history
            } else if (!c.now.empty()) {
              Result<int64_t> now = home::NowMs(c.now);
              if (!now.ok()) {
                fmt::print(stderr, "kaizen mcp: {}\n", now.status().message());
                return kExitUsage;
              }
              options.live.fixed_now_ms = *now;
            }
            // A client that goes away mid-write is a failed write (EPIPE), not a dead process
            // with writes still queued.
            std::signal(SIGPIPE, SIG_IGN);
            home::DisableCheckpointWrites();  // a server: its check tool must not fork to write one
            if (verbose) fmt::print(stderr, "kaizen mcp: serving {} on stdio\n", c.home);
            serve::McpServer server(std::move(options));
            return server.Serve(STDIN_FILENO, STDOUT_FILENO);
          }};
}

}  // namespace kaizen::cli
