#include "file_io.h"  // beside it: the CLI compiles this file too (cli/CMakeLists.txt)

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tigris {
namespace {

// Closes a descriptor on every path out of a function.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }
  // close() reports deferred write errors (NFS, quotas), so a writer checks it.
  int Close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

// The temporary name for the next write to `path`: the pid keeps two processes apart,
// the counter two threads (or two writes) of one process.
std::string TemporaryPath(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

}  // namespace

std::string ReadWholeFile(const std::string& path, std::string* bytes) {
  bytes->clear();
  const Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return std::strerror(errno);
  // fstat on the open descriptor, not stat on the name: the same file that is read.
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return "is a directory";
  // The size is a hint (a pipe or /proc file has none); reading to EOF decides.
  if (S_ISREG(st.st_mode) && st.st_size > 0) bytes->reserve(static_cast<size_t>(st.st_size));
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd.get(), chunk, sizeof chunk);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::strerror(errno);
    }
    bytes->append(chunk, static_cast<size_t>(n));
  }
  return "";
}

std::string WriteFileAtomically(const std::string& path, std::string_view bytes) {
  const std::string temporary = TemporaryPath(path);
  // O_EXCL: never write through a file (or link) someone else put at that name.
  Descriptor fd(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
  if (fd.get() < 0) {
    return "cannot create the temporary file '" + temporary + "': " + std::strerror(errno);
  }
  std::string failed;
  const char* at = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd.get(), at, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      failed = "cannot write the temporary file '" + temporary + "': " + std::strerror(errno);
      break;
    }
    at += n;
    left -= static_cast<size_t>(n);
  }
  // fsync before rename: otherwise a crash just after the rename can leave an empty or
  // partial file under the final name on some file systems (ext4 delayed allocation).
  if (failed.empty() && ::fsync(fd.get()) != 0) {
    failed = "cannot flush the temporary file '" + temporary + "' to disk: " + std::strerror(errno);
  }
  if (fd.Close() != 0 && failed.empty()) {
    failed = "cannot close the temporary file '" + temporary + "': " + std::strerror(errno);
  }
  if (failed.empty() && std::rename(temporary.c_str(), path.c_str()) != 0) {
    failed = "cannot rename '" + temporary + "' over it: " + std::strerror(errno);
  }
  if (!failed.empty()) ::unlink(temporary.c_str());
  return failed;
}

}  // namespace tigris
