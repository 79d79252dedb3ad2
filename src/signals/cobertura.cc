#include "signals/cobertura.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <set>
#include <string>

#include <fmt/format.h>
#include <pugixml.hpp>

namespace kaizen::signals {
namespace {

constexpr int64_t kMaxCount = 1'000'000'000'000;  // as lcov: sums cannot overflow

class Root {
 public:
  Root(pugi::xml_node n, std::string_view xml, std::string_view file)
      : n_(n), line_(LineOf(xml, static_cast<size_t>(n.offset_debug()))), file_(file) {}

  Status Bad(const char* attr, std::string_view value, std::string_view rule) const {
    return InvalidArgument(
        fmt::format("{}:{}: <coverage> attribute {}=\"{}\" {}", file_, line_, attr, value, rule));
  }

  Status Rate(const char* attr, std::optional<double>* out) const {
    pugi::xml_attribute a = n_.attribute(attr);
    if (!a) return Status::Ok();
    std::string_view v = a.value();
    double d = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (v.empty() || ec != std::errc() || p != v.data() + v.size() || !(d >= 0 && d <= 1))
      return Bad(attr, v, "must be a number in 0..1");
    *out = d;
    return Status::Ok();
  }

  Status Count(const char* attr, std::optional<int64_t>* out) const {
    pugi::xml_attribute a = n_.attribute(attr);
    if (!a) return Status::Ok();
    std::string_view v = a.value();
    int64_t n = 0;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec != std::errc() || p != v.data() + v.size() || n < 0 || n > kMaxCount)
      return Bad(attr, v, "must be a whole number in 0..10^12");
    *out = n;
    return Status::Ok();
  }

  Status Pair(const char* valid_attr, const char* covered_attr, int64_t* valid,
              int64_t* covered) const {
    std::optional<int64_t> v, c;
    KZ_RETURN_IF_ERROR(Count(valid_attr, &v));
    KZ_RETURN_IF_ERROR(Count(covered_attr, &c));
    if (v && c && *c > *v) {
      return Bad(covered_attr, n_.attribute(covered_attr).value(),
                 fmt::format("exceeds {}=\"{}\"", valid_attr, *v));
    }
    *valid = v.value_or(0);
    // A covered count without its valid count says nothing about a rate (found by
    // fuzz/report_fuzz.cc: lines-covered="3" alone gave 3 hit of 0 found). It is ignored, so the
    // report is read by its line-rate when it has one, and refused as giving neither otherwise.
    *covered = v ? c.value_or(0) : 0;
    return Status::Ok();
  }

 private:
  pugi::xml_node n_;
  int64_t line_;
  std::string_view file_;
};

// The distinct source files of the <class filename="..."> elements.
struct FileNames : pugi::xml_tree_walker {
  std::set<std::string, std::less<>> files;
  bool for_each(pugi::xml_node& n) override {
    if (n.type() == pugi::node_element && std::strcmp(n.name(), "class") == 0) {
      if (pugi::xml_attribute f = n.attribute("filename")) files.emplace(f.value());
    }
    return true;
  }
};

}  // namespace

Result<CoverageReport> ParseCobertura(std::string_view xml, std::string_view file) {
  pugi::xml_document doc;
  KZ_RETURN_IF_ERROR(LoadReportXml(xml, file, &doc));
  pugi::xml_node root = doc.document_element();
  if (!root || std::strcmp(root.name(), "coverage") != 0) {
    return InvalidArgument(fmt::format(
        "{}:{}: the root element is <{}>; a Cobertura report has <coverage>", file,
        root ? LineOf(xml, static_cast<size_t>(root.offset_debug())) : 1, root ? root.name() : ""));
  }
  Root r(root, xml, file);
  CoverageReport out;
  out.format = CoverageReport::Format::kCobertura;
  std::optional<double> line_rate, branch_rate;
  KZ_RETURN_IF_ERROR(r.Rate("line-rate", &line_rate));
  KZ_RETURN_IF_ERROR(r.Rate("branch-rate", &branch_rate));
  KZ_RETURN_IF_ERROR(r.Pair("lines-valid", "lines-covered", &out.lines_found, &out.lines_hit));
  KZ_RETURN_IF_ERROR(
      r.Pair("branches-valid", "branches-covered", &out.branches_found, &out.branches_hit));
  // Counts are exact; the rates are rounded (coverage.py writes 4 digits). A report with
  // lines-valid="0" but a line-rate (older gcovr) is read by its rate. branches-valid="0" means no
  // branch was measured (coverage.py without --branch still writes branch-rate="0").
  if (out.lines_found == 0 && line_rate) out.line_rate_given = line_rate;
  if (root.attribute("branches-valid").empty() && branch_rate) out.branch_rate_given = branch_rate;
  if (out.lines_found == 0 && !out.line_rate_given) {
    return InvalidArgument(
        fmt::format("{}: <coverage> gives neither lines-valid/lines-covered nor line-rate", file));
  }
  FileNames names;
  root.traverse(names);
  out.files = static_cast<int64_t>(names.files.size());
  return out;
}
}  // namespace kaizen::signals
