// Writing a whole file so that a failure (a full disk, a read-only folder) is reported, and the
// file that was there before stays as it was: settings, screenshots, a lesson's pictures.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace ws::app {

// Writes `bytes` to a temporary file beside `file` (the pid in its name keeps two instances
// apart), syncs it and renames it over `file`: a crash or a full disk mid-write leaves the old
// file whole. Where `file` exists and is no regular file (a device such as /dev/stdout, a FIFO)
// it is written in place, as nothing can be renamed over it. Does not create folders. Returns
// false and fills *error (when given) with the path and the system's reason; never throws.
bool write_file_whole(const std::filesystem::path& file, std::string_view bytes, std::string* error = nullptr);

}  // namespace ws::app
