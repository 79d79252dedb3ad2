#include "learn/reviews/review_themes.h"

#include <absl/container/flat_hash_map.h>

#include <algorithm>
#include <utility>

namespace kaizen::learn {
namespace {

constexpr size_t kMaxSlug = 64;

// §3.2 severity scores: a decision's severity minor 1 .. critical 4; none counts as 1.
double DecisionSeverity(model::Severity s) {
  switch (s) {
    case model::Severity::kMinor:
      return 1;
    case model::Severity::kModerate:
      return 2;
    case model::Severity::kMajor:
      return 3;
    case model::Severity::kCritical:
      return 4;
    case model::Severity::kNone:
      break;
  }
  return 1;
}

int8_t DecisionPolarity(model::Decision d) {
  if (d == model::Decision::kApproved) return 1;
  if (d == model::Decision::kRejected || d == model::Decision::kNeedsWork) return -1;
  return 0;
}

// An annotation's severity on the same scale; a nit is half a minor issue.
double AnnotationSeverity(std::string_view s) {
  if (s == "nit") return 0.5;
  if (s == "minor") return 1;
  if (s == "major") return 3;
  if (s == "critical") return 4;
  return 1;
}

// "Error Handling!" -> "error-handling": ASCII letters and digits kept (lowercased), every other
// run of bytes one '-', no '-' at either end.
std::string Slug(std::string_view text) {
  std::string out;
  bool dash = false;
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    const bool upper = c >= 'A' && c <= 'Z';
    if (alnum || upper) {
      if (dash && !out.empty()) out += '-';
      dash = false;
      out += upper ? static_cast<char>(c - 'A' + 'a') : static_cast<char>(c);
      if (out.size() >= kMaxSlug) break;
    } else {
      dash = true;
    }
  }
  return out;
}

class Collector {
 public:
  void Add(std::string theme, std::string_view source, std::string_view example, int8_t polarity,
           double severity) {
    if (theme.empty() || polarity == 0) return;
    if (ReviewTheme* t = Find(theme, polarity)) {
      t->severity = std::max(t->severity, severity);
      if (t->example.empty()) t->example = example;
      return;
    }
    if (!index_.empty() || out_.size() == kScanned) {
      if (index_.empty()) {
        for (size_t i = 0; i < out_.size(); ++i) index_.emplace(Key(out_[i]), i);
      }
      index_.emplace(std::pair{theme, polarity}, out_.size());
    }
    out_.push_back(ReviewTheme{std::move(theme), source, example, polarity, severity});
  }
  std::vector<ReviewTheme> Take() {
    index_.clear();
    return std::move(out_);
  }

 private:
  // A handful per review, where a linear scan beats hashing; past kScanned (a review with
  // thousands of annotation categories: 0.15 s for 10,000) they are indexed.
  static constexpr size_t kScanned = 16;
  static std::pair<std::string, int8_t> Key(const ReviewTheme& t) { return {t.theme, t.polarity}; }

  ReviewTheme* Find(const std::string& theme, int8_t polarity) {
    if (!index_.empty()) {
      auto it = index_.find(std::pair{theme, polarity});
      return it == index_.end() ? nullptr : &out_[it->second];
    }
    for (ReviewTheme& t : out_) {
      if (t.theme == theme && t.polarity == polarity) return &t;
    }
    return nullptr;
  }

  std::vector<ReviewTheme> out_;
  absl::flat_hash_map<std::pair<std::string, int8_t>, size_t> index_;  // never iterated
};

}  // namespace

std::vector<ReviewTheme> ReviewThemes(const model::ReviewView& review,
                                      const text::ThemeTaxonomy& taxonomy) {
  Collector themes;
  const int8_t polarity = DecisionPolarity(review.decision);
  const double severity = DecisionSeverity(review.severity);
  if (polarity != 0) {
    // The free text's themes: what the reviewer disliked is the example of a negative one, what
    // they liked of a positive one.
    const std::string_view said = polarity < 0 ? review.disliked : review.liked;
    for (std::string_view theme : review.themes) {
      themes.Add(std::string(theme), kSourceFeedbackPattern, said, polarity, severity);
    }
    auto written = [&](std::string_view text) {
      if (text.empty()) return;
      for (std::string& theme : ExtractThemes(text, taxonomy)) {
        themes.Add(std::move(theme), kSourceRejectionAnalysis, text, polarity, severity);
      }
    };
    written(review.reason);
    for (std::string_view b : review.blockers) written(b);
    for (std::string_view s : review.suggestions) written(s);
  }
  for (const model::AnnotationView& a : review.annotations) {
    const int8_t p = a.type == "praise" ? 1 : a.type == "criticism" ? -1 : 0;
    themes.Add(Slug(a.category), kSourceAnnotation, a.text, p, AnnotationSeverity(a.severity));
  }
  return themes.Take();
}

void PolarThemes::Split(const std::vector<ReviewTheme>& themes) {
  positive.clear();
  negative.clear();
  for (const ReviewTheme& t : themes) {
    if (t.polarity > 0) positive.push_back(t.theme);
    if (t.polarity < 0) negative.push_back(t.theme);
  }
  for (auto* side : {&positive, &negative}) {
    std::sort(side->begin(), side->end());
    side->erase(std::unique(side->begin(), side->end()), side->end());
  }
}

}  // namespace kaizen::learn
