#include "core/file_write.hpp"

#include <cerrno>
#include <cstring>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace ws::app {

namespace fs = std::filesystem;

namespace {

// All of `bytes` into fd, then its data on the disk where it has one; errno on failure.
bool write_all(int fd, std::string_view bytes, bool sync) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      if (w == 0) errno = EIO;
      return false;
    }
    done += static_cast<std::size_t>(w);
  }
  // Without fsync a crash right after the rename can leave an empty file on some filesystems,
  // which is exactly what the rename is meant to prevent.
  return !sync || ::fsync(fd) == 0;
}

}  // namespace

bool write_file_whole(const fs::path& file, std::string_view bytes, std::string* error) {
  auto fail = [&](const fs::path& where, int err) {
    if (error) *error = fmt::format("cannot write {}: {}", where.string(), std::strerror(err));
    return false;
  };
  try {
    struct stat st {};
    if (::stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
      if (S_ISDIR(st.st_mode)) return fail(file, EISDIR);
      const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0) return fail(file, errno);
      const bool written = write_all(fd, bytes, false);
      const int err = errno;
      const bool closed = ::close(fd) == 0;
      if (!written || !closed) return fail(file, written ? errno : err);
      return true;
    }
    const fs::path tmp = file.string() + fmt::format(".tmp.{}", static_cast<long>(::getpid()));
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return fail(file, errno);
    std::error_code ec;
    const bool written = write_all(fd, bytes, true);
    const int err = errno;
    const bool closed = ::close(fd) == 0;
    if (!written || !closed) {
      const int why = written ? errno : err;
      fs::remove(tmp, ec);
      return fail(file, why);
    }
    fs::rename(tmp, file, ec);
    if (ec) {
      const std::string why = ec.message();
      fs::remove(tmp, ec);
      if (error) *error = fmt::format("cannot replace {}: {}", file.string(), why);
      return false;
    }
    return true;
  } catch (const std::exception& e) {  // a path or message that could not be allocated
    if (error) *error = e.what();
    return false;
  }
}

}  // namespace ws::app
