// The rewrite of an event for privacy: which of its strings are free text to redact or ids to
// store as pseudonyms, and the copy with them replaced. Apart from privacy.cc's detection, which
// knows strings, not events.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_writer.h"
#include "ingest/enrich.h"
#include "ingest/privacy.h"
#include "model/json_access.h"

namespace kaizen::ingest {
namespace {

using base::JsonWriter;
using simdjson::dom::element;
using simdjson::dom::element_type;

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
