// The privacy stage of the pipeline (docs/architecture.md: enrich -> privacy -> append), after
// seed 000 §9 and seed 004 "Privacy & Data Governance": PII in free text is replaced by tokens
// ([EMAIL_1], [PHONE_1], [SECRET_1], [NAME_1], [COMPANY_1]) before anything is written, ids in
// consent and deletion events are stored as pseudonyms, and the events of a user who switched
// learning mode off are not stored at all (the consent gate, in the Ingestor).
#pragma once

#include <absl/container/inlined_vector.h>
#include <simdjson.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"
#include "model/event_kind.h"
#include "store/file_system.h"

namespace kaizen::ingest {

enum class PiiCategory : uint8_t { kEmail, kPhone, kSecret, kName, kCompany };
inline constexpr int kPiiCategoryCount = 5;

// "EMAIL", "PHONE", "SECRET", "NAME", "COMPANY": the word in the token.
std::string_view PiiCategoryName(PiiCategory c);
std::optional<PiiCategory> ParsePiiCategory(std::string_view name);
// "[NAME_3]".
std::string PiiToken(PiiCategory c, uint64_t number);

// <home>/config/privacy.json: {"names": [...], "companies": [...]}, both optional. Matched
// case-insensitively as whole words (seed 004: "John Smith" -> "[NAME_1]", "Google" ->
// "[COMPANY_1]"); at one place the longest listed word that is whole there wins, whichever list
// it is on.
inline constexpr std::string_view kPrivacyConfigFile = "config/privacy.json";
struct PrivacyConfig {
  std::vector<std::string> names;
  std::vector<std::string> companies;
};

// InvalidArgument names the JSON path, the value and the rule: `names[2]: 42 is not a string`.
Result<PrivacyConfig> ParsePrivacyConfig(std::string_view json);
// The home's config, or an empty one when the file does not exist. Errors start with the path.
Result<PrivacyConfig> LoadPrivacyConfig(const std::string& home, store::FileSystem* fs);

// One piece of PII found in a string: bytes [begin, end) of it.
struct PiiMatch {
  PiiCategory category = PiiCategory::kEmail;
  size_t begin = 0, end = 0;
  // What makes two occurrences the same value, so they get the same token: emails and listed
  // names/companies case-folded (a name to its spelling in the config), phones as their digits,
  // secrets as they are.
  std::string key;
};

// Finds PII with one precompiled RE2 (every detector an alternative of one pattern), so a string
// is scanned in a single left-to-right pass and nothing is compiled per event. Thread-safe.
class Redactor {
 public:
  static Result<std::unique_ptr<Redactor>> Create(const PrivacyConfig& config);
  ~Redactor();

  // Appends the matches in `text`, left to right, not overlapping.
  void Find(std::string_view text, std::vector<PiiMatch>* out) const;
  // `text` with every match replaced by token(match, matched bytes).
  using TokenFn = std::function<std::string(const PiiMatch&, std::string_view value)>;
  std::string Redact(std::string_view text, const TokenFn& token) const;

 private:
  struct Compiled;
  explicit Redactor(std::unique_ptr<Compiled> compiled);
  // *m, a listed name or company that does not end a word in `text`: narrows it to the longest
  // listed word at the same place that does, if one does.
  bool ShorterWord(std::string_view text, PiiMatch* m) const;
  std::unique_ptr<Compiled> compiled_;
};

// The redactor for `config`, shared: the last one made is kept for the process, so a server that
// checks every hook's prompt builds it once instead of once a call. Thread-safe.
Result<std::shared_ptr<const Redactor>> SharedRedactor(const PrivacyConfig& config);

// How user and session ids are stored in `admin` consent and deletion_request events, so the audit
// trail does not keep them in clear text: "blake2b:" and the hex BLAKE2b-128 of the id.
// Idempotent (a pseudonym maps to itself). A pseudonym, not anonymity: whoever knows an id can
// hash it and find its events; that is what the consent gate needs.
std::string Pseudonym(std::string_view id);
bool IsPseudonym(std::string_view s);

// Whose an event is: the user fields (feedback and admin `reviewerId`, correction and admin
// `user_id`) and session fields (`sessionId`, `session_id`) it carries. Views into `event`.
struct EventOwners {  // an admin event names two users at most, every kind one session
  absl::InlinedVector<std::string_view, 2> users;
  absl::InlinedVector<std::string_view, 2> sessions;
};
EventOwners OwnersOf(simdjson::dom::element event, model::EventKind kind);

// The consent gate's view of an `admin` event: {"action":"consent","user_id":U,
// "learning_mode":B}. nullopt for any other event.
struct ConsentChange {
  std::string_view user_id;
  bool learning_mode = true;
};
std::optional<ConsentChange> ConsentOf(simdjson::dom::element event, model::EventKind kind);

// True when `path` (object keys joined by '.', array elements as "[]", e.g.
// "annotations[].text") holds free text in an event of `kind`: the strings redacted at ingest.
bool IsFreeTextPath(model::EventKind kind, std::string_view path);

// The event as compact JSON (its keys in order) with PII in free-text strings replaced by
// token(...) and the ids of admin consent/deletion_request events replaced by their Pseudonym.
// Returns false, leaving *out untouched, when nothing needs replacing (the common case: no copy).
bool RewriteForPrivacy(simdjson::dom::element event, model::EventKind kind,
                       const Redactor& redactor, const Redactor::TokenFn& token, std::string* out);

}  // namespace kaizen::ingest
