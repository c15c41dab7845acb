// Files a user may hand the CLI where a good one belongs (issue 42): empty, cut in half, a
// directory, unreadable, or missing. Each must be a named error, exit 1 with the path and
// the cause on stderr: never a crash, a generic exception text, or a silent success.
#ifndef TIGRIS_TESTS_CLI_BAD_FILES_H_
#define TIGRIS_TESTS_CLI_BAD_FILES_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "support/process.h"

namespace tigris::cli_test {

struct BadFiles {
  std::string empty;       // zero bytes
  std::string truncated;   // the first half of the good file
  std::string directory;   // a folder where a file belongs
  std::string unreadable;  // the good file with mode 000
  std::string missing;     // nothing at that path
};

// The five, made in `dir` (created) from the good file `good`, named
// <stem>_<case><extension> after it so a message that names the file is told apart.
inline BadFiles MakeBadFiles(const std::filesystem::path& dir, const std::string& good) {
  namespace fs = std::filesystem;
  fs::create_directories(dir);
  const fs::path g(good);
  const auto name = [&](const std::string& which) {
    return (dir / (g.stem().string() + "_" + which + g.extension().string())).string();
  };
  std::ifstream in(good, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_GT(bytes.size(), 1u) << good;
  BadFiles f{name("empty"), name("truncated"), name("directory"), name("unreadable"),
             name("missing")};
  std::ofstream(f.empty, std::ios::binary).flush();
  std::ofstream(f.truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  fs::create_directories(f.directory);
  std::ofstream(f.unreadable, std::ios::binary) << bytes;
  fs::permissions(f.unreadable, fs::perms::none);
  fs::remove(f.missing);
  return f;
}

// Root reads a mode-000 file anyway, so the unreadable case is only testable as a user.
inline bool RunningAsRoot() { return ::geteuid() == 0; }

// A named error: exit 1, `path` and `cause` on stderr, and no C++ exception's own text
// (what() of std::exception, std::bad_alloc, a libstdc++ "basic_string" message).
inline void ExpectNamedError(const tigris::testing::ProcessResult& r, const std::string& path,
                             const std::string& cause) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find(path), std::string::npos) << "the message names the file:\n" << r.err;
  EXPECT_NE(r.err.find(cause), std::string::npos) << "the message says '" << cause << "':\n"
                                                  << r.err;
  for (const char* generic : {"std::exception", "std::bad_alloc", "basic_string", "terminate"}) {
    EXPECT_EQ(r.err.find(generic), std::string::npos) << r.err;
  }
}

}  // namespace tigris::cli_test

#endif  // TIGRIS_TESTS_CLI_BAD_FILES_H_
