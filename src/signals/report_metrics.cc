#include "signals/report_metrics.h"

#include <simdjson.h>

#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "model/schema.h"
#include "signals/cobertura.h"
#include "signals/lcov.h"

namespace kaizen::signals {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Shown(std::string_view json) {
  if (json.size() <= 60) return std::string(json);
  return std::string(json.substr(0, 60)) + "...";
}

enum class Type { kRate, kCount, kBool };

struct Field {
  std::string_view name;
  Type type;
};

// seed 003 QualityMetrics, in its order.
constexpr Field kFields[] = {
    {"test_coverage", Type::kRate},
    {"tests_passing", Type::kBool},
    {"test_count", Type::kCount},
    {"code_quality_score", Type::kRate},
    {"complexity", Type::kCount},
    {"duplications", Type::kRate},
    {"security_score", Type::kRate},
    {"vulnerabilities", Type::kCount},
    {"type_coverage", Type::kRate},
    {"type_errors", Type::kCount},
    {"doc_coverage", Type::kRate},
    {"overall_quality", Type::kRate},
    // seed 003 QualityEvaluator's names of three of them (model::CanonicalMetric)
    {"code_quality", Type::kRate},
    {"documentation", Type::kRate},
    {"type_safety", Type::kRate},
};

std::string FieldList() {
  std::string s;
  for (const Field& f : kFields) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s;
}

std::optional<double>* RateSlot(model::LoopMetricsView& m, std::string_view k) {
  k = model::CanonicalMetric(k);
  if (k == "test_coverage") return &m.test_coverage;
  if (k == "code_quality_score") return &m.code_quality_score;
  if (k == "duplications") return &m.duplications;
  if (k == "security_score") return &m.security_score;
  if (k == "type_coverage") return &m.type_coverage;
  if (k == "doc_coverage") return &m.doc_coverage;
  if (k == "overall_quality") return &m.overall_quality;
  return nullptr;
}

std::optional<int64_t>* CountSlot(model::LoopMetricsView& m, std::string_view k) {
  if (k == "test_count") return &m.test_count;
  if (k == "complexity") return &m.complexity;
  if (k == "vulnerabilities") return &m.vulnerabilities;
  if (k == "type_errors") return &m.type_errors;
  return nullptr;
}

std::optional<double> Number(simdjson::dom::element v) {
  double d;
  if (v.is_int64()) return static_cast<double>(v.get_int64().value());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64().value());
  if (v.get_double().get(d) == simdjson::SUCCESS) return d;
  return std::nullopt;
}

Status ReadMetrics(simdjson::dom::object obj, std::string_view path, model::LoopMetricsView* m) {
  for (auto [key, value] : obj) {
    const Field* field = nullptr;
    for (const Field& f : kFields)
      if (f.name == key) field = &f;
    const std::string where = fmt::format("{}{}", path, key);
    if (!field) {
      return InvalidArgument(
          fmt::format("{}: unknown field (QualityMetrics has {})", where, FieldList()));
    }
    if (value.is_null()) continue;  // null counts as absent, as in stored events
    const std::string shown = Shown(simdjson::minify(value));
    switch (field->type) {
      case Type::kBool: {
        bool b;
        if (value.get_bool().get(b) != simdjson::SUCCESS)
          return InvalidArgument(fmt::format("{}: {} must be true or false", where, shown));
        m->tests_passing = b;
        break;
      }
      case Type::kRate: {
        auto d = Number(value);
        if (!d || !(*d >= 0 && *d <= 1))
          return InvalidArgument(fmt::format("{}: {} must be a number in 0..1", where, shown));
        std::optional<double>* slot = RateSlot(*m, key);
        if (slot->has_value() && model::CanonicalMetric(key) != key) {
          return InvalidArgument(fmt::format("{}: names the same as {}{}, given too (give one)",
                                             where, path, model::CanonicalMetric(key)));
        }
        if (slot->has_value()) {
          return InvalidArgument(
              fmt::format("{}: given twice, by this name or another (give it once)", where));
        }
        *slot = *d + 0.0;  // -0 is stored as 0
        break;
      }
      case Type::kCount: {
        int64_t n;
        if (value.get_int64().get(n) != simdjson::SUCCESS || n < 0) {
          return InvalidArgument(fmt::format("{}: {} must be a whole number >= 0", where, shown));
        }
        *CountSlot(*m, key) = n;
        break;
      }
    }
  }
  if (Empty(*m)) {
    return InvalidArgument(fmt::format("{}: no QualityMetrics field (give at least one of {})",
                                       path.empty() ? "metrics" : path.substr(0, path.size() - 1),
                                       FieldList()));
  }
  return Status::Ok();
}

Result<EvaluatedMetrics> ParseObject(simdjson::dom::object obj) {
  EvaluatedMetrics out;
  simdjson::dom::element inner;
  if (obj.at_key("metrics").get(inner) != simdjson::SUCCESS) {
    KZ_RETURN_IF_ERROR(ReadMetrics(obj, "", &out.metrics));
    return out;
  }
  for (auto [key, value] : obj) {
    if (key == "metrics") continue;
    if (key != "cost") {
      return InvalidArgument(
          fmt::format("{}: unknown field (beside `metrics` only `cost` may be given)", key));
    }
    if (value.is_null()) continue;
    auto d = Number(value);
    if (!d || !(*d >= 0) || !std::isfinite(*d)) {
      return InvalidArgument(
          fmt::format("cost: {} must be a number of dollars >= 0", Shown(simdjson::minify(value))));
    }
    out.cost = *d + 0.0;
  }
  simdjson::dom::object m;
  if (inner.get_object().get(m) != simdjson::SUCCESS) {
    return InvalidArgument(
        fmt::format("metrics: {} must be a QualityMetrics object", Shown(simdjson::minify(inner))));
  }
  KZ_RETURN_IF_ERROR(ReadMetrics(m, "metrics.", &out.metrics));
  return out;
}

void Rate(std::string& out, std::string_view k, const std::optional<double>& v) {
  if (v) out += fmt::format("{}\"{}\":{}", out.size() > 1 ? "," : "", k, *v);
}
void Count(std::string& out, std::string_view k, const std::optional<int64_t>& v) {
  if (v) out += fmt::format("{}\"{}\":{}", out.size() > 1 ? "," : "", k, *v);
}

}  // namespace

CoverageReport::Format DetectCoverageFormat(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // UTF-16 (what Windows PowerShell's `>` writes): its byte order mark and NUL bytes are passed
  // over, so an XML report is still seen as one and pugixml decodes it; it was read as lcov.
  if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF") text.remove_prefix(2);
  size_t i = 0;
  while (i < text.size() && (text[i] == '\0' || std::isspace(static_cast<unsigned char>(text[i]))))
    ++i;
  return i < text.size() && text[i] == '<' ? CoverageReport::Format::kCobertura
                                           : CoverageReport::Format::kLcov;
}

Result<CoverageReport> ParseCoverage(std::string_view text, std::string_view file) {
  if (DetectCoverageFormat(text) == CoverageReport::Format::kCobertura)
    return ParseCobertura(text, file);
  return ParseLcov(text, file);
}

model::LoopMetricsView MetricsFromReports(const TestReport* tests, const CoverageReport* coverage) {
  model::LoopMetricsView m;
  if (tests) {
    m.tests_passing = tests->passing();
    m.test_count = tests->tests;
  }
  if (coverage) m.test_coverage = coverage->LineRate();
  return m;
}

Result<EvaluatedMetrics> ParseEvaluateOutput(std::string_view output) {
  std::string_view whole = Trim(output);
  if (whole.empty()) {
    return InvalidArgument(
        "the evaluate command printed nothing; it must print QualityMetrics JSON (or name "
        "reports with --junit/--lcov/--cobertura)");
  }
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  auto error = parser.parse(whole.data(), whole.size()).get(doc);
  if (error != simdjson::SUCCESS) {
    // Output before the metrics: read the last non-blank line alone.
    size_t nl = whole.rfind('\n');
    std::string_view last = nl == std::string_view::npos ? whole : Trim(whole.substr(nl + 1));
    if (last.size() == whole.size() || parser.parse(last.data(), last.size()).get(doc)) {
      return InvalidArgument(fmt::format(
          "the evaluate command's output is not QualityMetrics JSON ({}), and neither is its "
          "last line: {}",
          simdjson::error_message(error), Shown(last)));
    }
  }
  simdjson::dom::object obj;
  if (doc.get_object().get(obj) != simdjson::SUCCESS) {
    return InvalidArgument(
        fmt::format("the evaluate command printed {}, not a QualityMetrics JSON object",
                    Shown(simdjson::minify(doc))));
  }
  return ParseObject(obj);
}

std::string QualityMetricsJson(const model::LoopMetricsView& m) {
  std::string out = "{";
  Rate(out, "test_coverage", m.test_coverage);
  if (m.tests_passing)
    out += fmt::format("{}\"tests_passing\":{}", out.size() > 1 ? "," : "", *m.tests_passing);
  Count(out, "test_count", m.test_count);
  Rate(out, "code_quality_score", m.code_quality_score);
  Count(out, "complexity", m.complexity);
  Rate(out, "duplications", m.duplications);
  Rate(out, "security_score", m.security_score);
  Count(out, "vulnerabilities", m.vulnerabilities);
  Rate(out, "type_coverage", m.type_coverage);
  Count(out, "type_errors", m.type_errors);
  Rate(out, "doc_coverage", m.doc_coverage);
  Rate(out, "overall_quality", m.overall_quality);
  out += "}";
  return out;
}

bool Empty(const model::LoopMetricsView& m) {
  return !m.test_coverage && !m.tests_passing && !m.test_count && !m.code_quality_score &&
         !m.complexity && !m.duplications && !m.security_score && !m.vulnerabilities &&
         !m.type_coverage && !m.type_errors && !m.doc_coverage && !m.overall_quality;
}

}  // namespace kaizen::signals
