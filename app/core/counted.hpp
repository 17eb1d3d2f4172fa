// A count with its noun in English, singular for one ("1 repeat", "5 repeats"): the CLI's
// sentences. The window's strings choose between their _one and _many keys instead (i18n.cpp).
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

namespace ws::app {

inline std::string counted(long long n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace ws::app
