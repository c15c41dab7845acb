// A small, strict command-line parser for the `tigris` subcommands: options are declared
// up front, unknown options and missing values are errors with a hint to --help.
#ifndef TIGRIS_CLI_ARGS_H_
#define TIGRIS_CLI_ARGS_H_

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tigris::cli {

// Thrown for a usage error; main() prints it and exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Args {
 public:
  // `flags` take no value; `options` take one value and may repeat ("-m 256K -m 8M").
  // Long and short spellings are listed separately, e.g. {"-m", "--memory"}; the first
  // spelling is the key used by Get*.
  Args(std::vector<std::vector<std::string>> flags, std::vector<std::vector<std::string>> options);

  void Parse(int argc, char** argv, int first);

  bool Flag(const std::string& key) const { return flags_set_.count(key) != 0; }
  const std::vector<std::string>& Values(const std::string& key) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> flag_alias_, option_alias_;  // spelling -> key
  std::map<std::string, bool> flags_set_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
};

}  // namespace tigris::cli

#endif  // TIGRIS_CLI_ARGS_H_
