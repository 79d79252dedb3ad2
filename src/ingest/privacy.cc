#include "ingest/privacy.h"

#include <absl/container/inlined_vector.h>
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <mutex>

#include "model/json_access.h"
#include "model/limits.h"
#include "text/ascii_case.h"

namespace kaizen::ingest {
namespace {

using simdjson::dom::element;

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

}  // namespace kaizen::ingest
