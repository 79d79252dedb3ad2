// lcov tracefiles (geninfo, llvm-cov export -format=lcov, c8, coverage.py lcov): records of
// SF: (source file), DA:line,count[,checksum], LF:/LH: (lines found/hit), BRDA:line,block,branch,
// taken, BRF:/BRH: (branches found/hit), closed by end_of_record. Other record types (TN, FN, FNDA,
// FNF, FNH, VER, ...) are read past.
#pragma once

#include <string_view>

#include "kaizen/status.h"
#include "signals/report.h"

namespace kaizen::signals {

// Line coverage counts each (file, line) once: the DA lines of all records of a file are merged,
// a line is hit when any record counted it. A record without DA lines contributes its LF/LH (and
// without BRDA lines its BRF/BRH). InvalidArgument names `file`, the line number and the rule: a
// DA or BRDA field that is not a number, LH above LF, a record outside SF..end_of_record, no SF
// record at all, input over kMaxReportBytes.
Result<CoverageReport> ParseLcov(std::string_view text, std::string_view file);

}  // namespace kaizen::signals
