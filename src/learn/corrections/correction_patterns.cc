#include "learn/corrections/correction_patterns.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "base/utf8.h"
#include "learn/state_archive.h"
#include "text/ascii_case.h"
#include "text/code_correction.h"
#include "text/correction_classifier.h"
#include "text/filler.h"

namespace kaizen::learn {
namespace {

using text::Token;

constexpr size_t kMaxWordsPerGroup = 256;  // distinct words/phrases a group counts (memory bound)
constexpr size_t kMaxVerbsPerGroup = 64;
constexpr size_t kMaxWordsShown = 20;
constexpr size_t kMaxPhraseTokens = 5;
constexpr size_t kMaxExampleBytes = 300;

// `s` cut to `max` bytes on a UTF-8 boundary.
std::string Cut(std::string_view s, size_t max) { return std::string(base::Utf8Prefix(s, max)); }

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

std::map<std::string, int> OpenerCounts(std::string_view text) {
  std::map<std::string, int> out;
  for (std::string_view line : text::SplitLines(text)) {
    std::string_view o = text::PassiveOpener(line);
    if (!o.empty()) ++out[std::string(o)];
  }
  return out;
}

std::set<std::string> HeadingSet(std::string_view text) {
  std::set<std::string> out;
  for (std::string_view line : text::SplitLines(text)) {
    std::string h = text::HeadingOf(line);
    if (!h.empty()) out.insert(std::move(h));
  }
  return out;
}

std::set<std::string> JargonIn(const std::vector<text::Token>& tokens) {
  std::set<std::string> out;
  for (const text::Token& t : tokens) {
    std::string_view j = text::JargonWord(t.text);
    if (!j.empty()) out.insert(std::string(j));
  }
  return out;
}

std::vector<std::string_view> NonEmptyLines(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::string_view l : text::SplitLines(text)) {
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

// The listed filler phrases `original` has more of than `corrected` (distinct, sorted); sets
// *added when `corrected` has more of one than `original`.
std::vector<std::string> FillerRemoved(std::string_view original, std::string_view corrected,
                                       bool* added) {
  std::map<std::string_view, int> count;
  for (const text::FillerMatch& m : text::FindFiller(original)) ++count[m.phrase];
  for (const text::FillerMatch& m : text::FindFiller(corrected)) --count[m.phrase];
  std::vector<std::string> out;
  for (const auto& [phrase, n] : count) {
    if (n > 0) out.emplace_back(phrase);
    if (n < 0) *added = true;
  }
  return out;
}

// Code: lines deleted are the type alone; else the unsafe type markers removed, else the
// consistent renames, else the type alone.
void AnalyzeCodeChange(const text::TokenDiff& d, std::string_view original,
                       std::string_view corrected, CorrectionChange* ch) {
  if (text::DeletedLines(original, corrected) > 0) {
    ch->kind = CorrectionPatternKind::kCode;  // deleted code: no marker or name was fixed
    return;
  }
  std::map<std::string_view, int> markers;
  for (const auto& m : text::FindUnsafeTypeMarkers(original)) ++markers[m.marker];
  for (const auto& m : text::FindUnsafeTypeMarkers(corrected)) --markers[m.marker];
  for (const auto& [marker, n] : markers) {
    if (n > 0) ch->words.emplace_back(marker);
    if (n < 0) ch->unsafe_added.emplace_back(marker);
  }
  if (!ch->words.empty()) {
    ch->kind = CorrectionPatternKind::kUnsafeType;
    ch->key = ch->words.front();
    return;
  }
  for (const auto& [old_name, new_name] : text::ConsistentRenames(d)) {
    ch->words.push_back(Cut(old_name, 60) + " -> " + Cut(new_name, 60));
  }
  ch->kind = ch->words.empty() ? CorrectionPatternKind::kCode : CorrectionPatternKind::kRename;
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
    case CorrectionPatternKind::kFiller:
      return "filler";
    case CorrectionPatternKind::kUnsafeType:
      return "unsafe_type";
    case CorrectionPatternKind::kRename:
      return "rename";
    case CorrectionPatternKind::kCode:
      return "code";
  }
  return "phrase";
}

bool HasDetector(CorrectionPatternKind kind) {
  return kind != CorrectionPatternKind::kRename && kind != CorrectionPatternKind::kCode;
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
    case CorrectionPatternStatus::kInconsistent:
      return "inconsistent";
  }
  return "candidate";
}

bool CorrectionPattern::Enforced(double min_confidence) const {
  if (!enforceable || status == CorrectionPatternStatus::kRejected ||
      status == CorrectionPatternStatus::kInconsistent) {
    return false;
  }
  return status == CorrectionPatternStatus::kPromoted || confidence >= min_confidence;
}

CorrectionChange AnalyzeChange(std::string_view correction_type, std::string_view original,
                               std::string_view corrected, std::string_view file) {
  const text::TokenDiff d = text::DiffTokens(original, corrected);
  CorrectionChange ch;
  ch.original_words = d.original.size();
  ch.corrected_words = d.corrected.size();
  {
    std::map<uint32_t, size_t> per_line;
    for (const text::Token& t : d.corrected) ++per_line[t.line];
    for (const auto& [line, n] : per_line)
      ch.longest_corrected_line = std::max(ch.longest_corrected_line, n);
  }
  if (text::IsCodeCategory(correction_type) || text::IsCodeCorrection(original, corrected, file)) {
    AnalyzeCodeChange(d, original, corrected, &ch);
    return ch;
  }

  // The reverse changes first: they are counted whatever this correction's own kind is.
  const std::map<std::string, int> oo = OpenerCounts(original), oc = OpenerCounts(corrected);
  std::string opener_removed;
  for (const auto& [opener, n] : oc) {
    auto it = oo.find(opener);
    if (it == oo.end() || it->second < n) ch.openers_added.push_back(opener);
  }
  for (std::string_view line : text::SplitLines(original)) {
    std::string o(text::PassiveOpener(line));
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
  for (const text::DiffHunk& h : d.hunks) {
    bool all_numbers = true;
    for (size_t k = h.orig_begin; k < h.orig_end; ++k) {
      numbers_removed += d.original[k].number ? 1 : 0;
      all_numbers = all_numbers && d.original[k].number;
      std::string_view v = text::VagueWord(d.original[k].text);
      if (!v.empty()) vague_removed.emplace_back(v);
    }
    for (size_t k = h.corr_begin; k < h.corr_end; ++k) numbers_added += d.corrected[k].number;
    const size_t len = h.orig_end - h.orig_begin;
    if (len >= 1 && len <= kMaxPhraseTokens && !all_numbers) {
      std::string phrase;
      for (size_t k = h.orig_begin; k < h.orig_end; ++k) {
        if (!phrase.empty()) phrase += ' ';
        phrase += text::ToLowerAscii(d.original[k].text);
      }
      phrases_removed.push_back(std::move(phrase));
    }
  }
  ch.numbers_only_removed = numbers_removed > 0 && numbers_added == 0;
  std::vector<std::string> filler_removed = FillerRemoved(original, corrected, &ch.filler_added);
  const double ow = static_cast<double>(ch.original_words);
  const double cw = static_cast<double>(ch.corrected_words);
  ch.lengthened = ow > 0 && cw >= 1.25 * ow;

  if (!opener_removed.empty()) {
    ch.kind = CorrectionPatternKind::kOpener;
    ch.key = opener_removed;
    // The first word of the corrected line that stands where the first opener line stood.
    const std::vector<std::string_view> lo = NonEmptyLines(original), lc = NonEmptyLines(corrected);
    for (size_t i = 0; i < lo.size(); ++i) {
      if (text::PassiveOpener(lo[i]) != opener_removed) continue;
      std::vector<text::Token> t = text::Tokenize(i < lc.size() ? lc[i] : corrected);
      if (!t.empty() && text::IsActionVerb(t.front().text)) ch.verb = std::string(t.front().text);
      break;
    }
  } else if (!filler_removed.empty()) {
    ch.kind = CorrectionPatternKind::kFiller;
    ch.words = std::move(filler_removed);
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

namespace {

// A pattern whose examples disagree enforces nothing (issue 27): its detector must flag each
// original it learned from and none of the corrected texts.
void CheckAgainstExamples(const std::vector<CheckedExample>& checked, CorrectionPattern* p) {
  for (const auto& c : checked) {
    ++p->examples_checked;
    p->contradicted += ViolationsOf(*p, c.corrected).empty() ? 0 : 1;
    p->unexplained += ViolationsOf(*p, c.original).empty() ? 1 : 0;
  }
  if (p->contradicted == 0 && p->unexplained == 0) return;
  p->inconsistency = fmt::format("its examples disagree: of {} checked, ", p->examples_checked);
  if (p->contradicted > 0) {
    p->inconsistency += fmt::format("{} corrected text(s) break it", p->contradicted);
    if (p->unexplained > 0) p->inconsistency += " and ";
  }
  if (p->unexplained > 0) {
    p->inconsistency += fmt::format("{} original(s) do not", p->unexplained);
  }
}

}  // namespace

CorrectionPatternLearner::CorrectionPatternLearner(const CorrectionPatternConfig& config)
    : config_(config) {}

std::string_view CorrectionGroupType(const model::CorrectionView& c) {
  // A line stored before ingest proposed types may lack one: propose it here the same way.
  std::string_view type = c.correction_type;
  if (type.empty() || type == "auto")
    type = text::ClassifyCorrection(c.original, c.corrected, c.file).type;
  return type;
}

void CorrectionPatternLearner::Add(const model::CorrectionView& c) {
  const std::string_view type = CorrectionGroupType(c);
  CorrectionChange ch = AnalyzeChange(type, c.original, c.corrected, c.file);
  Add(c, type, &ch);
}

void CorrectionPatternLearner::Add(const model::CorrectionView& c, std::string_view type,
                                   CorrectionChange* change) {
  ++corrections_;
  CorrectionChange& ch = *change;
  for (const std::string& o : ch.openers_added) ++openers_added_[o];
  for (const std::string& h : ch.headings_removed) ++headings_removed_[h];
  for (const std::string& m : ch.unsafe_added) ++unsafe_added_[m];
  filler_added_ += ch.filler_added;
  jargon_added_ += ch.jargon_added;
  lengthened_ += ch.lengthened;
  numbers_only_removed_ += ch.numbers_only_removed;
  if (!c.user_id.empty()) {
    auto against = [&](CorrectionPatternKind kind, std::string_view key) {
      ++reverse_by_user_[ReverseKey(kind, key)][std::string(c.user_id)];
    };
    for (const std::string& o : ch.openers_added) against(CorrectionPatternKind::kOpener, o);
    for (const std::string& h : ch.headings_removed) against(CorrectionPatternKind::kSection, h);
    for (const std::string& m : ch.unsafe_added) against(CorrectionPatternKind::kUnsafeType, m);
    if (ch.filler_added) against(CorrectionPatternKind::kFiller, {});
    if (ch.jargon_added) against(CorrectionPatternKind::kJargon, {});
    if (ch.lengthened) against(CorrectionPatternKind::kLength, {});
    if (ch.numbers_only_removed) against(CorrectionPatternKind::kMetric, {});
  }

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
  if (!c.user_id.empty()) ++g.users[std::string(c.user_id)];
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
  if (g.checked.size() < kMaxCheckedExamples && c.original.size() <= kMaxCheckedExampleBytes &&
      c.corrected.size() <= kMaxCheckedExampleBytes) {
    g.checked.push_back({std::string(c.original), std::string(c.corrected)});
  }
}

void CorrectionPatternLearner::Add(const model::AdminView& a) {
  if (a.action != "rule_audit" || a.rule_id.empty()) return;
  if (a.verdict != "confirm" && a.verdict != "retire") return;
  std::string_view person = !a.reviewer.empty() ? a.reviewer : a.user_id;
  if (person.empty()) person = "(anonymous)";
  audits_[std::string(a.rule_id)][std::string(person)] = a.verdict == "confirm";
}

std::string CorrectionPatternLearner::ReverseKey(CorrectionPatternKind kind, std::string_view key) {
  return fmt::format("{}\x1f{}", KindName(kind), key);
}

void CorrectionPatternLearner::Stances(const std::string& id, const Group& g,
                                       CorrectionPattern* p) const {
  std::map<std::string, bool> stance;  // person -> confirms
  const std::map<std::string, int64_t>* reverse = nullptr;
  if (auto it = reverse_by_user_.find(ReverseKey(g.kind, g.key)); it != reverse_by_user_.end()) {
    reverse = &it->second;
  }
  auto reversed = [&](const std::string& user) -> int64_t {
    if (reverse == nullptr) return 0;
    auto it = reverse->find(user);
    return it == reverse->end() ? 0 : it->second;
  };
  for (const auto& [user, made] : g.users) {
    const int64_t undone = reversed(user);
    if (made != undone) stance[user] = made > undone;
  }
  if (reverse != nullptr) {
    for (const auto& [user, undone] : *reverse) {
      if (!g.users.contains(user)) stance[user] = false;
    }
  }
  if (auto it = audits_.find(id); it != audits_.end()) {
    for (const auto& [person, confirmed] : it->second) stance[person] = confirmed;
  }
  for (const auto& [person, confirms] : stance) {
    (confirms ? p->users_confirmed : p->users_rejected).push_back(person);
  }
  const auto confirmed = static_cast<double>(p->users_confirmed.size());
  const auto rejected = static_cast<double>(p->users_rejected.size());
  // seed 004: consensus_score = users_confirmed / (users_confirmed + users_rejected).
  if (confirmed + rejected > 0) p->consensus = confirmed / (confirmed + rejected);
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
    case CorrectionPatternKind::kFiller:
      p.against = filler_added_;
      break;
    case CorrectionPatternKind::kUnsafeType:
      p.against = count_of(unsafe_added_, g.key);
      break;
    case CorrectionPatternKind::kPhrase:
    case CorrectionPatternKind::kRename:
    case CorrectionPatternKind::kCode:
      p.against = 0;
      break;
  }
  const double n = static_cast<double>(g.n);
  p.consistency = n / (n + static_cast<double>(p.against));
  // n / (n + k): 0.5 at n = k, approaching 1 with more corrections; k = 3.5 gives the seed's
  // example, 20 consistent corrections -> 20 / 23.5 = 0.85.
  p.confidence = p.consistency * n / (n + config_.count_half);
  p.applicable_to.assign(g.projects.begin(), g.projects.end());
  for (const auto& [user, count] : g.users) p.users.push_back(user);
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
  Stances(id, g, &p);
  if (p.consensus) p.confidence *= *p.consensus;
  p.enforceable =
      HasDetector(p.kind) && !(p.kind == CorrectionPatternKind::kPhrase && p.words.empty());
  if (p.enforceable) CheckAgainstExamples(g.checked, &p);
  // Rejected by people's explicit verdicts (audits); corrections going both ways lower its
  // confidence instead.
  if (rejections > approvals) {
    p.status = CorrectionPatternStatus::kRejected;
  } else if (!p.inconsistency.empty()) {
    p.status = CorrectionPatternStatus::kInconsistent;
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

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void CorrectionExample::serialize(Archive& ar) {
  ar(original, corrected, user, project, at_ms);
}

template <class Archive>
void CheckedExample::serialize(Archive& ar) {
  ar(original, corrected);
}

template <class Archive>
void CorrectionPatternLearner::Group::serialize(Archive& ar) {
  ar(type, key, kind, n, first_ms, last_ms, projects, users, words, verbs, ratio_sum,
     max_line_words, examples, checked);
}

template <class Archive>
void CorrectionPatternLearner::serialize(Archive& ar) {
  ar(corrections_, groups_, openers_added_, headings_removed_, unsafe_added_, jargon_added_,
     lengthened_, numbers_only_removed_, filler_added_, audits_, reverse_by_user_);
}

KZ_STATE_INSTANTIATE(CorrectionPatternLearner);

}  // namespace kaizen::learn
