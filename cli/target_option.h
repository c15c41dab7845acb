// `--target FILE` (analyze, compile, run): a target description (docs/memories.md) read
// for the library, which parses and checks it, and the per-memory table commands print.
#ifndef TIGRIS_CLI_TARGET_OPTION_H_
#define TIGRIS_CLI_TARGET_OPTION_H_

#include <optional>
#include <string>

#include "args.h"

namespace tigris::cli {

struct TargetFile {
  std::string path;
  std::string yaml;
};

// The file --target names, read whole; nullopt without --target. Throws UsageError when
// given twice, std::runtime_error naming the file and the cause when it is missing,
// unreadable, a directory or empty (ReadInputFile).
std::optional<TargetFile> ReadTargetOption(const Args& args);
// Likewise for any option naming a file (`--rules`); `what` names it in the message.
std::optional<TargetFile> ReadFileOption(const Args& args, const char* option, const char* what);

// Prints tigris_plan_memories_json as a table: memory, capacity, used, what it holds.
void PrintMemoryTable(const char* memories_json);
// The -m shorthand's STATE and CONSTANTS arenas, one line each when the plan has them
// (roles "state" and "constants" of tigris_plan_memories_json).
void PrintStateAndConstants(const char* memories_json);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_TARGET_OPTION_H_
