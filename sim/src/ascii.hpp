// Case-insensitive names (preset ids, link ids, CPU model strings) compare in ASCII lower case.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace ws::sim::detail {

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace ws::sim::detail
