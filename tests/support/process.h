// Runs a command line and captures its exit status and output, for CLI tests.
#ifndef TIGRIS_TESTS_SUPPORT_PROCESS_H_
#define TIGRIS_TESTS_SUPPORT_PROCESS_H_

#include <string>

namespace tigris::testing {

struct ProcessResult {
  int exit_code = -1;  // -1 if the process did not exit normally
  std::string out;     // stdout
  std::string err;     // stderr
};

// Runs `command` through /bin/sh with stdout and stderr captured separately.
ProcessResult RunCommand(const std::string& command);

// Path of the built `tigris` executable.
std::string TigrisCli();

}  // namespace tigris::testing

#endif  // TIGRIS_TESTS_SUPPORT_PROCESS_H_
