#include "text_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace ws {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return nullptr;
}

TextFile fail(TextFile::Problem p, std::string message) {
  TextFile f;
  f.problem = p;
  f.error = std::move(message);
  return f;
}

std::string not_regular(mode_t mode, const std::string& what) {
  const char* kind = kind_of(mode);
  if (kind == nullptr) return "is not a regular file";
  return fmt::format("is {}, not a {}", kind, what);
}

std::string too_large(std::size_t size, std::size_t max_bytes, const std::string& what, bool exact) {
  // Bytes, not MiB: "1.0 MiB; the limit is 1 MiB" would not say what is wrong.
  return fmt::format("is too large for a {} ({}{} bytes; the limit is {})", what, exact ? "" : "more than ",
                     exact ? size : max_bytes, format_byte_size(max_bytes));
}

}  // namespace

std::string format_byte_size(std::size_t bytes) {
  constexpr std::size_t kKiB = 1024, kMiB = 1024 * 1024;
  if (bytes >= kMiB) {
    if (bytes % kMiB == 0) return fmt::format("{} MiB", bytes / kMiB);
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / kMiB);
  }
  if (bytes >= kKiB && bytes % kKiB == 0) return fmt::format("{} KiB", bytes / kKiB);
  return fmt::format("{} bytes", bytes);
}

TextFile read_text_file(const std::filesystem::path& path, std::size_t max_bytes, const std::string& what) {
  // stat first: opening a FIFO for reading would wait for a writer, and a device may hang on open.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return fail(TextFile::Problem::cannot_open, "cannot open the " + what);
  if (!S_ISREG(st.st_mode)) return fail(TextFile::Problem::not_regular, not_regular(st.st_mode, what));
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    return fail(TextFile::Problem::too_large, too_large(static_cast<std::size_t>(st.st_size), max_bytes, what, true));

  // O_NONBLOCK: the path may have been swapped for a FIFO since the stat; fstat below checks again.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return fail(TextFile::Problem::cannot_open, "cannot open the " + what);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0) return fail(TextFile::Problem::cannot_read, "cannot read the " + what);
  if (!S_ISREG(st.st_mode)) return fail(TextFile::Problem::not_regular, not_regular(st.st_mode, what));

  // The size from stat is a hint only (files in /proc say 0, a log may grow): the limit is
  // enforced on what is actually read.
  std::string text;
  text.resize(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), max_bytes) + 1);
  std::size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (text.size() > max_bytes) return fail(TextFile::Problem::too_large, too_large(got, max_bytes, what, false));
      text.resize(std::min(max_bytes + 1, std::max<std::size_t>(text.size() * 2, 4096)));
    }
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(TextFile::Problem::cannot_read, fmt::format("cannot read the {} ({})", what, std::strerror(errno)));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > max_bytes) return fail(TextFile::Problem::too_large, too_large(got, max_bytes, what, false));
  text.resize(got);
  TextFile f;
  f.text = std::move(text);
  return f;
}

}  // namespace ws
