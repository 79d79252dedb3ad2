#include "signals/report.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>
#include <pugixml.hpp>

namespace kaizen::signals {

std::optional<double> CoverageReport::LineRate() const {
  if (line_rate_given) return line_rate_given;
  if (lines_found <= 0) return std::nullopt;
  return static_cast<double>(lines_hit) / static_cast<double>(lines_found);
}

std::optional<double> CoverageReport::BranchRate() const {
  if (branch_rate_given) return branch_rate_given;
  if (branches_found <= 0) return std::nullopt;
  return static_cast<double>(branches_hit) / static_cast<double>(branches_found);
}

std::string_view FormatName(CoverageReport::Format f) {
  return f == CoverageReport::Format::kLcov ? "lcov" : "cobertura";
}

Status CheckReportSize(std::string_view text, std::string_view file) {
  if (text.size() <= kMaxReportBytes) return Status::Ok();
  return InvalidArgument(fmt::format("{}: {} bytes is over the report size limit of {} bytes", file,
                                     text.size(), kMaxReportBytes));
}

Status LoadReportXml(std::string_view xml, std::string_view file, pugi::xml_document* doc) {
  KZ_RETURN_IF_ERROR(CheckReportSize(xml, file));
  // pugixml's "No document element found" did not say that the file was simply empty (a test
  // command that crashed before writing its report).
  if (std::all_of(xml.begin(), xml.end(),
                  [](char c) { return std::isspace(static_cast<unsigned char>(c)); })) {
    return InvalidArgument(fmt::format(
        "{}: the file is empty ({} bytes); an XML report has a root element", file, xml.size()));
  }
  pugi::xml_parse_result parsed =
      doc->load_buffer(xml.data(), xml.size(), pugi::parse_default, pugi::encoding_auto);
  if (parsed) return Status::Ok();
  return InvalidArgument(fmt::format("{}:{}: not well-formed XML: {}", file,
                                     LineOf(xml, static_cast<size_t>(parsed.offset)),
                                     parsed.description()));
}

int64_t LineOf(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
}

}  // namespace kaizen::signals
