// The word lists of the classifier's detectors (passive openers, jargon, formality markers, vague
// quantifiers, action verbs) and the line-level detectors over them; see correction_classifier.h.
#include <span>
#include <string>

#include "text/ascii_case.h"
#include "text/correction_classifier.h"

namespace kaizen::text {
namespace {

bool IsWordByte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

std::string_view FindIn(std::span<const std::string_view> list, std::string_view word) {
  for (std::string_view w : list) {
    if (EqualsIgnoreCase(w, word)) return w;
  }
  return {};
}

// Longest first, so "was responsible for" wins over "responsible for".
constexpr std::string_view kPassiveOpeners[] = {
    "was responsible for", "were responsible for",
    "was in charge of",    "was tasked with",
    "was involved in",     "responsible for",
    "accountable for",     "participated in",
    "duties included",     "duties include",
    "contributed to",      "assisted with",
    "assisted in",         "in charge of",
    "involved in",         "tasked with",
    "charged with",        "helped with",
    "served as",           "worked on",
    "helped to",           "helped",
};

constexpr std::string_view kJargon[] = {
    "leverage",      "leveraged",       "leverages",     "leveraging",     "synergy",
    "synergies",     "synergistic",     "synergize",     "utilize",        "utilized",
    "utilizes",      "utilizing",       "utilization",   "paradigm",       "paradigms",
    "holistic",      "holistically",    "bandwidth",     "ecosystem",      "streamline",
    "streamlined",   "empower",         "empowered",     "empowering",     "seamless",
    "seamlessly",    "cutting-edge",    "best-in-class", "world-class",    "best-of-breed",
    "value-add",     "ideate",          "ideation",      "operationalize", "operationalized",
    "incentivize",   "granular",        "actionable",    "learnings",      "mission-critical",
    "bleeding-edge", "next-generation", "next-gen",      "game-changer",   "game-changing",
    "disruptive",    "impactful",       "proactive",     "proactively",    "deliverables",
};

constexpr std::string_view kFormality[] = {
    // formal register
    "hereby", "herein", "therefore", "furthermore", "moreover", "thus", "whereas", "pursuant",
    "kindly", "regards", "sincerely", "shall", "henceforth", "aforementioned", "accordingly",
    "nevertheless", "notwithstanding", "endeavor", "commence", "ascertain", "esteemed", "dear",
    // informal register
    "hey", "hi", "gonna", "wanna", "gotta", "awesome", "cool", "guys", "lol", "yeah", "yep", "nope",
    "stuff", "kinda", "sorta", "super", "totally", "ok", "okay", "btw", "fyi", "cheers", "folks",
    "dude"};

constexpr std::string_view kVague[] = {
    "significantly", "greatly", "substantially", "considerably", "dramatically",
    "various",       "many",    "several",       "numerous",     "lots",
    "huge",          "massive", "multiple",      "countless",    "some",
};

// Past-tense action verbs that do not end in "-ed".
constexpr std::string_view kIrregularActionVerbs[] = {
    "led",     "built", "ran",  "drove", "grew",    "made", "won",    "cut",
    "wrote",   "set",   "took", "began", "brought", "sold", "taught", "oversaw",
    "rebuilt", "held",  "kept", "chose", "found",   "spun", "drew"};

}  // namespace

std::string_view PassiveOpener(std::string_view line) {
  std::string_view s = line.substr(OpenerOffset(line));
  for (std::string_view opener : kPassiveOpeners) {
    if (s.size() < opener.size() || !EqualsIgnoreCase(s.substr(0, opener.size()), opener)) {
      continue;
    }
    if (s.size() == opener.size() || !IsWordByte(s[opener.size()])) return opener;
  }
  return {};
}

std::string_view JargonWord(std::string_view word) { return FindIn(kJargon, word); }

std::string_view FormalityMarker(std::string_view word) {
  std::string_view m = FindIn(kFormality, word);
  if (!m.empty()) return m;
  std::string lower = ToLowerAscii(word.substr(0, 40));
  for (std::string_view c : {"n't", "'re", "'ll", "'ve", "'m"}) {
    if (std::string_view(lower).ends_with(c)) return "contraction";
  }
  return {};
}

std::string_view VagueWord(std::string_view word) { return FindIn(kVague, word); }

bool IsActionVerb(std::string_view word) {
  if (word.size() >= 4 && (word.ends_with("ed") || word.ends_with("ED"))) return true;
  return !FindIn(kIrregularActionVerbs, word).empty();
}
}  // namespace kaizen::text
