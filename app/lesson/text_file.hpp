// Reading a small text file the user points the app at (a lesson, the settings, a measured run).
// Such a path can name anything: a FIFO that never delivers, /dev/urandom, a directory, a
// multi-gigabyte log. Every such read goes through read_text_file, which refuses anything but a
// regular file of at most `max_bytes` before reading it, so a wrong path costs one error line and
// never a hang or an exhausted memory. It lives with the lesson library because that is the
// lowest layer both the lesson parser and app/core link; sim/ keeps its own copy (presets.cpp),
// as it may not include app code.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace ws {

struct TextFile {
  enum class Problem { none, cannot_open, not_regular, too_large, cannot_read };
  std::optional<std::string> text;  // the whole file, when it could be read
  Problem problem = Problem::none;
  // One line without the file's name, for the caller to prefix: "is a FIFO, not a lesson file",
  // "is too large for a lesson file (3.0 MiB; the limit is 1 MiB)". Empty when `text` is set.
  std::string error;
};

// `what` names the kind of file in the messages ("lesson file", "settings file"). Never throws
// for I/O problems, never blocks on a FIFO, never reads more than max_bytes + 1 bytes.
TextFile read_text_file(const std::filesystem::path& path, std::size_t max_bytes, const std::string& what);

// "1 MiB", "16 MiB", "512 KiB", "300 bytes": how the limits are worded in messages and docs.
std::string format_byte_size(std::size_t bytes);

}  // namespace ws
