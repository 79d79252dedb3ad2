#include "agents/hook_session.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>
#include <sys/stat.h>

#include <fmt/format.h>

#include "ingest/ingest_state.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::agents {
namespace {

constexpr std::string_view kDir = "hooks/sessions";

bool SafeName(std::string_view s) {
  if (s.empty() || s.size() > 80 || s[0] == '.') return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
      return false;
    }
  }
  return true;
}

HookSession Parse(std::string_view text) {
  HookSession s;
  simdjson::dom::parser parser;
  simdjson::dom::object o;
  if (parser.parse(text.data(), text.size()).get_object().get(o) != simdjson::SUCCESS) return s;
  auto num = [&](std::string_view key) {
    int64_t v = 0;
    (void)o[key].get_int64().get(v);  // absent or damaged: 0, the state of a new session
    return v;
  };
  s.started_ms = num("startedMs");
  s.turn_started_ms = num("turnStartedMs");
  s.turns = num("turns");
  s.tool_calls = num("toolCalls");
  s.errors = num("errors");
  s.retries = num("retries");
  s.last_tool_failed = num("lastToolFailed") != 0;
  std::string_view hash;
  if (o["promptHash"].get_string().get(hash) == simdjson::SUCCESS) s.prompt_hash = hash;
  simdjson::dom::array files;
  if (o["files"].get_array().get(files) == simdjson::SUCCESS) {
    for (auto f : files) {
      std::string_view path;
      if (f.get_string().get(path) == simdjson::SUCCESS) s.files.emplace_back(path);
    }
  }
  simdjson::dom::object open;
  if (o["openErrors"].get_object().get(open) == simdjson::SUCCESS) {
    for (auto field : open) {
      std::string_view id;
      if (field.value.get_string().get(id) == simdjson::SUCCESS) {
        s.open_errors.emplace(std::string(field.key), std::string(id));
      }
    }
  }
  return s;
}

std::string Serialize(const HookSession& s) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  for (auto [key, value] : {std::pair<const char*, int64_t>{"startedMs", s.started_ms},
                            {"turnStartedMs", s.turn_started_ms},
                            {"turns", s.turns},
                            {"toolCalls", s.tool_calls},
                            {"errors", s.errors},
                            {"retries", s.retries},
                            {"lastToolFailed", s.last_tool_failed ? 1 : 0}}) {
    w.Key(key);
    w.Int64(value);
  }
  w.Key("promptHash");
  w.String(s.prompt_hash.c_str());
  w.Key("files");
  w.StartArray();
  for (const std::string& f : s.files)
    w.String(f.data(), static_cast<rapidjson::SizeType>(f.size()));
  w.EndArray();
  w.Key("openErrors");
  w.StartObject();
  for (const auto& [key, id] : s.open_errors) {
    w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
    w.String(id.data(), static_cast<rapidjson::SizeType>(id.size()));
  }
  w.EndObject();
  w.EndObject();
  return std::string(b.GetString(), b.GetSize()) + "\n";
}

}  // namespace

std::string HookSessionPath(const std::string& home, const std::string& session_id) {
  std::string name = session_id;
  if (!SafeName(name)) {
    const ingest::Key128 k = ingest::HashKey(session_id);
    name = fmt::format("{:016x}{:016x}", k.hi, k.lo);
  }
  return store::PathIn(home, fmt::format("{}/{}.json", kDir, name));
}

Status UpdateHookSession(const std::string& home, const std::string& session_id,
                         const std::function<void(HookSession*)>& update, bool remove) {
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string path = HookSessionPath(home, session_id);
  KZ_RETURN_IF_ERROR(fs->CreateDirs(store::DirName(path)));
  KZ_ASSIGN_OR_RETURN(std::unique_ptr<store::FileLock> lock, fs->LockFile(path + ".lock"));
  HookSession session;
  if (fs->Exists(path)) {
    Result<std::string> text = fs->ReadFrom(path, 0);
    if (text.ok()) session = Parse(*text);
  }
  update(&session);
  if (remove) {
    // The lock file stays: a process waiting on it would otherwise lock a file no one else sees
    // (PruneHookSessions removes it once stale).
    return fs->Exists(path) ? fs->Remove(path) : Status::Ok();
  }
  // Not durable: scratch state (a crash loses a turn's counts, never an event).
  return fs->WriteFileAtomic(path, Serialize(session), /*durable=*/false);
}

void PruneHookSessions(const std::string& home, int64_t now_ms, int64_t max_age_ms) {
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string dir = store::PathIn(home, std::string(kDir));
  Result<std::vector<std::string>> names = fs->ListFiles(dir);
  if (!names.ok()) return;
  for (const std::string& name : *names) {
    const std::string path = dir + "/" + name;
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) continue;
    const int64_t modified_ms = int64_t{st.st_mtim.tv_sec} * 1000 + st.st_mtim.tv_nsec / 1000000;
    if (now_ms - modified_ms > max_age_ms) (void)fs->Remove(path);
  }
}

}  // namespace kaizen::agents
