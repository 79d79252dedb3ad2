#include "agents/codex_rollout.h"

#include <simdjson.h>

#include "store/file_system.h"

namespace kaizen::agents {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

constexpr size_t kTailBytes = 8u << 20;

// The entry's end of `call_id`, when the line is one: {"payload": {"type": "item_completed",
// "item": {"id": ID, "exit_code": N, "aggregated_output": ...}}} or {"payload": {"type":
// "exec_command_end", "call_id": ID, "exit_code": N, "aggregated_output": ...}}.
std::optional<CommandEnd> EndIn(simdjson::dom::parser& parser, std::string_view line,
                                std::string_view call_id) {
  element doc;
  if (parser.parse(line.data(), line.size()).get(doc) != simdjson::SUCCESS) return std::nullopt;
  object payload;
  if (doc["payload"].get_object().get(payload) != simdjson::SUCCESS) return std::nullopt;
  object holder;
  std::string_view id;
  object item;
  if (payload["item"].get_object().get(item) == simdjson::SUCCESS &&
      item["id"].get_string().get(id) == simdjson::SUCCESS && id == call_id) {
    holder = item;
  } else if (payload["call_id"].get_string().get(id) == simdjson::SUCCESS && id == call_id) {
    holder = payload;
  } else {
    return std::nullopt;
  }
  CommandEnd end;
  if (holder["exit_code"].get_int64().get(end.exit_code) != simdjson::SUCCESS) return std::nullopt;
  std::string_view output;
  if (holder["aggregated_output"].get_string().get(output) == simdjson::SUCCESS) {
    end.output = std::string(output);
  }
  return end;
}

}  // namespace

std::optional<CommandEnd> FindCommandEnd(std::string_view rollout, std::string_view call_id) {
  if (call_id.empty()) return std::nullopt;
  simdjson::dom::parser parser;
  // Newest first: the call has just ended.
  size_t end = rollout.size();
  while (end > 0) {
    size_t start = rollout.rfind('\n', end - 1);
    start = start == std::string_view::npos ? 0 : start + 1;
    const std::string_view line = rollout.substr(start, end - start);
    if (line.find(call_id) != std::string_view::npos &&
        line.find("\"exit_code\"") != std::string_view::npos) {
      if (std::optional<CommandEnd> found = EndIn(parser, line, call_id)) return found;
    }
    end = start == 0 ? 0 : start - 1;
  }
  return std::nullopt;
}

std::optional<CommandEnd> ReadCommandEnd(const std::string& path, std::string_view call_id) {
  if (path.empty() || call_id.empty()) return std::nullopt;
  store::FileSystem* fs = store::DefaultFileSystem();
  Result<uint64_t> size = fs->FileSize(path);
  if (!size.ok()) return std::nullopt;
  // A tail that starts mid-line: the partial first line is skipped as not JSON.
  Result<std::string> tail = fs->ReadFrom(path, *size > kTailBytes ? *size - kTailBytes : 0);
  if (!tail.ok()) return std::nullopt;
  return FindCommandEnd(*tail, call_id);
}

}  // namespace kaizen::agents
