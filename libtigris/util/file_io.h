// Reading the files a user names and writing the plan, with the cause of a failure in
// words the user can act on. A leaf like escape.h: the CLI compiles it too
// (cli/CMakeLists.txt), so the library and the command read and write files one way.
//
// Why not std::ifstream / std::ofstream: on Linux an ifstream opens a directory and then
// reads nothing, so a directory passed for a model or a plan looked like an empty or
// corrupt file; and an ofstream truncates the old output before the new bytes are
// written, so a failed or interrupted write destroyed a plan that was fine.
#ifndef TIGRIS_UTIL_FILE_IO_H_
#define TIGRIS_UTIL_FILE_IO_H_

#include <string>
#include <string_view>

namespace tigris {

// Reads the whole of `path` into *bytes. Returns "" when it did, else the cause, to be
// quoted after the path: "is a directory", or strerror(errno) of the failed open or read
// ("No such file or directory", "Permission denied"). An empty file reads successfully:
// whether zero bytes is an error, and which one, is for the caller to say.
std::string ReadWholeFile(const std::string& path, std::string* bytes);

// Replaces `path` with `bytes` atomically: writes a temporary file beside it
// ("<path>.tmp.<pid>.<n>", same directory, so the same file system), flushes it to disk
// (fsync), then renames it over `path`. Readers see the old file or the new one, never a
// part of either; on any failure the temporary file is removed and whatever was at `path`
// is left untouched. The new file gets the default permissions (0666 less the umask),
// not those of the file it replaces; a symbolic link at `path` is replaced, not followed.
// Returns "" on success, else what failed and strerror(errno), to quote after the path.
std::string WriteFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace tigris

#endif  // TIGRIS_UTIL_FILE_IO_H_
