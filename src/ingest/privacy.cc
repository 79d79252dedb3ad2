#include "ingest/privacy.h"

#include <absl/container/inlined_vector.h>
#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <re2/re2.h>
#include <sodium.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <mutex>
#include <set>
#include <span>

#include "base/json_writer.h"
#include "ingest/enrich.h"
#include "model/json_access.h"
#include "model/limits.h"
#include "text/ascii_case.h"

namespace kaizen::ingest {
namespace {

using base::JsonWriter;
using simdjson::dom::element;
using simdjson::dom::element_type;

constexpr std::array<std::string_view, kPiiCategoryCount> kCategoryNames = {
    "EMAIL", "PHONE", "SECRET", "NAME", "COMPANY"};

// One detector: an alternative of the combined pattern with exactly two capture groups, the
// context kept in clear (`password=`, `Bearer `) and the value replaced by the token. Patterns use
// only non-capturing groups inside.
struct Detector {
  PiiCategory category;
  std::string prefix;
  std::string value;
};

// No detector may stay undecided over a long run of text before its value: Find searches again
// after every match, and RE2 must let each attempt that started earlier die before it answers,
// so one that lived to the end of a 64 KiB run made each search scan the rest of it. An
// unbounded e-mail local part or `[a-z0-9_]*` before "password" made `xAnn` repeated over 60 KiB
// (with Ann listed) take 0.72 s, `-+12345678` repeated 0.56 s.
std::vector<Detector> BuiltinDetectors() {
  const PiiCategory s = PiiCategory::kSecret;
  return {
      // PEM private key blocks, whole; an unterminated one up to the end of the string.
      {s, "", R"(-----BEGIN[A-Z ]*PRIVATE KEY-----(?s:.*?)-----END[A-Z ]*PRIVATE KEY-----)"},
      {s, "", R"(-----BEGIN[A-Z ]*PRIVATE KEY-----(?s:.*))"},
      // JWTs: base64url header "eyJ..." . payload . signature.
      {s, "", R"(\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)"},
      {s, R"(\b(?i:bearer)[ \t]+)", R"([A-Za-z0-9._~+/=-]{8,})"},
      {s, "", R"(\b(?:AKIA|ASIA)[0-9A-Z]{16}\b)"},  // AWS access keys
      {s, "", R"(\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255})\b)"},
      {s, "", R"(\bxox[a-z]-[A-Za-z0-9-]{10,})"},  // Slack
      {s, "", R"(\bsk-[A-Za-z0-9_-]{20,})"},       // OpenAI, Anthropic
      // `password=...`, `api_key: ...`, `DB_PASSWORD="..."`: the value, not the name. The key
      // word wherever it stands in a name ("DB_" stays before the match, in clear either way).
      {s,
       R"((?i:(?:password|passwd|passphrase|secret|api[_-]?key|apikey|access[_-]?key|)"
       R"(private[_-]?key|(?:access|auth|refresh|api|session)[_-]?token)|\bpwd)["']?[ \t]*[:=])"
       R"([ \t]*["']?)",
       R"([^\s"',;]{3,})"},
      // The local part at most 64 bytes (RFC 5321).
      {PiiCategory::kEmail, "",
       R"([A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})"},
      // Phone numbers in the usual groupings; checked for 7..15 digits after the match.
      {PiiCategory::kPhone, "",
       R"((?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?|\b\d{2,4}[ .-])\d{3,4}[ .-]\d{3,4}\b|\+\d{8,15}\b)"},
  };
}

// A listed name or company as an alternative, longest first so "Acme Corp" wins over "Acme".
std::string ListPattern(std::vector<std::string> words) {
  std::sort(words.begin(), words.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  std::string p = "(?i:";
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) p += '|';
    p += RE2::QuoteMeta(words[i]);
  }
  return p + ")";
}

// A word character for the whole-word rule; bytes of multi-byte UTF-8 count as letters, so
// "Josée" does not match a listed "José".
bool IsWordByte(unsigned char c) {
  return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c == '_';
}

// A listed name or company is matched as a whole word: no word byte just before or after it.
bool StartsWord(std::string_view text, size_t begin) {
  return begin == 0 || !IsWordByte(static_cast<unsigned char>(text[begin - 1]));
}
bool EndsWord(std::string_view text, size_t end) {
  return end == text.size() || !IsWordByte(static_cast<unsigned char>(text[end]));
}

size_t CountDigits(std::string_view s) {
  return static_cast<size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }));
}

std::string PhoneKey(std::string_view s) {
  std::string key;
  for (char c : s) {
    if ((c >= '0' && c <= '9') || c == '+') key += c;
  }
  return key;
}

Status ConfigError(std::string_view path, std::string_view message) {
  return InvalidArgument(fmt::format("{}: {}", path, message));
}

}  // namespace

std::string_view PiiCategoryName(PiiCategory c) { return kCategoryNames[static_cast<size_t>(c)]; }

std::optional<PiiCategory> ParsePiiCategory(std::string_view name) {
  for (size_t i = 0; i < kCategoryNames.size(); ++i) {
    if (kCategoryNames[i] == name) return static_cast<PiiCategory>(i);
  }
  return std::nullopt;
}

std::string PiiToken(PiiCategory c, uint64_t number) {
  return fmt::format("[{}_{}]", PiiCategoryName(c), number);
}

Result<PrivacyConfig> ParsePrivacyConfig(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  element doc;
  if (auto err = parser.parse(padded).get(doc)) {
    return ConfigError("(file)", fmt::format("is not JSON: {}", simdjson::error_message(err)));
  }
  simdjson::dom::object root;
  if (doc.get_object().get(root) != simdjson::SUCCESS) {
    return ConfigError("(file)", "must be a JSON object {\"names\": [...], \"companies\": [...]}");
  }
  PrivacyConfig config;
  for (auto [key, value] : root) {
    std::vector<std::string>* list = key == "names"       ? &config.names
                                     : key == "companies" ? &config.companies
                                                          : nullptr;
    if (!list) {
      return ConfigError(key, "is not a known key (expected \"names\" or \"companies\")");
    }
    simdjson::dom::array items;
    if (value.get_array().get(items) != simdjson::SUCCESS) {
      return ConfigError(key, "must be a list of strings");
    }
    size_t i = 0;
    for (element item : items) {
      const std::string path = fmt::format("{}[{}]", key, i++);
      std::string_view s;
      if (item.get_string().get(s) != simdjson::SUCCESS) {
        return ConfigError(path, fmt::format("{} is not a string", simdjson::to_string(item)));
      }
      if (s.find_first_not_of(" \t\r\n") == std::string_view::npos) {
        return ConfigError(path, fmt::format("{} is empty (a name to redact has letters)",
                                             model::QuoteForMessage(s)));
      }
      if (s.size() > model::kMaxIdentifierBytes) {
        return ConfigError(path,
                           fmt::format("{} is longer than {} bytes", model::QuoteForMessage(s),
                                       model::kMaxIdentifierBytes));
      }
      if (!IsWordByte(static_cast<unsigned char>(s.front())) ||
          !IsWordByte(static_cast<unsigned char>(s.back()))) {
        return ConfigError(path, fmt::format("{} must start and end with a letter or digit "
                                             "(names are matched as whole words)",
                                             model::QuoteForMessage(s)));
      }
      list->emplace_back(s);
    }
  }
  return config;
}

Result<PrivacyConfig> LoadPrivacyConfig(const std::string& home, store::FileSystem* fs) {
  const std::string path = home + "/" + std::string(kPrivacyConfigFile);
  if (!fs->Exists(path)) return PrivacyConfig{};
  KZ_ASSIGN_OR_RETURN(std::string text, fs->ReadFrom(path, 0));
  auto config = ParsePrivacyConfig(text);
  if (!config.ok()) return InvalidArgument(path + ": " + config.status().message());
  return config;
}

struct Redactor::Compiled {
  // The detectors' one pattern, compiled on the first Find: compiling it is most of a one-event
  // `kaizen record` that has no free text to scan (about 4 ms). Compiled at Create when the config
  // lists names or companies, so a list that does not compile is reported there.
  std::string pattern;
  RE2::Options options;
  std::once_flag once;
  Status compiled;  // set once, with `re`
  std::unique_ptr<RE2> re;
  std::vector<PiiCategory> categories;  // per detector, in pattern order
  // The pattern compiled (once, thread-safe), or its error.
  Status Compile() {
    std::call_once(once, [this] {
      re = std::make_unique<RE2>(pattern, options);
      if (!re->ok()) {
        compiled = InvalidArgument("the PII patterns do not compile: " + re->error());
      } else if (re->NumberOfCapturingGroups() != static_cast<int>(2 * categories.size())) {
        compiled = Internal("a PII pattern has a capturing group of its own");
      }
    });
    return compiled;
  }
  // The listed names and companies, one alternation longest first: where the longest that
  // matches is not a whole word there ("Ann Lee" in "Ann Leeds"), a shorter one at the same place
  // may be ("Ann"). Then `names` says which list the word found is on.
  std::unique_ptr<RE2> listed;
  std::unique_ptr<RE2> names;
};

Redactor::Redactor(std::unique_ptr<Compiled> compiled) : compiled_(std::move(compiled)) {}
Redactor::~Redactor() = default;

Result<std::unique_ptr<Redactor>> Redactor::Create(const PrivacyConfig& config) {
  std::vector<Detector> detectors = BuiltinDetectors();
  // Names and companies in one list, so the longest listed word wins whichever list it is on:
  // a company "Ann Lee Ltd" is not cut to a name "Ann" and " Lee Ltd" left in clear.
  std::vector<std::string> listed = config.names;
  listed.insert(listed.end(), config.companies.begin(), config.companies.end());
  if (!listed.empty()) detectors.push_back({PiiCategory::kName, "", ListPattern(listed)});
  auto compiled = std::make_unique<Compiled>();
  std::string& pattern = compiled->pattern;
  for (const Detector& d : detectors) {
    if (!pattern.empty()) pattern += '|';
    pattern += "(" + d.prefix + ")(" + d.value + ")";
    compiled->categories.push_back(d.category);
  }
  RE2::Options& options = compiled->options;
  options.set_log_errors(false);
  options.set_max_mem(64 << 20);  // long name lists make a large automaton
  if (!listed.empty()) KZ_RETURN_IF_ERROR(compiled->Compile());
  auto compile_list = [&](const std::vector<std::string>& list, std::unique_ptr<RE2>* out) {
    if (list.empty()) return Status::Ok();
    *out = std::make_unique<RE2>(ListPattern(list), options);
    if ((*out)->ok()) return Status::Ok();
    return InvalidArgument("the listed names do not compile: " + (*out)->error());
  };
  KZ_RETURN_IF_ERROR(compile_list(listed, &compiled->listed));
  KZ_RETURN_IF_ERROR(compile_list(config.names, &compiled->names));
  std::unique_ptr<Redactor> r(new Redactor(std::move(compiled)));
  return r;
}

Result<std::shared_ptr<const Redactor>> SharedRedactor(const PrivacyConfig& config) {
  static std::mutex mu;
  static PrivacyConfig last_config;
  static std::shared_ptr<const Redactor> last;
  std::lock_guard<std::mutex> l(mu);
  if (!last || config.names != last_config.names || config.companies != last_config.companies) {
    KZ_ASSIGN_OR_RETURN(std::unique_ptr<Redactor> made, Redactor::Create(config));
    last = std::move(made);
    last_config = config;
  }
  return last;
}

void Redactor::Find(std::string_view text, std::vector<PiiMatch>* out) const {
  if (Status s = compiled_->Compile(); !s.ok()) {
    // The built-in detectors compile (privacy_test.cc); a list that does not was refused at
    // Create. Scanning nothing would store PII in clear: stop instead.
    fmt::print(stderr, "kaizen: {}\n", s.message());
    std::abort();
  }
  const RE2& re = *compiled_->re;
  const size_t groups = 2 * compiled_->categories.size();
  // A dozen detectors, two groups each: the submatches fit inline (a vector per string scanned
  // cost an allocation for every free-text field of every event).
  absl::InlinedVector<re2::StringPiece, 32> sub(1 + groups);
  size_t pos = 0;
  while (pos < text.size()) {
    re2::StringPiece whole(text.data(), text.size());
    if (!re.Match(whole, pos, text.size(), RE2::UNANCHORED, sub.data(),
                  static_cast<int>(sub.size()))) {
      return;
    }
    size_t d = 0;
    while (d < compiled_->categories.size() && sub[2 + 2 * d].data() == nullptr) ++d;
    const size_t match_begin = static_cast<size_t>(sub[0].data() - text.data());
    if (d == compiled_->categories.size() || sub[0].empty()) {
      pos = match_begin + 1;
      continue;
    }
    const re2::StringPiece value = sub[2 + 2 * d];
    PiiMatch m;
    m.category = compiled_->categories[d];
    m.begin = static_cast<size_t>(value.data() - text.data());
    m.end = m.begin + value.size();
    std::string_view v = text.substr(m.begin, value.size());
    bool accepted = true;
    switch (m.category) {
      case PiiCategory::kEmail:
        m.key = text::ToLowerAscii(v);
        break;
      case PiiCategory::kPhone: {
        const size_t digits = CountDigits(v);
        accepted = digits >= 7 && digits <= 15;
        m.key = PhoneKey(v);
        break;
      }
      case PiiCategory::kSecret:
        m.key = std::string(v);
        break;
      case PiiCategory::kName:
      case PiiCategory::kCompany:
        accepted = StartsWord(text, m.begin) && (EndsWord(text, m.end) || ShorterWord(text, &m));
        if (!accepted) break;
        v = text.substr(m.begin, m.end - m.begin);
        if (!compiled_->names ||
            !RE2::FullMatch(re2::StringPiece(v.data(), v.size()), *compiled_->names)) {
          m.category = PiiCategory::kCompany;
        }
        m.key = text::ToLowerAscii(v);
        break;
    }
    if (!accepted) {
      // Not PII here (a 6-digit number, "Annabel" for a listed "Ann"): look again one byte on.
      pos = match_begin + 1;
      continue;
    }
    out->push_back(std::move(m));
    pos = std::max(out->back().end, match_begin + 1);
  }
}

bool Redactor::ShorterWord(std::string_view text, PiiMatch* m) const {
  const re2::StringPiece whole(text.data(), text.size());
  re2::StringPiece found;
  // Each try must end before the last one did; the list is longest first and RE2 leftmost-first,
  // so the first word found is the longest that fits.
  for (size_t limit = m->end - 1; limit > m->begin; limit = m->end - 1) {
    if (!compiled_->listed->Match(whole, m->begin, limit, RE2::ANCHOR_START, &found, 1)) {
      return false;
    }
    m->end = m->begin + found.size();
    if (EndsWord(text, m->end)) return true;
  }
  return false;
}

std::string Redactor::Redact(std::string_view text, const TokenFn& token) const {
  std::vector<PiiMatch> matches;
  Find(text, &matches);
  if (matches.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16 * matches.size());
  size_t done = 0;
  for (const PiiMatch& m : matches) {
    out.append(text.substr(done, m.begin - done));
    out += token(m, text.substr(m.begin, m.end - m.begin));
    done = m.end;
  }
  out.append(text.substr(done));
  return out;
}

std::string Pseudonym(std::string_view id) {
  if (IsPseudonym(id)) return std::string(id);
  static const int kSodiumReady = sodium_init();
  (void)kSodiumReady;
  static constexpr std::string_view kDomain = "kaizen-id";
  crypto_generichash_state st;
  crypto_generichash_init(&st, nullptr, 0, 16);
  crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(kDomain.data()),
                            kDomain.size());
  const unsigned char sep = 0;
  crypto_generichash_update(&st, &sep, 1);
  crypto_generichash_update(&st, reinterpret_cast<const unsigned char*>(id.data()), id.size());
  unsigned char out[16];
  crypto_generichash_final(&st, out, sizeof out);
  char hex[33];
  sodium_bin2hex(hex, sizeof hex, out, sizeof out);
  return "blake2b:" + std::string(hex, 32);
}

bool IsPseudonym(std::string_view s) {
  if (s.size() != 8 + 32 || !s.starts_with("blake2b:")) return false;
  return std::all_of(s.begin() + 8, s.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

EventOwners OwnersOf(element event, model::EventKind kind) {
  using model::EventKind;
  EventOwners o;
  auto add = [&](auto* to, std::string_view key) {
    std::string_view v = model::StringAt(event, key);
    if (!v.empty()) to->push_back(v);
  };
  switch (kind) {
    case EventKind::kFeedback:
      add(&o.users, "reviewerId");
      add(&o.sessions, "sessionId");
      break;
    case EventKind::kWork:
      add(&o.sessions, "sessionId");
      break;
    case EventKind::kReward:
      add(&o.sessions, "session_id");
      break;
    case EventKind::kCorrection:
      add(&o.users, "user_id");
      add(&o.sessions, "session_id");
      break;
    case EventKind::kAdmin:
      add(&o.users, "reviewerId");
      add(&o.users, "user_id");
      add(&o.sessions, "session_id");
      break;
    case EventKind::kPrompt:
      add(&o.sessions, "session_id");
      break;
    default:
      break;
  }
  return o;
}

std::optional<ConsentChange> ConsentOf(element event, model::EventKind kind) {
  if (kind != model::EventKind::kAdmin || model::StringAt(event, "action") != "consent") {
    return std::nullopt;
  }
  ConsentChange c;
  c.user_id = model::StringAt(event, "user_id");
  bool on = true;
  if (c.user_id.empty() || event["learning_mode"].get_bool().get(on) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  c.learning_mode = on;
  return c;
}

namespace {

// The free-text paths of each kind: what the redactor scans. A correction's `context` is free-form:
// every string in it, at any depth, may be text from the document.
struct FreeTextPaths {
  std::span<const std::string_view> exact;
  bool context_subtree = false;
};

FreeTextPaths FreeTextPathsOf(model::EventKind kind) {
  using model::EventKind;
  static constexpr std::string_view kFeedback[] = {
      "freeText.liked",     "freeText.disliked",   "freeText.generalNotes",
      "decision.reason",    "decision.blockers[]", "decision.suggestions[]",
      "annotations[].text", "comparison.reason",   "scores[].comment"};
  static constexpr std::string_view kCorrection[] = {"original", "corrected"};
  static constexpr std::string_view kLoop[] = {"feedback"};
  static constexpr std::string_view kOutcome[] = {"description", "failure_details"};
  static constexpr std::string_view kError[] = {"message", "context", "stack_trace"};
  static constexpr std::string_view kAdmin[] = {"note"};
  static constexpr std::string_view kPrompt[] = {"text"};
  switch (kind) {
    case EventKind::kFeedback:
      return {kFeedback};
    case EventKind::kCorrection:
      return {kCorrection, true};
    case EventKind::kLoop:
      return {kLoop};
    case EventKind::kOutcome:
      return {kOutcome};
    case EventKind::kError:
      return {kError};
    case EventKind::kAdmin:
      return {kAdmin};
    case EventKind::kPrompt:
      return {kPrompt};
    default:
      return {};
  }
}

}  // namespace

bool IsFreeTextPath(model::EventKind kind, std::string_view path) {
  const FreeTextPaths paths = FreeTextPathsOf(kind);
  return std::find(paths.exact.begin(), paths.exact.end(), path) != paths.exact.end() ||
         (paths.context_subtree &&
          (path == "context" || path.starts_with("context.") || path.starts_with("context[")));
}

namespace {

bool IsPseudonymizedId(model::EventKind kind, element event, std::string_view path) {
  if (kind != model::EventKind::kAdmin || (path != "user_id" && path != "session_id")) return false;
  std::string_view action = model::StringAt(event, "action");
  return action == "consent" || action == "deletion_request";
}

// Walks every string of `v` with its path; `fn(path, s)` returns true to stop early.
template <typename Fn>
bool WalkStrings(element v, std::string& path, Fn& fn) {
  switch (v.type()) {
    case element_type::OBJECT:
      for (simdjson::dom::object o = v.get_object().value_unsafe(); auto [key, child] : o) {
        const size_t len = path.size();
        if (!path.empty()) path += '.';
        path += key;
        bool stop = WalkStrings(child, path, fn);
        path.resize(len);
        if (stop) return true;
      }
      return false;
    case element_type::ARRAY:
      for (simdjson::dom::array a = v.get_array().value_unsafe(); element child : a) {
        const size_t len = path.size();
        path += "[]";
        bool stop = WalkStrings(child, path, fn);
        path.resize(len);
        if (stop) return true;
      }
      return false;
    case element_type::STRING:
      return fn(std::string_view(path), v.get_string().value_unsafe());
    default:
      return false;
  }
}

// The strings of `v` at `path` (keys joined by '.', "[]" for each element of an array): those
// WalkStrings gives `fn` with that path, found without walking the rest of the event. REQUIRES: no
// object on the way has a key twice (validation refuses duplicate keys at every depth).
template <typename Fn>
bool StringsAt(element v, std::string_view path, Fn& fn) {
  if (path.empty()) {
    std::string_view s;
    return v.get_string().get(s) == simdjson::SUCCESS && fn(s);
  }
  if (path.starts_with("[]")) {
    simdjson::dom::array a;
    if (v.get_array().get(a) != simdjson::SUCCESS) return false;
    path.remove_prefix(path.starts_with("[].") ? 3 : 2);
    for (element child : a) {
      if (StringsAt(child, path, fn)) return true;
    }
    return false;
  }
  const size_t end = std::min(path.find_first_of(".["), path.size());
  simdjson::dom::object o;
  element child;
  if (v.get_object().get(o) != simdjson::SUCCESS ||
      o.at_key(path.substr(0, end)).get(child) != simdjson::SUCCESS) {
    return false;
  }
  path.remove_prefix(end < path.size() && path[end] == '.' ? end + 1 : end);
  return StringsAt(child, path, fn);
}

// Whether any free-text string of `event` holds PII, or an id that must be stored as a pseudonym
// is not one yet: RewriteForPrivacy's question, asked of the few paths that can answer yes (a
// walk of every string, paths built for each, cost a twentieth of the whole import). The strings
// are searched as one text, each followed by a '\n': a feedback event has a dozen, and RE2's
// set-up for each search cost more than the search. No detector matches across a '\n' but the
// unterminated private key, which needs its BEGIN line within one string, where it matches
// alone too; and a match that starts or ends at a '\n' is at a string's edge, a word boundary as
// it is at either end of a string (PII found in the joined text is also found string by string,
// and what is not found there is not here).
bool NeedsRewrite(element event, model::EventKind kind, const Redactor& redactor) {
  thread_local std::string joined;
  joined.clear();
  auto add = [&](std::string_view s) {
    joined.append(s);
    joined.push_back('\n');
    return false;  // every string
  };
  const FreeTextPaths paths = FreeTextPathsOf(kind);
  for (std::string_view path : paths.exact) StringsAt(event, path, add);
  if (paths.context_subtree) {
    element context;
    std::string path = "context";
    auto add_any = [&](std::string_view, std::string_view s) { return add(s); };
    if (event["context"].get(context) == simdjson::SUCCESS) WalkStrings(context, path, add_any);
  }
  if (!joined.empty()) {
    std::vector<PiiMatch> matches;
    redactor.Find(joined, &matches);
    if (!matches.empty()) return true;
  }
  for (std::string_view key : {"user_id", "session_id"}) {
    auto not_pseudonym = [](std::string_view s) { return !IsPseudonym(s); };
    if (IsPseudonymizedId(kind, event, key) && StringsAt(event, key, not_pseudonym)) return true;
  }
  return false;
}

struct PrivacyWriter {
  model::EventKind kind;
  element event;
  const Redactor& redactor;
  const Redactor::TokenFn& token;
  base::JsonWriter& w;
  std::string path;

  void String(std::string_view s) {
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  }
  void Write(element v) {
    switch (v.type()) {
      case element_type::OBJECT:
        w.StartObject();
        for (simdjson::dom::object o = v.get_object().value_unsafe(); auto [key, child] : o) {
          w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
          const size_t len = path.size();
          if (!path.empty()) path += '.';
          path += key;
          Write(child);
          path.resize(len);
        }
        w.EndObject();
        return;
      case element_type::ARRAY:
        w.StartArray();
        for (simdjson::dom::array a = v.get_array().value_unsafe(); element child : a) {
          const size_t len = path.size();
          path += "[]";
          Write(child);
          path.resize(len);
        }
        w.EndArray();
        return;
      case element_type::STRING: {
        std::string_view s = v.get_string().value_unsafe();
        if (IsFreeTextPath(kind, path)) {
          String(redactor.Redact(s, token));
        } else if (IsPseudonymizedId(kind, event, path)) {
          String(Pseudonym(s));
        } else {
          String(s);
        }
        return;
      }
      default:
        CopyJson(v, w);
        return;
    }
  }
};

}  // namespace

bool RewriteForPrivacy(element event, model::EventKind kind, const Redactor& redactor,
                       const Redactor::TokenFn& token, std::string* out) {
  if (!NeedsRewrite(event, kind, redactor)) return false;
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  PrivacyWriter writer{kind, event, redactor, token, w, {}};
  writer.Write(event);
  out->assign(buffer.GetString(), buffer.GetSize());
  return true;
}

}  // namespace kaizen::ingest
