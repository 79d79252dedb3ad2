#include "base/line_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kaizen::base {
namespace {

struct Line {
  std::string_view text;  // without its newline
  bool newline;
};

std::vector<Line> SplitLines(std::string_view s) {
  std::vector<Line> lines;
  size_t begin = 0;
  while (begin < s.size()) {
    const size_t end = s.find('\n', begin);
    if (end == std::string_view::npos) {
      lines.push_back({s.substr(begin), false});
      break;
    }
    lines.push_back({s.substr(begin, end - begin), true});
    begin = end + 1;
  }
  return lines;
}

bool Same(const Line& a, const Line& b) { return a.text == b.text && a.newline == b.newline; }

enum class Op { kKeep, kDelete, kInsert };

struct Step {
  Op op;
  size_t a, b;  // line indices in before / after
};

// The edit script from a longest common subsequence table.
std::vector<Step> Script(const std::vector<Line>& a, const std::vector<Line>& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      lcs[i][j] = Same(a[i], b[j]) ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::vector<Step> steps;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && Same(a[i], b[j])) {
      steps.push_back({Op::kKeep, i++, j++});
    } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
      steps.push_back({Op::kInsert, i, j++});
    } else {
      steps.push_back({Op::kDelete, i++, j});
    }
  }
  return steps;
}

void AppendLine(std::string* out, char prefix, const Line& line) {
  *out += prefix;
  out->append(line.text);
  *out += '\n';
  if (!line.newline) *out += "\\ No newline at end of file\n";
}

}  // namespace

std::string UnifiedDiff(std::string_view path, std::string_view before, std::string_view after,
                        bool before_exists, bool after_exists, int context) {
  if (before == after && before_exists == after_exists) return "";
  const std::vector<Line> a = SplitLines(before), b = SplitLines(after);
  const std::vector<Step> steps = Script(a, b);
  std::string out =
      fmt::format("--- {}\n+++ {}\n", before_exists ? "a/" + std::string(path) : "/dev/null",
                  after_exists ? "b/" + std::string(path) : "/dev/null");
  const size_t ctx = static_cast<size_t>(std::max(context, 0));
  size_t k = 0;
  while (k < steps.size()) {
    if (steps[k].op == Op::kKeep) {
      ++k;
      continue;
    }
    // A hunk: from `ctx` lines before this change to `ctx` lines after the last change that is
    // at most 2*ctx unchanged lines further on.
    const size_t start = k >= ctx ? k - ctx : 0;
    size_t end = k;  // one past the last change of the hunk
    size_t scan = k;
    while (scan < steps.size()) {
      if (steps[scan].op != Op::kKeep) {
        end = scan + 1;
        ++scan;
        continue;
      }
      size_t run = scan;
      while (run < steps.size() && steps[run].op == Op::kKeep) ++run;
      if (run == steps.size() || run - scan > 2 * ctx) break;
      scan = run;
    }
    const size_t stop = std::min(steps.size(), end + ctx);
    size_t a_count = 0, b_count = 0;
    for (size_t s = start; s < stop; ++s) {
      if (steps[s].op != Op::kInsert) ++a_count;
      if (steps[s].op != Op::kDelete) ++b_count;
    }
    const size_t a_start = steps[start].a + (a_count > 0 ? 1 : 0);
    const size_t b_start = steps[start].b + (b_count > 0 ? 1 : 0);
    out += fmt::format("@@ -{},{} +{},{} @@\n", a_start, a_count, b_start, b_count);
    for (size_t s = start; s < stop; ++s) {
      switch (steps[s].op) {
        case Op::kKeep:
          AppendLine(&out, ' ', a[steps[s].a]);
          break;
        case Op::kDelete:
          AppendLine(&out, '-', a[steps[s].a]);
          break;
        case Op::kInsert:
          AppendLine(&out, '+', b[steps[s].b]);
          break;
      }
    }
    k = stop;
  }
  return out;
}

}  // namespace kaizen::base
