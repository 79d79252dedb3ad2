#include "text/code_correction.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>

#include "text/ascii_case.h"

namespace kaizen::text {
namespace {

bool IsIdentByte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '$';
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// Keywords that open a line of code and rarely a line of prose (compared case-sensitively, so
// "Let me know" is not `let`).
constexpr std::string_view kStrongKeywords[] = {
    "const",    "let",     "var",       "function",  "def",  "fn",     "func",  "impl",
    "#include", "#define", "namespace", "template",  "elif", "except", "async", "await",
    "pub",      "struct",  "enum",      "interface", "val",  "package"};
// Keywords that also open prose ("if", "return"): they count only on a line ending in ':'
// (Python's `if user is None:`, `else:`).
constexpr std::string_view kWeakKeywords[] = {
    "if",     "for",  "while", "return", "class",  "else", "try",  "catch",  "import",
    "export", "from", "raise", "throw",  "switch", "case", "with", "finally"};

// How much `line` (trimmed, non-empty) reads as code; 2 or more is a code line.
int CodeScore(std::string_view line) {
  int score = 0;
  const char last = line.back();
  if (last == ';' || last == '{' || last == '}' || last == '(' || last == '[') score += 2;
  if (line.starts_with("//") || line.starts_with("/*")) score += 2;
  for (std::string_view op :
       {"=>", "::", "===", "!==", "&&", "||", "?.", "??", ":=", "+=", "==", "!=", "){", ") {"}) {
    if (Contains(line, op)) {
      score += 2;
      break;
    }
  }
  if (Contains(line, " = ") || Contains(line, "->")) ++score;
  // A call or a definition: a name directly followed by '('.
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '(' && IsIdentByte(static_cast<unsigned char>(line[i - 1]))) {
      ++score;
      break;
    }
  }
  const size_t word_end = line.find_first_of(" (:<");
  if (word_end != std::string_view::npos) {
    const std::string_view first = line.substr(0, word_end);
    auto listed = [&](const auto& list) {
      return std::find(std::begin(list), std::end(list), first) != std::end(list);
    };
    if (listed(kStrongKeywords)) score += last == ':' ? 2 : 1;
    if (listed(kWeakKeywords) && last == ':') score += 2;
  }
  // snake_case or camelCase: '_' inside a name, or a lowercase letter followed by a capital.
  for (size_t i = 1; i + 1 < line.size(); ++i) {
    const char a = line[i - 1], b = line[i], c = line[i + 1];
    const bool snake = b == '_' && a >= 'a' && a <= 'z' && c >= 'a' && c <= 'z';
    const bool camel = a >= 'a' && a <= 'z' && b >= 'A' && b <= 'Z' && c >= 'a' && c <= 'z' &&
                       i >= 2 && line[i - 2] >= 'a' && line[i - 2] <= 'z';
    if (snake || camel) {
      ++score;
      break;
    }
  }
  return score;
}

// `any` at `at` is in a type position (see FindUnsafeTypeMarkers).
bool AnyIsAType(std::string_view text, size_t at, size_t len) {
  size_t after = at + len;
  while (after < text.size() && text[after] == ' ') ++after;
  const bool next_ok =
      after >= text.size() ||
      std::string_view("),;=>[|{}\n\r").find(text[after]) != std::string_view::npos;
  if (!next_ok) return false;
  size_t before = at;
  while (before > 0 && text[before - 1] == ' ') --before;
  if (before == 0) return false;
  const char p = text[before - 1];
  if (p == ':' || p == '<' || p == '|' || p == ',') return true;
  return before >= 2 && text.substr(before - 2, 2) == "as" &&
         (before == 2 || !IsIdentByte(static_cast<unsigned char>(text[before - 3])));
}

constexpr std::string_view kBuiltinTypes[] = {
    "any",   "unknown", "int",  "long",  "float", "double", "string", "number",  "boolean",
    "bool",  "object",  "void", "char",  "str",   "i32",    "i64",    "u32",     "u64",
    "usize", "f32",     "f64",  "never", "Any",   "Object", "String", "Integer", "interface"};

bool IsBuiltinType(std::string_view word) {
  return std::find(std::begin(kBuiltinTypes), std::end(kBuiltinTypes), word) !=
         std::end(kBuiltinTypes);
}

// Names people replace with a real type.
bool IsLooseType(std::string_view word) {
  return word == "any" || word == "Any" || word == "object" || word == "Object" ||
         word == "interface";
}

bool IsName(const Token& t) {
  const auto c = static_cast<unsigned char>(t.text.front());
  return !t.number && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_');
}

std::map<std::string_view, int> MarkerCounts(std::string_view text) {
  std::map<std::string_view, int> out;
  for (const UnsafeTypeMarker& m : FindUnsafeTypeMarkers(text)) ++out[m.marker];
  return out;
}

int NullSignals(std::string_view text, const std::vector<Token>& tokens) {
  int n = 0;
  for (const Token& t : tokens) {
    for (std::string_view w :
         {"null", "undefined", "nil", "None", "nullptr", "NULL", "Optional", "optional"}) {
      n += t.text == w ? 1 : 0;
    }
  }
  for (std::string_view op : {"?.", "??"}) {
    for (size_t at = text.find(op); at != std::string_view::npos; at = text.find(op, at + 2)) ++n;
  }
  return n;
}

int ErrorSignals(const std::vector<Token>& tokens) {
  int n = 0;
  for (const Token& t : tokens) {
    for (std::string_view w : {"try", "catch", "except", "finally", "throw", "throws", "raise",
                               "rescue", "err", "Err", "errors"}) {
      n += t.text == w ? 1 : 0;
    }
  }
  return n;
}

std::vector<std::string_view> TrimmedLines(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::string_view l : SplitLines(text.substr(0, kMaxClassifiedBytes))) {
    l = Trim(l);
    if (!l.empty()) out.push_back(l);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<bool> IsCodeFile(std::string_view file) {
  const size_t slash = file.find_last_of('/');
  const std::string_view name = slash == std::string_view::npos ? file : file.substr(slash + 1);
  const size_t dot = name.find_last_of('.');
  if (dot == std::string_view::npos || dot + 1 >= name.size() || name.size() - dot > 8) {
    return std::nullopt;
  }
  const std::string ext = ToLowerAscii(name.substr(dot + 1));
  static constexpr std::string_view kCode[] = {
      "c",     "cc",    "cpp", "cxx", "h",   "hh",   "hpp", "cs",     "java", "kt",  "kts",
      "scala", "go",    "rs",  "py",  "rb",  "php",  "js",  "jsx",    "mjs",  "cjs", "ts",
      "tsx",   "swift", "m",   "mm",  "sh",  "bash", "zsh", "lua",    "dart", "ex",  "exs",
      "erl",   "hs",    "ml",  "clj", "sql", "jl",   "vue", "svelte", "pl",   "r",   "zig"};
  static constexpr std::string_view kProse[] = {"md", "markdown", "txt", "rst", "adoc", "org"};
  if (std::find(std::begin(kCode), std::end(kCode), ext) != std::end(kCode)) return true;
  if (std::find(std::begin(kProse), std::end(kProse), ext) != std::end(kProse)) return false;
  return std::nullopt;
}

bool LooksLikeCode(std::string_view text) {
  size_t lines = 0, code = 0;
  bool fenced = false;
  for (std::string_view l : SplitLines(text.substr(0, kMaxClassifiedBytes))) {
    l = Trim(l);
    if (l.starts_with("```")) {
      fenced = !fenced;
      continue;
    }
    if (l.empty()) continue;
    ++lines;
    code += fenced || CodeScore(l) >= 2 ? 1 : 0;
  }
  return code > 0 && 2 * code >= lines;
}

bool IsCodeCorrection(std::string_view original, std::string_view corrected,
                      std::string_view file) {
  if (std::optional<bool> by_file = IsCodeFile(file)) return *by_file;
  return LooksLikeCode(original) || LooksLikeCode(corrected) ||
         !FindUnsafeTypeMarkers(original).empty();
}

std::vector<UnsafeTypeMarker> FindUnsafeTypeMarkers(std::string_view text) {
  text = text.substr(0, kMaxClassifiedBytes);
  std::vector<UnsafeTypeMarker> out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '@' && text.substr(i, 10) == "@ts-ignore") {
      out.push_back({i, 10, "ts-ignore"});
    } else if (c == '@' && text.substr(i, 11) == "@ts-nocheck") {
      out.push_back({i, 11, "ts-nocheck"});
    } else if (c == '#') {
      std::string_view rest = Trim(text.substr(i + 1, 20));
      for (std::string_view form : {"type: ignore", "type:ignore"}) {
        if (!rest.starts_with(form)) continue;
        const size_t end = static_cast<size_t>(rest.data() - text.data()) + form.size();
        out.push_back({i, end - i, "type: ignore"});
        break;
      }
    } else if ((c == 'a' || c == 'A') && text.substr(i + 1, 2) == "ny" &&
               (i == 0 || !IsIdentByte(static_cast<unsigned char>(text[i - 1]))) &&
               (i + 3 >= text.size() || !IsIdentByte(static_cast<unsigned char>(text[i + 3]))) &&
               AnyIsAType(text, i, 3)) {
      out.push_back({i, 3, "any"});
    }
  }
  return out;
}

std::vector<std::pair<std::string_view, std::string_view>> ConsistentRenames(const TokenDiff& d) {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  for (const DiffHunk& h : d.hunks) {
    if (h.orig_end - h.orig_begin != 1 || h.corr_end - h.corr_begin != 1) return {};
    const Token& old_name = d.original[h.orig_begin];
    const Token& new_name = d.corrected[h.corr_begin];
    if (!IsName(old_name) || !IsName(new_name)) return {};
    if (IsBuiltinType(old_name.text) || IsBuiltinType(new_name.text)) return {};
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const auto& r) { return r.first == old_name.text; });
    if (it == out.end()) {
      out.emplace_back(old_name.text, new_name.text);
    } else if (it->second != new_name.text) {
      return {};
    }
  }
  for (const auto& [old_name, new_name] : out) {
    for (const Token& t : d.corrected) {
      if (t.text == old_name) return {};
    }
    for (const Token& t : d.original) {
      if (t.text == new_name) return {};
    }
  }
  return out;
}

bool NarrowsAnyType(const TokenDiff& d) {
  for (const DiffHunk& h : d.hunks) {
    if (h.orig_end - h.orig_begin != 1 || h.corr_end - h.corr_begin != 1) continue;
    const std::string_view from = d.original[h.orig_begin].text;
    const std::string_view to = d.corrected[h.corr_begin].text;
    if ((from == "any" || from == "Any") && (to == "unknown" || to == "never")) return true;
  }
  return false;
}

size_t DeletedLines(std::string_view original, std::string_view corrected) {
  const std::vector<std::string_view> lo = TrimmedLines(original), lc = TrimmedLines(corrected);
  if (lc.size() >= lo.size() || !std::includes(lo.begin(), lo.end(), lc.begin(), lc.end())) {
    return 0;
  }
  std::vector<std::string_view> removed;
  std::set_difference(lo.begin(), lo.end(), lc.begin(), lc.end(), std::back_inserter(removed));
  const bool all_unsafe = std::all_of(removed.begin(), removed.end(), [](std::string_view l) {
    return !FindUnsafeTypeMarkers(l).empty();
  });
  return all_unsafe ? 0 : removed.size();
}

bool IsCodeCategory(std::string_view t) {
  return t == "type_safety" || t == "naming" || t == "null_handling" || t == "error_handling" ||
         t == "dead_code" || t == "code_fix";
}

// The rules, their order and confidences (kaizen's choices, strongest evidence first):
//   dead_code       0.70  lines deleted, none added or changed (DeletedLines)
//   type_safety     0.90  an unsafe type marker removed
//                   0.85  `any` / `object` replaced by another type name
//   naming          0.85  consistent renames (ConsistentRenames)
//   null_handling   0.75  more null signals than before, at least as many new as error signals
//   error_handling  0.75  more error-handling signals than before
//   code_fix        0.30  anything else
CorrectionClass ClassifyCodeCorrection(const TokenDiff& d, std::string_view original,
                                       std::string_view corrected) {
  original = original.substr(0, kMaxClassifiedBytes);
  corrected = corrected.substr(0, kMaxClassifiedBytes);
  CorrectionClass out;
  auto result = [&](std::string_view type, double confidence, std::string reason) {
    out.type = type;
    out.confidence = confidence;
    out.reasons.push_back(std::move(reason));
    return out;
  };
  if (const size_t n = DeletedLines(original, corrected); n > 0) {
    return result("dead_code", 0.70, fmt::format("removed {} line(s), added none", n));
  }
  {
    const auto before = MarkerCounts(original), after = MarkerCounts(corrected);
    for (const auto& [marker, n] : before) {
      auto it = after.find(marker);
      if (it == after.end() || it->second < n) {
        return result("type_safety", 0.90,
                      fmt::format("removed the unsafe type marker '{}'", marker));
      }
    }
  }
  for (const DiffHunk& h : d.hunks) {
    if (h.orig_end - h.orig_begin == 1 && h.corr_end - h.corr_begin == 1 &&
        IsLooseType(d.original[h.orig_begin].text) && IsName(d.corrected[h.corr_begin])) {
      return result("type_safety", 0.85,
                    fmt::format("narrowed '{}' to '{}'", d.original[h.orig_begin].text,
                                d.corrected[h.corr_begin].text.substr(0, 60)));
    }
  }
  if (auto renames = ConsistentRenames(d); !renames.empty()) {
    return result("naming", 0.85,
                  fmt::format("renamed '{}' to '{}' everywhere", renames[0].first.substr(0, 60),
                              renames[0].second.substr(0, 60)));
  }
  const int null_added = NullSignals(corrected, d.corrected) - NullSignals(original, d.original);
  const int error_added = ErrorSignals(d.corrected) - ErrorSignals(d.original);
  if (null_added > 0 && null_added >= error_added) {
    return result("null_handling", 0.75, fmt::format("added {} null check(s)", null_added));
  }
  if (error_added > 0) {
    return result("error_handling", 0.75,
                  fmt::format("added {} error-handling keyword(s)", error_added));
  }
  return result("code_fix", 0.30, "changed code; no specific signal");
}

}  // namespace kaizen::text
