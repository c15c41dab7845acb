// The `tigris` subcommands. Each returns the process exit status:
// 0 success, 1 the library reported an error (message printed), 2 usage error.
#ifndef TIGRIS_CLI_COMMANDS_H_
#define TIGRIS_CLI_COMMANDS_H_

namespace tigris::cli {

int RunAnalyze(int argc, char** argv);  // argv[first] is the word after "analyze"
int RunCompile(int argc, char** argv);  // plan and write a .tgrs (cmd_compile.cc)
int RunInspect(int argc, char** argv);  // verify and print a .tgrs (cmd_inspect.cc)
int RunRun(int argc, char** argv);      // run a .tgrs on the host (cmd_run.cc)

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_COMMANDS_H_
