#include "signals/junit.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include <fmt/format.h>
#include <pugixml.hpp>

namespace kaizen::signals {
namespace {

bool Named(const pugi::xml_node& n, const char* name) { return std::strcmp(n.name(), name) == 0; }

std::string Clip(std::string_view s, size_t n) {
  // Trim surrounding whitespace; cut on a UTF-8 boundary.
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if (s.size() <= n) return std::string(s);
  size_t cut = n;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "...";
}

// Totals above this are refused as implausible (as lcov and Cobertura counts are): a suite's
// failures + errors + skipped + disabled, and the sum over every suite a 64 MiB report can hold,
// then cannot overflow int64_t.
constexpr int64_t kMaxCount = 1'000'000'000'000;

// A suite attribute that must be a whole count; absent is 0.
Status Count(const pugi::xml_node& suite, const char* attr, std::string_view file,
             std::string_view xml, int64_t* out) {
  pugi::xml_attribute a = suite.attribute(attr);
  if (!a) return Status::Ok();
  std::string_view v = a.value();
  int64_t n = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || p != v.data() + v.size() || n < 0 || n > kMaxCount) {
    return InvalidArgument(
        fmt::format("{}:{}: <{}> attribute {}=\"{}\" must be a whole number in 0..10^12", file,
                    LineOf(xml, static_cast<size_t>(suite.offset_debug())), suite.name(), attr, v));
  }
  *out += n;
  return Status::Ok();
}

class CaseCounter : public pugi::xml_tree_walker {
 public:
  explicit CaseCounter(TestReport* r) : r_(r) {}
  int64_t cases = 0;

  bool for_each(pugi::xml_node& n) override {
    if (n.type() != pugi::node_element) return true;
    if (Named(n, "testsuite")) ++r_->suites;
    if (!Named(n, "testcase")) return true;
    ++cases;
    ++r_->tests;
    double t = n.attribute("time").as_double(0);
    if (std::isfinite(t) && t > 0) r_->time_seconds += t;
    pugi::xml_node failure = n.child("failure"), error = n.child("error");
    pugi::xml_node bad = failure ? failure : error;
    if (bad) {
      ++(failure ? r_->failures : r_->errors);
      if (r_->failed.size() < kMaxFailedCasesKept) {
        FailedCase f;
        pugi::xml_node parent = n.parent();
        if (Named(parent, "testsuite")) f.suite = parent.attribute("name").value();
        f.classname = n.attribute("classname").value();
        f.name = n.attribute("name").value();
        std::string_view msg = bad.attribute("message").value();
        if (msg.empty()) msg = bad.text().get();
        f.message = Clip(msg, kMaxFailureMessage);
        f.error = !failure;
        r_->failed.push_back(std::move(f));
      }
    } else if (n.child("skipped")) {
      ++r_->skipped;
    }
    return true;
  }

 private:
  TestReport* r_;
};

// A report that lists no test case: the totals of the innermost suites.
Status SuiteTotals(const pugi::xml_node& root, std::string_view file, std::string_view xml,
                   TestReport* r) {
  std::vector<pugi::xml_node> stack{root};
  while (!stack.empty()) {
    pugi::xml_node n = stack.back();
    stack.pop_back();
    bool has_child_suite = false;
    for (pugi::xml_node c : n.children("testsuite")) {
      has_child_suite = true;
      stack.push_back(c);
    }
    if (has_child_suite || !Named(n, "testsuite")) continue;
    int64_t tests = 0, failures = 0, errors = 0, skipped = 0, disabled = 0;
    KZ_RETURN_IF_ERROR(Count(n, "tests", file, xml, &tests));
    KZ_RETURN_IF_ERROR(Count(n, "failures", file, xml, &failures));
    KZ_RETURN_IF_ERROR(Count(n, "errors", file, xml, &errors));
    KZ_RETURN_IF_ERROR(Count(n, "skipped", file, xml, &skipped));
    KZ_RETURN_IF_ERROR(Count(n, "disabled", file, xml, &disabled));
    skipped += disabled;
    if (failures + errors + skipped > tests) {
      return InvalidArgument(fmt::format(
          "{}:{}: <testsuite> failures + errors + skipped ({}) exceed tests ({})", file,
          LineOf(xml, static_cast<size_t>(n.offset_debug())), failures + errors + skipped, tests));
    }
    r->tests += tests;
    r->failures += failures;
    r->errors += errors;
    r->skipped += skipped;
  }
  return Status::Ok();
}

}  // namespace

Result<TestReport> ParseJUnit(std::string_view xml, std::string_view file) {
  pugi::xml_document doc;
  KZ_RETURN_IF_ERROR(LoadReportXml(xml, file, &doc));
  pugi::xml_node root = doc.document_element();
  if (!root)
    return InvalidArgument(fmt::format("{}: no root element (an empty JUnit report)", file));
  if (!Named(root, "testsuites") && !Named(root, "testsuite")) {
    return InvalidArgument(
        fmt::format("{}:{}: the root element is <{}>; a JUnit report has <testsuites> or "
                    "<testsuite>",
                    file, LineOf(xml, static_cast<size_t>(root.offset_debug())), root.name()));
  }
  TestReport r;
  CaseCounter counter(&r);
  root.traverse(counter);
  if (Named(root, "testsuite")) ++r.suites;  // traverse() visits descendants only
  if (counter.cases == 0) KZ_RETURN_IF_ERROR(SuiteTotals(root, file, xml, &r));
  return r;
}

}  // namespace kaizen::signals
