#include "signals/lcov.h"

#include <charconv>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

namespace kaizen::signals {
namespace {

struct FileCoverage {
  std::map<int64_t, bool> lines;                      // line -> hit in some record
  std::map<std::string, bool, std::less<>> branches;  // "line,block,branch" -> taken
  int64_t lf = 0, lh = 0, brf = 0, brh = 0;           // from records without DA / BRDA lines
};

struct Record {
  std::string file;
  bool has_da = false, has_brda = false;
  std::optional<int64_t> lf, lh, brf, brh;
};

// Counts above this are refused as implausible, so sums over many records cannot overflow.
constexpr int64_t kMaxCount = 1'000'000'000'000;

bool ParseCount(std::string_view s, int64_t* out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size() && *out >= 0 && *out <= kMaxCount;
}

// A DA execution count: some tools write huge or fractional counts ("1.5e3"); only zero or not
// matters. Returns false when it is not a number.
bool ParseHits(std::string_view s, bool* hit) {
  double d = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (p != s.data() + s.size() || s.empty()) return false;
  if (ec == std::errc::result_out_of_range) {
    *hit = true;  // beyond double: certainly executed
    return true;
  }
  if (ec != std::errc() || !(d >= 0)) return false;  // negative, or "nan" (from_chars reads it)
  *hit = d > 0;
  return true;
}

// Splits "a,b,c" into at most `n` fields; the last one keeps any further commas.
size_t Split(std::string_view s, std::string_view* fields, size_t n) {
  size_t k = 0;
  while (k + 1 < n) {
    size_t comma = s.find(',');
    if (comma == std::string_view::npos) break;
    fields[k++] = s.substr(0, comma);
    s.remove_prefix(comma + 1);
  }
  fields[k++] = s;
  return k;
}

class LcovParser {
 public:
  LcovParser(std::string_view text, std::string_view file) : text_(text), file_(file) {}

  Result<CoverageReport> Run() {
    size_t pos = 0;
    int64_t line_no = 0;
    while (pos < text_.size()) {
      size_t end = text_.find('\n', pos);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view line = text_.substr(pos, end - pos);
      pos = end + 1;
      ++line_no;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      KZ_RETURN_IF_ERROR(Line(line, line_no));
    }
    if (open_) {
      // A tracefile cut short: the record so far still counts, as lcov itself reads it.
      Close();
    }
    if (!seen_sf_) {
      // Said outright: an empty file is what a crashed or misconfigured coverage run leaves.
      const bool blank = text_.find_first_not_of(" \t\r\n") == std::string_view::npos;
      return InvalidArgument(fmt::format(
          "{}: {}; an lcov tracefile lists each source file as SF:<path>", file_,
          blank ? fmt::format("the file is empty ({} bytes)", text_.size()) : "no SF: record"));
    }
    CoverageReport r;
    r.format = CoverageReport::Format::kLcov;
    r.files = static_cast<int64_t>(files_.size());
    for (const auto& [name, f] : files_) {
      for (const auto& [l, hit] : f.lines) {
        ++r.lines_found;
        r.lines_hit += hit;
      }
      for (const auto& [b, taken] : f.branches) {
        ++r.branches_found;
        r.branches_hit += taken;
      }
      r.lines_found += f.lf;
      r.lines_hit += f.lh;
      r.branches_found += f.brf;
      r.branches_hit += f.brh;
    }
    return r;
  }

 private:
  Status Error(int64_t line_no, std::string_view what) const {
    return InvalidArgument(fmt::format("{}:{}: {}", file_, line_no, what));
  }

  void Close() {
    FileCoverage& f = *coverage_;
    if (!rec_.has_da && rec_.lf) {
      f.lf += *rec_.lf;
      f.lh += rec_.lh.value_or(0);
    }
    if (!rec_.has_brda && rec_.brf) {
      f.brf += *rec_.brf;
      f.brh += rec_.brh.value_or(0);
    }
    open_ = false;
    rec_ = Record();
  }

  Status Line(std::string_view line, int64_t n) {
    size_t s = 0;
    while (s < line.size() && (line[s] == ' ' || line[s] == '\t')) ++s;
    line.remove_prefix(s);
    if (line.empty()) return Status::Ok();
    if (line == "end_of_record") {
      if (!open_) return Error(n, "end_of_record without an SF: record before it");
      Close();
      return Status::Ok();
    }
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      return Error(n, fmt::format("\"{}\" is not an lcov record (TYPE:value)",
                                  line.substr(0, std::min<size_t>(line.size(), 40))));
    }
    std::string_view type = line.substr(0, colon), value = line.substr(colon + 1);
    if (type == "SF") {
      if (open_) Close();  // a missing end_of_record: the next SF starts a new record
      if (value.empty()) return Error(n, "SF: names no source file");
      open_ = seen_sf_ = true;
      rec_.file = std::string(value);
      // Looked up once per record, not per DA/BRDA line: a path of L bytes compared at every
      // line made a report of N lines cost N * L (1 MiB path, 40k lines: 2.2 s).
      coverage_ = &files_.try_emplace(rec_.file).first->second;
      return Status::Ok();
    }
    const bool counted = type == "DA" || type == "LF" || type == "LH" || type == "BRDA" ||
                         type == "BRF" || type == "BRH";
    if (!counted) return Status::Ok();  // TN, FN, FNDA, FNF, FNH, VER, FNL, FNA, ...
    if (!open_) return Error(n, fmt::format("{}: outside a record (no SF: line before it)", type));
    if (type == "DA") {
      std::string_view f[3];
      size_t k = Split(value, f, 3);
      int64_t line_number = 0;
      bool hit = false;
      if (k < 2 || !ParseCount(f[0], &line_number) || !ParseHits(f[1], &hit)) {
        return Error(n, fmt::format("DA:{} must be DA:<line>,<execution count>[,<checksum>]",
                                    value.substr(0, std::min<size_t>(value.size(), 40))));
      }
      rec_.has_da = true;
      bool& slot = coverage_->lines[line_number];
      slot = slot || hit;
      return Status::Ok();
    }
    if (type == "BRDA") {
      std::string_view f[4];
      size_t k = Split(value, f, 4);
      int64_t ignored = 0;
      bool taken = false;
      if (k < 4 || !ParseCount(f[0], &ignored) || (f[3] != "-" && !ParseHits(f[3], &taken))) {
        return Error(n, fmt::format("BRDA:{} must be BRDA:<line>,<block>,<branch>,<taken or ->",
                                    value.substr(0, std::min<size_t>(value.size(), 40))));
      }
      rec_.has_brda = true;
      std::string key = fmt::format("{},{},{}", f[0], f[1], f[2]);
      bool& slot = coverage_->branches[key];
      slot = slot || taken;
      return Status::Ok();
    }
    int64_t v = 0;
    if (!ParseCount(value, &v)) {
      return Error(n, fmt::format("{}:{} must be a whole number in 0..10^12", type,
                                  value.substr(0, std::min<size_t>(value.size(), 40))));
    }
    if (type == "LF") rec_.lf = v;
    if (type == "LH") rec_.lh = v;
    if (type == "BRF") rec_.brf = v;
    if (type == "BRH") rec_.brh = v;
    if (rec_.lf && rec_.lh && *rec_.lh > *rec_.lf)
      return Error(
          n, fmt::format("LH:{} exceeds LF:{} (more lines hit than found)", *rec_.lh, *rec_.lf));
    if (rec_.brf && rec_.brh && *rec_.brh > *rec_.brf)
      return Error(n, fmt::format("BRH:{} exceeds BRF:{} (more branches hit than found)", *rec_.brh,
                                  *rec_.brf));
    return Status::Ok();
  }

  std::string_view text_, file_;
  std::map<std::string, FileCoverage, std::less<>> files_;
  FileCoverage* coverage_ = nullptr;  // the open record's entry in files_ (map nodes do not move)
  Record rec_;
  bool open_ = false, seen_sf_ = false;
};

}  // namespace

Result<CoverageReport> ParseLcov(std::string_view text, std::string_view file) {
  KZ_RETURN_IF_ERROR(CheckReportSize(text, file));
  // A UTF-8 byte order mark (Windows tools write one) hid the first record's type, so its SF:
  // line was skipped and its DA: lines refused as outside a record.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF" ||
      text.substr(0, 2).find('\0') != std::string_view::npos) {
    return InvalidArgument(
        fmt::format("{}: UTF-16 text; an lcov tracefile must be ASCII or UTF-8 (convert it, e.g. "
                    "iconv -f UTF-16 -t UTF-8)",
                    file));
  }
  return LcovParser(text, file).Run();
}

}  // namespace kaizen::signals
