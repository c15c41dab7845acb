// Options every model-reading subcommand shares (--dim, --input-shape, --batch) and the
// tigris_load call built from them.
#ifndef TIGRIS_CLI_MODEL_OPTIONS_H_
#define TIGRIS_CLI_MODEL_OPTIONS_H_

#include <string>
#include <vector>

#include "args.h"
#include "tigris.h"

namespace tigris::cli {

// Flags and options to merge into a subcommand's Args.
std::vector<std::vector<std::string>> ModelOptionSpellings();
// Help text lines for them.
const char* ModelOptionsHelp();

// Loads `path` with the parsed options. On failure prints "tigris: error: <message>" and
// returns NULL; *status receives the library status.
tigris_model* LoadModel(const std::string& path, const Args& args, tigris_status* status);

// Prints a library failure to stderr in one place, so every command reports alike.
void PrintLibraryError(tigris_status status, const char* message);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_MODEL_OPTIONS_H_
