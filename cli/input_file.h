// Every file the CLI reads that the user named (plans, .npy inputs, target and rules
// YAML; the model is read by tigris_load) comes through here, so each failure says which
// file and why in the same words, and none reaches a parser as a misleading empty string.
#ifndef TIGRIS_CLI_INPUT_FILE_H_
#define TIGRIS_CLI_INPUT_FILE_H_

#include <string>

namespace tigris::cli {

// The whole of `path`, or a std::runtime_error that main prints as "tigris: error: ..."
// (exit 1), naming the file by `what` ("plan", "input", "target", "rules") and its path:
//   cannot read WHAT 'PATH': is a directory     (or: No such file or directory,
//                                                Permission denied, ...: strerror)
//   WHAT 'PATH' is empty (0 bytes)               no input the CLI reads can be empty
std::string ReadInputFile(const std::string& path, const std::string& what);

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_INPUT_FILE_H_
