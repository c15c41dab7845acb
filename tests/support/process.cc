#include "support/process.h"

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/test_env.h"

namespace tigris::testing {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

ProcessResult RunCommand(const std::string& command) {
  static int counter = 0;
  std::string base =
      (std::filesystem::temp_directory_path() /
       ("tigris_cmd_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
          .string();
  std::string full = command + " >" + base + ".out 2>" + base + ".err";
  int status = std::system(full.c_str());
  ProcessResult r;
  if (status != -1 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.out = Slurp(base + ".out");
  r.err = Slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

std::string TigrisCli() { return BuildDir() + "/bin/tigris"; }

}  // namespace tigris::testing
