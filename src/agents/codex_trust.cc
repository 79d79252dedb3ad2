#include "agents/codex_trust.h"

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sodium.h>

#include <cstdlib>

#include "agents/toml_text.h"
#include "store/file_system.h"

namespace kaizen::agents {

std::string CodexEventLabel(std::string_view event) {
  std::string out;
  for (char ch : event) {
    if (ch >= 'A' && ch <= 'Z') {
      if (!out.empty()) out += '_';
      out += static_cast<char>(ch - 'A' + 'a');
    } else {
      out += ch;
    }
  }
  return out;
}

std::string CodexHookTrustHash(std::string_view event, std::string_view matcher,
                               std::string_view command, int timeout_seconds) {
  // Keys in sorted order, no blanks: serde_json's compact form of a BTreeMap. RapidJSON escapes
  // as serde_json does (quote, backslash, control characters; UTF-8 kept as it is).
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  const std::string label = CodexEventLabel(event);
  w.StartObject();
  w.Key("event_name");
  w.String(label.data(), static_cast<rapidjson::SizeType>(label.size()));
  w.Key("hooks");
  w.StartArray();
  w.StartObject();
  w.Key("async");
  w.Bool(false);
  w.Key("command");
  w.String(command.data(), static_cast<rapidjson::SizeType>(command.size()));
  w.Key("timeout");
  w.Int(timeout_seconds);
  w.Key("type");
  w.String("command");
  w.EndObject();
  w.EndArray();
  if (!matcher.empty() && event != "UserPromptSubmit" && event != "Stop") {
    w.Key("matcher");
    w.String(matcher.data(), static_cast<rapidjson::SizeType>(matcher.size()));
  }
  w.EndObject();
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(b.GetString()), b.GetSize());
  std::string out = "sha256:";
  for (unsigned char byte : digest) out += fmt::format("{:02x}", byte);
  return out;
}

std::string CodexHookKey(std::string_view hooks_json, std::string_view event, size_t group,
                         size_t handler) {
  return fmt::format("{}:{}:{}:{}", hooks_json, CodexEventLabel(event), group, handler);
}

Result<CodexTrust> ParseCodexTrust(std::string_view text, const std::string& path,
                                   std::string_view project) {
  CodexTrust trust;
  KZ_ASSIGN_OR_RETURN(toml::table config, ParseTomlText(text, path));
  if (const toml::table* projects = config["projects"].as_table()) {
    for (const auto& [path, entry] : *projects) {
      if (path.str() != project) continue;
      const std::optional<std::string_view> level =
          entry.at_path("trust_level").value<std::string_view>();
      trust.project_trusted = level && *level == "trusted";
    }
  }
  if (const toml::table* state = config.at_path("hooks.state").as_table()) {
    for (const auto& [key, entry] : *state) {
      if (std::optional<std::string_view> hash =
              entry.at_path("trusted_hash").value<std::string_view>()) {
        trust.hook_hashes.emplace(std::string(key.str()), std::string(*hash));
      }
    }
  }
  return trust;
}

Result<CodexTrust> ReadCodexTrust(const std::string& config_path, std::string_view project) {
  store::FileSystem* fs = store::DefaultFileSystem();
  if (!fs->Exists(config_path)) return CodexTrust{};
  KZ_ASSIGN_OR_RETURN(std::string text, fs->ReadFrom(config_path, 0));
  return ParseCodexTrust(text, config_path, project);
}

std::string CodexConfigPath() {
  if (const char* home = std::getenv("CODEX_HOME"); home && *home) {
    return std::string(home) + "/config.toml";
  }
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.codex/config.toml";
}

}  // namespace kaizen::agents
