// The human report of `tigris analyze MODEL -m FAST ...`: a few lines with the headline
// numbers (model, SRAM, slow memory, flash, verdict), the stages that do not fit, and with
// -v a table of every stage. Built from the C ABI accessors and tigris_analysis_json.
#ifndef TIGRIS_CLI_ANALYSIS_REPORT_H_
#define TIGRIS_CLI_ANALYSIS_REPORT_H_

#include <cstdint>
#include <cstdio>
#include <string>

#include "tigris.h"

namespace tigris::cli {

// "512 B", "64 KiB", "61.5 KiB", "1.25 MiB": binary units, at most two decimals.
std::string HumanBytes(uint64_t bytes);

// `name` is what the model line calls the model (the CLI passes the file's stem: ONNX
// graph names such as "torch_jit" say little).
void PrintAnalysisReport(std::FILE* out, const tigris_analysis* analysis, const std::string& name,
                         bool verbose);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_ANALYSIS_REPORT_H_
