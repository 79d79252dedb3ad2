#include "signals/git_reward.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sodium.h>

#include <fmt/format.h>

#include <algorithm>

#include "base/json_writer.h"
#include "base/utf8.h"
#include "model/event_writer.h"
#include "model/timestamp.h"

namespace kaizen::signals {

using model::ContextField;
using model::EventField;

// (Here, not in git_signals.cc: the events are built in `kaizen` too, which has no libgit2.)
const char* DetectorName(GitDetector d) {
  switch (d) {
    case GitDetector::kMerge:
      return "merge";
    case GitDetector::kRevertMessage:
      return "revert";
    case GitDetector::kRevertInverse:
      return "inverse_diff";
    case GitDetector::kHumanEdit:
      return "human_edit";
    case GitDetector::kIterationCount:
      return "iteration_count";
    case GitDetector::kTimeToCompletion:
      return "time_to_completion";
  }
  return "?";
}

const char* DetectorSignalType(GitDetector d) {
  switch (d) {
    case GitDetector::kMerge:
    case GitDetector::kRevertMessage:
    case GitDetector::kRevertInverse:
      return "merge_outcome";  // seed 001: merged / closed / reverted
    case GitDetector::kHumanEdit:
      return "human_edit_after_agent";  // no seed 001 normalization: signal_value is given
    case GitDetector::kIterationCount:
      return "iteration_count";
    case GitDetector::kTimeToCompletion:
      return "time_efficiency";
  }
  return "?";
}

namespace {

constexpr int64_t kDayMs = 86'400'000;
constexpr size_t kMaxIdentBytes = 256;  // model/limits.h: identifiers
// Each side of a correction: the classifier reads 16 KiB (text/correction_classifier.h).
constexpr size_t kMaxCorrectionTextBytes = 16 * 1024;

// Names from commits are bytes, not always UTF-8 (old repositories, other encodings), and may hold
// control characters; the log stores valid UTF-8 only (ingest reads it with simdjson, which refuses
// overlong forms, UTF-16 surrogates and values above U+10FFFF, as RFC 3629 does). Every byte that
// is not part of a well-formed sequence, and every control character, becomes '?'.
std::string Printable(std::string_view s, bool keep_layout = false) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const size_t len = b < 0x80                 ? 1
                       : b >= 0xC2 && b <= 0xDF ? 2
                       : (b >> 4) == 0xE        ? 3
                       : b >= 0xF0 && b <= 0xF4 ? 4
                                                : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (size_t k = 1; ok && k < len; ++k) {
      ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    }
    if (ok && len >= 3) {
      // The second byte's range rules out overlong forms (E0, F0), surrogates (ED) and code
      // points above U+10FFFF (F4).
      const auto b1 = static_cast<unsigned char>(s[i + 1]);
      ok = !(b == 0xE0 && b1 < 0xA0) && !(b == 0xED && b1 > 0x9F) && !(b == 0xF0 && b1 < 0x90) &&
           !(b == 0xF4 && b1 > 0x8F);
    }
    if (keep_layout && (b == '\n' || b == '\t')) {
      out += static_cast<char>(b);
      ++i;
    } else if (!ok || b < 0x20 || b == 0x7F) {
      out += '?';
      ++i;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace

std::string PrintableUtf8(std::string_view s) { return Printable(s); }

model::Uuid GitSignalUuid(const GitSignal& s) {
  std::string key = "kaizen git scan\n";
  key += DetectorName(s.detector);
  for (const std::string& sha : s.shas) key += "\n" + sha;
  uint8_t hash[16];
  crypto_generichash(hash, sizeof hash, reinterpret_cast<const unsigned char*>(key.data()),
                     key.size(), nullptr, 0);
  return model::MakeUuidV7(s.observed_ms, hash);
}

std::pair<std::string, std::string> GitAgentNameEmail(std::string_view identity) {
  const size_t lt = identity.find(" <");
  if (lt == std::string_view::npos) return {Printable(identity), ""};
  std::string_view email = identity.substr(lt + 2);
  if (!email.empty() && email.back() == '>') email.remove_suffix(1);
  return {Printable(identity.substr(0, lt)), Printable(email)};
}

std::string GitSignalLabel(const GitSignal& s) {
  std::string label = std::string("git:") + DetectorName(s.detector);
  for (const std::string& sha : s.shas) label += ":" + sha.substr(0, 12);
  return std::string(base::Utf8Prefix(Printable(label), kMaxIdentBytes));
}

std::string GitRewardEvent(const GitSignal& s, std::string_view repo, std::string_view task_type) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  model::Kind(w, model::EventKind::kReward);
  model::Key(w, EventField::id);
  base::Str(w, GitSignalUuid(s).ToString());
  model::Key(w, EventField::timestamp);
  base::Str(w, model::FormatUtc(s.observed_ms));
  model::Key(w, EventField::signal_id);
  base::Str(w, GitSignalLabel(s));
  model::Key(w, EventField::commit_hash);
  base::Str(w, s.agent_commit);
  if (s.detector == GitDetector::kMerge || s.detector == GitDetector::kIterationCount ||
      s.detector == GitDetector::kTimeToCompletion) {
    model::Key(w, EventField::task_id);
    base::Str(w, std::string(base::Utf8Prefix("git:" + Printable(repo), 200)) +
                     ":merge:" + s.shas.front().substr(0, 12));
  }
  model::Key(w, EventField::signal_type);
  w.String(DetectorSignalType(s.detector));
  model::Key(w, EventField::raw_value);
  w.RawValue(s.raw_json.data(), s.raw_json.size(),
             s.raw_json.front() == '"' ? rapidjson::kStringType : rapidjson::kNumberType);
  if (s.signal_value) {
    model::Key(w, EventField::signal_value);
    w.Double(*s.signal_value);
  }
  if (s.baseline_seconds) {
    model::Key(w, EventField::baseline_seconds);
    w.Double(*s.baseline_seconds);
  }
  model::Key(w, EventField::source);
  w.String("automatic");
  model::Key(w, EventField::confidence);
  w.Double(s.confidence);
  model::Key(w, EventField::delay_days);
  w.Int64(std::max<int64_t>(0, (s.observed_ms - s.action_ms) / kDayMs));
  // Where the signal came from, for people and tools reading the log; the reward schema keeps
  // `context` open. Strings are capped at the identifier limit and made printable UTF-8.
  model::Key(w, EventField::context);
  w.StartObject();
  model::Key(w, EventField::source);
  w.String("git");
  model::Key(w, ContextField::repo);
  base::Str(w, Printable(base::Utf8Prefix(repo, kMaxIdentBytes)));
  model::Key(w, ContextField::detector);
  w.String(DetectorName(s.detector));
  if (!task_type.empty()) {
    model::Key(w, ContextField::task_type);
    base::Str(w, base::Utf8Prefix(Printable(task_type), kMaxIdentBytes));
  }
  model::Key(w, ContextField::commits);
  w.StartArray();
  for (const std::string& sha : s.shas) base::Str(w, sha);
  w.EndArray();
  if (!s.agent.empty()) {
    auto [name, email] = GitAgentNameEmail(s.agent);
    model::Key(w, EventField::agent);
    base::Str(w, base::Utf8Prefix(name, kMaxIdentBytes));
    if (!email.empty()) {
      model::Key(w, ContextField::agent_email);
      base::Str(w, base::Utf8Prefix(email, kMaxIdentBytes));
    }
  }
  w.EndObject();
  w.EndObject();
  return b.GetString();
}

model::Uuid GitCorrectionUuid(const GitCorrection& x) {
  const std::string key = fmt::format("kaizen git scan\ncorrection\n{}\n{}\n{}\n{}", x.agent_commit,
                                      x.human_commit, x.path, x.line_start);
  uint8_t hash[16];
  crypto_generichash(hash, sizeof hash, reinterpret_cast<const unsigned char*>(key.data()),
                     key.size(), nullptr, 0);
  return model::MakeUuidV7(x.observed_ms, hash);
}

std::string GitCorrectionEvent(const GitCorrection& x, std::string_view repo,
                               std::string_view task_type) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  model::Kind(w, model::EventKind::kCorrection);
  model::Key(w, EventField::id);
  base::Str(w, GitCorrectionUuid(x).ToString());
  model::Key(w, EventField::timestamp);
  base::Str(w, model::FormatUtc(x.observed_ms));
  // The agent's work session is its commit: the corrections of one commit group together.
  model::Key(w, EventField::session_id);
  base::Str(w, "git:" + x.agent_commit.substr(0, 12));
  model::Key(w, EventField::original);
  base::Str(w, base::Utf8Prefix(Printable(x.original, true), kMaxCorrectionTextBytes));
  model::Key(w, EventField::corrected);
  base::Str(w, base::Utf8Prefix(Printable(x.corrected, true), kMaxCorrectionTextBytes));
  auto [human_name, human_email] = GitAgentNameEmail(x.human);
  if (!human_name.empty()) {
    model::Key(w, EventField::user_id);
    base::Str(w, base::Utf8Prefix(human_name, kMaxIdentBytes));
  }
  model::Key(w, EventField::correction_method);
  w.String("human_edit");
  model::Key(w, EventField::context);
  w.StartObject();
  model::Key(w, EventField::source);
  w.String("git");
  model::Key(w, EventField::project);  // seed 004 context.project: where a learned pattern applies
  base::Str(w, Printable(base::Utf8Prefix(repo, kMaxIdentBytes)));
  model::Key(w, EventField::file);
  base::Str(w, base::Utf8Prefix(Printable(x.path), kMaxIdentBytes * 4));
  model::Key(w, ContextField::line_start);
  w.Uint64(x.line_start);
  model::Key(w, ContextField::line_end);
  w.Uint64(x.line_end);
  model::Key(w, ContextField::new_line_start);
  w.Uint64(x.new_start);
  model::Key(w, ContextField::new_line_end);
  w.Uint64(x.new_end);
  model::Key(w, ContextField::agent_commit);
  base::Str(w, x.agent_commit);
  model::Key(w, ContextField::human_commit);
  base::Str(w, x.human_commit);
  if (!x.agent.empty()) {
    auto [name, email] = GitAgentNameEmail(x.agent);
    model::Key(w, EventField::agent);
    base::Str(w, base::Utf8Prefix(name, kMaxIdentBytes));
  }
  if (!task_type.empty()) {
    model::Key(w, ContextField::task_type);
    base::Str(w, base::Utf8Prefix(Printable(task_type), kMaxIdentBytes));
  }
  w.EndObject();
  w.EndObject();
  return b.GetString();
}

}  // namespace kaizen::signals
