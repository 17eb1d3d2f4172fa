// Seeded mutations of a valid file, for the fuzz tests of every parser the app has (lessons,
// presets, settings, bench JSON): bit flips, deletions, splices, truncations, tokens of the format
// and random bytes; for `key = value` formats also a line's value replaced by a token, since
// numbers and types are where such files go wrong. The same seed gives the same inputs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <random>
#include <string>
#include <string_view>

namespace ws::test_support {

template <std::size_t N>
std::string mutate(std::string text, std::mt19937& rng, const std::string_view (&tokens)[N],
                   bool replace_values = false) {
  auto pick = [&](std::size_t n) {
    return n == 0 ? std::size_t{0} : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  const int edits = 1 + static_cast<int>(pick(4));
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = pick(text.size() + 1);
    switch (pick(replace_values ? 7 : 6)) {
      case 0:  // flip a bit
        if (!text.empty()) text[std::min(at, text.size() - 1)] ^= static_cast<char>(1u << pick(8));
        break;
      case 1:  // delete a short range
        text.erase(std::min(at, text.size()), 1 + pick(16));
        break;
      case 2: {  // splice: a range copied elsewhere
        const std::string chunk = text.substr(std::min(at, text.size()), 1 + pick(200));
        text.insert(pick(text.size() + 1), chunk);
        break;
      }
      case 3:  // truncate
        text.resize(std::min(at, text.size()));
        break;
      case 4:  // insert a token of the format
        text.insert(std::min(at, text.size()), tokens[pick(N)]);
        break;
      case 5:
        if (replace_values) {  // replace the value of one `key = value` line
          const std::size_t eq = text.find(" = ", at);
          if (eq == std::string::npos) break;
          const std::size_t end = text.find('\n', eq);
          text.replace(eq + 3, (end == std::string::npos ? text.size() : end) - eq - 3, tokens[pick(N)]);
          break;
        }
        [[fallthrough]];
      default:  // replace a byte with a random one
        if (!text.empty()) text[std::min(at, text.size() - 1)] = static_cast<char>(pick(256));
        break;
    }
  }
  return text;
}

}  // namespace ws::test_support
