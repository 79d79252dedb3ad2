// Whose an event is and what it says about consent (the consent gate's and the PII vault's
// questions), and the pseudonyms consent and deletion events store: the privacy that is about
// people, apart from the finding of PII in text (privacy.cc).
#include <sodium.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "ingest/privacy.h"
#include "model/json_access.h"

namespace kaizen::ingest {

using simdjson::dom::element;

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

}  // namespace kaizen::ingest
