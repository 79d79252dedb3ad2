#include "learn/correction_patterns.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_set>

#include "ingest/ascii_case.h"
#include "ingest/correction_classifier.h"
#include "model/timestamp.h"
#include "model/utf8.h"

namespace kaizen::learn {
namespace {

using ingest::Token;

constexpr size_t kMaxWordsPerGroup = 256;  // distinct words/phrases a group counts (memory bound)
constexpr size_t kMaxVerbsPerGroup = 64;
constexpr size_t kMaxWordsShown = 20;
constexpr size_t kMaxPhraseTokens = 5;
constexpr size_t kMaxExampleBytes = 300;
constexpr int64_t kMinLineWordsLimit = 5;  // never flag lines of 5 words or fewer as too long

// `s` cut to `max` bytes on a UTF-8 boundary.
std::string Cut(std::string_view s, size_t max) { return std::string(model::Utf8Prefix(s, max)); }

// A file-name-safe id part: ASCII lowercase letters, digits and '_' kept, runs of anything else
// become one '-', at most 64 bytes.
std::string Slug(std::string_view s) {
  std::string out;
  for (char c : s) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c - 'A' + 'a');
    } else if (keep) {
      out += c;
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
    if (out.size() >= 64) break;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string PatternId(std::string_view type, CorrectionPatternKind kind, std::string_view key) {
  std::string type_slug = Slug(type);
  std::string id = (type_slug.empty() ? "type" : type_slug) + "-" + std::string(KindName(kind));
  if (std::string k = Slug(key); !k.empty()) id += "-" + k;
  return id;
}

bool HasNumber(const std::vector<Token>& tokens) {
  return std::any_of(tokens.begin(), tokens.end(), [](const Token& t) { return t.number; });
}

std::map<std::string, int> OpenerCounts(std::string_view text) {
  std::map<std::string, int> out;
  for (std::string_view line : ingest::SplitLines(text)) {
    std::string_view o = ingest::PassiveOpener(line);
    if (!o.empty()) ++out[std::string(o)];
  }
  return out;
}

std::set<std::string> HeadingSet(std::string_view text) {
  std::set<std::string> out;
  for (std::string_view line : ingest::SplitLines(text)) {
    std::string h = ingest::HeadingOf(line);
    if (!h.empty()) out.insert(std::move(h));
  }
  return out;
}

std::set<std::string> JargonIn(const std::vector<Token>& tokens) {
  std::set<std::string> out;
  for (const Token& t : tokens) {
    std::string_view j = ingest::JargonWord(t.text);
    if (!j.empty()) out.insert(std::string(j));
  }
  return out;
}

std::vector<std::string_view> NonEmptyLines(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::string_view l : ingest::SplitLines(text)) {
    if (l.find_first_not_of(" \t\r") != std::string_view::npos) out.push_back(l);
  }
  return out;
}

template <typename T>
void AddCapped(std::map<std::string, int64_t>* counts, T&& word, size_t cap) {
  auto it = counts->find(word);
  if (it != counts->end()) {
    ++it->second;
  } else if (counts->size() < cap) {
    counts->emplace(std::forward<T>(word), 1);
  }
}

}  // namespace

ConfigFields CorrectionPatternConfig::Fields() {
  return {
      {"corrections.min_instances", &min_instances, 2, 1e9, true,
       "similar corrections a pattern needs (seed 004: 3+)"},
      {"corrections.count_half", &count_half, 0.1, 1e6, false,
       "corrections at which a pattern's count factor n/(n+k) is 0.5 (3.5: 20 -> 0.85, seed 004)"},
      {"corrections.promote_approvals", &promote_approvals, 1, 1e6, true,
       "approvals that promote a pattern (seed 004: 5+)"},
      {"corrections.enforce_min_confidence", &enforce_min_confidence, 0, 1, false,
       "confidence at which `kaizen validate` enforces a pattern"},
      {"corrections.max_examples", &max_examples, 0, 100, true, "examples kept per pattern"},
  };
}

std::string_view KindName(CorrectionPatternKind kind) {
  switch (kind) {
    case CorrectionPatternKind::kOpener:
      return "opener";
    case CorrectionPatternKind::kJargon:
      return "jargon";
    case CorrectionPatternKind::kSection:
      return "section";
    case CorrectionPatternKind::kMetric:
      return "metric";
    case CorrectionPatternKind::kLength:
      return "length";
    case CorrectionPatternKind::kPhrase:
      return "phrase";
  }
  return "phrase";
}

std::string_view StatusName(CorrectionPatternStatus status) {
  switch (status) {
    case CorrectionPatternStatus::kCandidate:
      return "candidate";
    case CorrectionPatternStatus::kActive:
      return "active";
    case CorrectionPatternStatus::kPromoted:
      return "promoted";
    case CorrectionPatternStatus::kRejected:
      return "rejected";
  }
  return "candidate";
}

bool CorrectionPattern::Enforced(double min_confidence) const {
  if (status == CorrectionPatternStatus::kRejected) return false;
  return status == CorrectionPatternStatus::kPromoted || confidence >= min_confidence;
}

CorrectionChange AnalyzeChange(std::string_view correction_type, std::string_view original,
                               std::string_view corrected) {
  const ingest::TokenDiff d = ingest::DiffTokens(original, corrected);
  CorrectionChange ch;
  ch.original_words = d.original.size();
  ch.corrected_words = d.corrected.size();
  {
    std::map<uint32_t, size_t> per_line;
    for (const Token& t : d.corrected) ++per_line[t.line];
    for (const auto& [line, n] : per_line)
      ch.longest_corrected_line = std::max(ch.longest_corrected_line, n);
  }

  // The reverse changes first: they are counted whatever this correction's own kind is.
  const std::map<std::string, int> oo = OpenerCounts(original), oc = OpenerCounts(corrected);
  std::string opener_removed;
  for (const auto& [opener, n] : oc) {
    auto it = oo.find(opener);
    if (it == oo.end() || it->second < n) ch.openers_added.push_back(opener);
  }
  for (std::string_view line : ingest::SplitLines(original)) {
    std::string o(ingest::PassiveOpener(line));
    if (o.empty()) continue;
    auto it = oc.find(o);
    if (it == oc.end() || it->second < oo.at(o)) {
      opener_removed = o;
      break;
    }
  }
  const std::set<std::string> ho = HeadingSet(original), hc = HeadingSet(corrected);
  std::vector<std::string> headings_added;
  std::set_difference(hc.begin(), hc.end(), ho.begin(), ho.end(),
                      std::back_inserter(headings_added));
  std::set_difference(ho.begin(), ho.end(), hc.begin(), hc.end(),
                      std::back_inserter(ch.headings_removed));
  const std::set<std::string> jo = JargonIn(d.original), jc = JargonIn(d.corrected);
  std::vector<std::string> jargon_removed;
  std::set_difference(jo.begin(), jo.end(), jc.begin(), jc.end(),
                      std::back_inserter(jargon_removed));
  ch.jargon_added =
      std::any_of(jc.begin(), jc.end(), [&](const std::string& j) { return !jo.contains(j); });
  size_t numbers_removed = 0, numbers_added = 0;
  std::vector<std::string> vague_removed, phrases_removed;
  for (const ingest::DiffHunk& h : d.hunks) {
    bool all_numbers = true;
    for (size_t k = h.orig_begin; k < h.orig_end; ++k) {
      numbers_removed += d.original[k].number ? 1 : 0;
      all_numbers = all_numbers && d.original[k].number;
      std::string_view v = ingest::VagueWord(d.original[k].text);
      if (!v.empty()) vague_removed.emplace_back(v);
    }
    for (size_t k = h.corr_begin; k < h.corr_end; ++k) numbers_added += d.corrected[k].number;
    const size_t len = h.orig_end - h.orig_begin;
    if (len >= 1 && len <= kMaxPhraseTokens && !all_numbers) {
      std::string phrase;
      for (size_t k = h.orig_begin; k < h.orig_end; ++k) {
        if (!phrase.empty()) phrase += ' ';
        phrase += ingest::ToLowerAscii(d.original[k].text);
      }
      phrases_removed.push_back(std::move(phrase));
    }
  }
  ch.numbers_only_removed = numbers_removed > 0 && numbers_added == 0;
  const double ow = static_cast<double>(ch.original_words);
  const double cw = static_cast<double>(ch.corrected_words);
  ch.lengthened = ow > 0 && cw >= 1.25 * ow;

  if (!opener_removed.empty()) {
    ch.kind = CorrectionPatternKind::kOpener;
    ch.key = opener_removed;
    // The first word of the corrected line that stands where the first opener line stood.
    const std::vector<std::string_view> lo = NonEmptyLines(original), lc = NonEmptyLines(corrected);
    for (size_t i = 0; i < lo.size(); ++i) {
      if (ingest::PassiveOpener(lo[i]) != opener_removed) continue;
      std::vector<Token> t = ingest::Tokenize(i < lc.size() ? lc[i] : corrected);
      if (!t.empty() && ingest::IsActionVerb(t.front().text)) ch.verb = std::string(t.front().text);
      break;
    }
  } else if (!jargon_removed.empty()) {
    ch.kind = CorrectionPatternKind::kJargon;
    ch.words = std::move(jargon_removed);
  } else if (!headings_added.empty()) {
    ch.kind = CorrectionPatternKind::kSection;
    ch.key = headings_added.front();
  } else if (numbers_added > 0 && numbers_removed == 0) {
    ch.kind = CorrectionPatternKind::kMetric;
    ch.words = std::move(vague_removed);
  } else if ((ow > 0 && cw <= 0.8 * ow) || correction_type == "excessive_detail") {
    ch.kind = CorrectionPatternKind::kLength;
  } else {
    ch.kind = CorrectionPatternKind::kPhrase;
    std::sort(phrases_removed.begin(), phrases_removed.end());
    phrases_removed.erase(std::unique(phrases_removed.begin(), phrases_removed.end()),
                          phrases_removed.end());
    ch.words = std::move(phrases_removed);
  }
  return ch;
}

CorrectionPatternLearner::CorrectionPatternLearner(const CorrectionPatternConfig& config)
    : config_(config) {}

std::string_view CorrectionGroupType(const CorrectionView& c) {
  // A line stored before ingest proposed types may lack one: propose it here the same way.
  std::string_view type = c.correction_type;
  if (type.empty() || type == "auto")
    type = ingest::ClassifyCorrection(c.original, c.corrected).type;
  return type;
}

void CorrectionPatternLearner::Add(const CorrectionView& c) {
  const std::string_view type = CorrectionGroupType(c);
  CorrectionChange ch = AnalyzeChange(type, c.original, c.corrected);
  Add(c, type, &ch);
}

void CorrectionPatternLearner::Add(const CorrectionView& c, std::string_view type,
                                   CorrectionChange* change) {
  ++corrections_;
  CorrectionChange& ch = *change;
  for (const std::string& o : ch.openers_added) ++openers_added_[o];
  for (const std::string& h : ch.headings_removed) ++headings_removed_[h];
  jargon_added_ += ch.jargon_added;
  lengthened_ += ch.lengthened;
  numbers_only_removed_ += ch.numbers_only_removed;

  Group& g = groups_[PatternId(type, ch.kind, ch.key)];
  if (g.n == 0) {
    g.type = std::string(type);
    g.kind = ch.kind;
    g.key = ch.key;
    g.first_ms = c.at_ms;
  }
  ++g.n;
  g.first_ms = std::min(g.first_ms, c.at_ms);
  g.last_ms = std::max(g.last_ms, c.at_ms);
  if (!c.project.empty()) g.projects.insert(Cut(c.project, 256));
  if (!c.user_id.empty()) g.users.insert(std::string(c.user_id));
  for (std::string& w : ch.words) AddCapped(&g.words, std::move(w), kMaxWordsPerGroup);
  if (!ch.verb.empty()) AddCapped(&g.verbs, std::move(ch.verb), kMaxVerbsPerGroup);
  g.ratio_sum += ch.original_words == 0 ? 1.0
                                        : static_cast<double>(ch.corrected_words) /
                                              static_cast<double>(ch.original_words);
  g.max_line_words = std::max(g.max_line_words, static_cast<int64_t>(ch.longest_corrected_line));
  if (g.examples.size() < static_cast<size_t>(config_.max_examples)) {
    g.examples.push_back({Cut(c.original, kMaxExampleBytes), Cut(c.corrected, kMaxExampleBytes),
                          std::string(c.user_id), std::string(c.project), c.at_ms});
  }
}

void CorrectionPatternLearner::Add(const AdminView& a) {
  if (a.action != "rule_audit" || a.rule_id.empty()) return;
  if (a.verdict != "confirm" && a.verdict != "retire") return;
  std::string_view person = !a.reviewer.empty() ? a.reviewer : a.user_id;
  if (person.empty()) person = "(anonymous)";
  audits_[std::string(a.rule_id)][std::string(person)] = a.verdict == "confirm";
}

CorrectionPattern CorrectionPatternLearner::Build(const std::string& id, const Group& g) const {
  CorrectionPattern p;
  p.id = id;
  p.correction_type = g.type;
  p.kind = g.kind;
  p.key = g.key;
  p.occurrences = g.n;
  auto count_of = [](const std::map<std::string, int64_t>& m, const std::string& k) -> int64_t {
    auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
  };
  switch (g.kind) {
    case CorrectionPatternKind::kOpener:
      p.against = count_of(openers_added_, g.key);
      break;
    case CorrectionPatternKind::kJargon:
      p.against = jargon_added_;
      break;
    case CorrectionPatternKind::kSection:
      p.against = count_of(headings_removed_, g.key);
      break;
    case CorrectionPatternKind::kMetric:
      p.against = numbers_only_removed_;
      break;
    case CorrectionPatternKind::kLength:
      p.against = lengthened_;
      break;
    case CorrectionPatternKind::kPhrase:
      p.against = 0;
      break;
  }
  const double n = static_cast<double>(g.n);
  p.consistency = n / (n + static_cast<double>(p.against));
  // n / (n + k): 0.5 at n = k, approaching 1 with more corrections; k = 3.5 gives the seed's
  // example, 20 consistent corrections -> 20 / 23.5 = 0.85.
  p.confidence = p.consistency * n / (n + config_.count_half);
  p.applicable_to.assign(g.projects.begin(), g.projects.end());
  p.users.assign(g.users.begin(), g.users.end());
  p.first_ms = g.first_ms;
  p.last_ms = g.last_ms;
  for (const auto& [word, count] : g.words) {
    if (g.kind == CorrectionPatternKind::kPhrase && count < config_.min_instances) continue;
    p.words.push_back({word, count});
  }
  std::stable_sort(p.words.begin(), p.words.end(),
                   [](const WordCount& a, const WordCount& b) { return a.count > b.count; });
  if (p.words.size() > kMaxWordsShown) p.words.resize(kMaxWordsShown);
  int64_t best = 0;
  for (const auto& [verb, count] : g.verbs) {
    if (count > best) {
      best = count;
      p.verb = verb;
    }
  }
  p.length_ratio = g.ratio_sum / n;
  p.max_line_words = g.max_line_words;
  p.examples = g.examples;
  if (auto it = audits_.find(id); it != audits_.end()) {
    for (const auto& [person, confirmed] : it->second) {
      (confirmed ? p.approved_by : p.rejected_by).push_back(person);
    }
  }
  const double approvals = static_cast<double>(p.approved_by.size());
  const double rejections = static_cast<double>(p.rejected_by.size());
  if (approvals + rejections > 0) {
    // seed 004: consensus_score = users_confirmed / (users_confirmed + users_rejected).
    p.consensus = approvals / (approvals + rejections);
  }
  if (p.consensus && *p.consensus < 0.5) {
    p.status = CorrectionPatternStatus::kRejected;
  } else if (approvals >= config_.promote_approvals) {
    p.status = CorrectionPatternStatus::kPromoted;
  } else if (p.confidence >= config_.enforce_min_confidence) {
    p.status = CorrectionPatternStatus::kActive;
  }
  return p;
}

std::vector<CorrectionPattern> CorrectionPatternLearner::Patterns() const {
  std::vector<CorrectionPattern> out;
  for (const auto& [id, g] : groups_) {
    if (static_cast<double>(g.n) >= config_.min_instances) out.push_back(Build(id, g));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const CorrectionPattern& a, const CorrectionPattern& b) {
                     return a.confidence > b.confidence;
                   });
  return out;
}

std::vector<PatternViolation> FindViolations(const std::vector<CorrectionPattern>& patterns,
                                             std::string_view text, double min_confidence) {
  const std::vector<std::string_view> lines = ingest::SplitLines(text);
  std::vector<std::vector<Token>> tokens;
  tokens.reserve(lines.size());
  for (std::string_view l : lines) tokens.push_back(ingest::Tokenize(l));
  const std::set<std::string> headings = HeadingSet(text);
  std::vector<PatternViolation> out;
  auto flag = [&](size_t line, size_t column, const CorrectionPattern& p, std::string what) {
    out.push_back({line + 1, column + 1, p.id, std::move(what)});
  };
  auto column_of = [&](size_t line, const Token& t) {
    return static_cast<size_t>(t.text.data() - lines[line].data());
  };

  for (const CorrectionPattern& p : patterns) {
    if (!p.Enforced(min_confidence)) continue;
    switch (p.kind) {
      case CorrectionPatternKind::kOpener:
        for (size_t i = 0; i < lines.size(); ++i) {
          // "Was responsible for" also goes against a "responsible for" pattern.
          const std::string_view opener = ingest::PassiveOpener(lines[i]);
          if (opener != p.key && !(opener.size() > p.key.size() && opener.ends_with(" " + p.key))) {
            continue;
          }
          const size_t at = ingest::OpenerOffset(lines[i]);
          flag(i, at, p, fmt::format("passive opener '{}'", lines[i].substr(at, opener.size())));
        }
        break;
      case CorrectionPatternKind::kJargon: {
        std::unordered_set<std::string> words;
        for (const WordCount& w : p.words) words.insert(w.word);
        for (size_t i = 0; i < lines.size(); ++i) {
          for (const Token& t : tokens[i]) {
            if (t.text.size() <= 40 && words.contains(ingest::ToLowerAscii(t.text))) {
              flag(i, column_of(i, t), p, fmt::format("jargon '{}'", t.text));
            }
          }
        }
        break;
      }
      case CorrectionPatternKind::kMetric: {
        std::unordered_set<std::string> vague;
        for (const WordCount& w : p.words) vague.insert(w.word);
        for (size_t i = 0; i < lines.size(); ++i) {
          if (HasNumber(tokens[i])) continue;
          for (const Token& t : tokens[i]) {
            const bool is_vague = vague.empty() ? !ingest::VagueWord(t.text).empty()
                                                : vague.contains(ingest::ToLowerAscii(t.text));
            if (t.text.size() <= 40 && is_vague) {
              flag(i, column_of(i, t), p, fmt::format("vague '{}' without a number", t.text));
              break;  // one per line
            }
          }
        }
        break;
      }
      case CorrectionPatternKind::kLength: {
        const size_t limit =
            static_cast<size_t>(std::max<int64_t>(kMinLineWordsLimit, p.max_line_words));
        for (size_t i = 0; i < lines.size(); ++i) {
          if (tokens[i].size() > limit) {
            flag(i, column_of(i, tokens[i].front()), p,
                 fmt::format("{} words, longer than the {} the corrections kept", tokens[i].size(),
                             limit));
          }
        }
        break;
      }
      case CorrectionPatternKind::kSection:
        if (!headings.empty() && !headings.contains(p.key)) {
          flag(0, 0, p, fmt::format("missing section '{}'", p.key));
        }
        break;
      case CorrectionPatternKind::kPhrase:
        for (const WordCount& w : p.words) {
          std::vector<Token> phrase = ingest::Tokenize(w.word);
          if (phrase.empty()) continue;
          for (size_t i = 0; i < lines.size(); ++i) {
            const std::vector<Token>& t = tokens[i];
            for (size_t k = 0; k + phrase.size() <= t.size(); ++k) {
              bool match = true;
              for (size_t m = 0; m < phrase.size() && match; ++m) {
                match = ingest::EqualsIgnoreCase(t[k + m].text, phrase[m].text);
              }
              if (match) {
                flag(i, column_of(i, t[k]), p,
                     fmt::format("'{}', removed by {} corrections", w.word, w.count));
              }
            }
          }
        }
        break;
    }
  }
  std::sort(out.begin(), out.end(), [](const PatternViolation& a, const PatternViolation& b) {
    return std::tie(a.line, a.column, a.pattern_id, a.what) <
           std::tie(b.line, b.column, b.pattern_id, b.what);
  });
  return out;
}

void WriteJson(JsonWriter& w, const CorrectionPattern& p) {
  w.StartObject();
  WriteJsonFields(w, p);
  w.EndObject();
}

void WriteJsonFields(JsonWriter& w, const CorrectionPattern& p) {
  auto strings = [&](std::string_view key, const std::vector<std::string>& items) {
    Key(w, key);
    StrArray(w, items);
  };
  Key(w, "pattern_id");
  Str(w, p.id);
  Key(w, "correction_type");
  Str(w, p.correction_type);
  Key(w, "kind");
  Str(w, KindName(p.kind));
  Key(w, "key");
  Str(w, p.key);
  Key(w, "occurrences");
  w.Int64(p.occurrences);
  Key(w, "against");
  w.Int64(p.against);
  Key(w, "consistency");
  Num(w, p.consistency);
  Key(w, "confidence");
  Num(w, p.confidence);
  strings("applicable_to", p.applicable_to);
  strings("users", p.users);
  Key(w, "first_seen");
  Str(w, model::FormatUtc(p.first_ms));
  Key(w, "last_seen");
  Str(w, model::FormatUtc(p.last_ms));
  Key(w, "words");
  w.StartArray();
  for (const WordCount& word : p.words) {
    w.StartObject();
    Key(w, "word");
    Str(w, word.word);
    Key(w, "count");
    w.Int64(word.count);
    w.EndObject();
  }
  w.EndArray();
  Key(w, "verb");
  Str(w, p.verb);
  Key(w, "length_ratio");
  Num(w, p.length_ratio);
  Key(w, "max_line_words");
  w.Int64(p.max_line_words);
  Key(w, "approvals");
  w.Uint64(p.approved_by.size());
  Key(w, "rejections");
  w.Uint64(p.rejected_by.size());
  strings("approved_by", p.approved_by);
  strings("rejected_by", p.rejected_by);
  Key(w, "consensus_score");
  Num(w, p.consensus);
  Key(w, "status");
  Str(w, StatusName(p.status));
  Key(w, "examples");
  w.StartArray();
  for (const CorrectionExample& e : p.examples) {
    w.StartObject();
    Key(w, "original");
    Str(w, e.original);
    Key(w, "corrected");
    Str(w, e.corrected);
    Key(w, "user_id");
    Str(w, e.user);
    Key(w, "project");
    Str(w, e.project);
    Key(w, "timestamp");
    Str(w, model::FormatUtc(e.at_ms));
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace kaizen::learn
