// The window rendered headless, as the GUI tests look at it: what it printed, the state it
// reported with --print-state and the pixels of its --screenshot.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ws::test_support {

struct WindowRun {
  int exit_code = -1;
  // stdout and stderr together, as run_command gives them: tests look for the app's stderr
  // messages in the same text they print when an expectation fails.
  std::string output;
  nlohmann::json state;  // the last JSON line printed; discarded when there is none
  int w = 0, h = 0;      // 0×0 when no screenshot could be read
  std::vector<unsigned char> rgba;

  const unsigned char* at(int x, int y) const { return &rgba[(static_cast<std::size_t>(y) * w + x) * 4]; }
};

// The `{}` initializers let `{.env = ...}` leave the other field out without a GCC 12 warning.
struct WindowOptions {
  std::string env{};  // `NAME=value ...` set for the window alone
  // When set, HOME and XDG_CONFIG_HOME are this (created) directory, so that no user setting
  // (scale, theme, lesson) leaks in.
  std::string home{};
};

// The state a run printed with --print-state: its last line that starts with '{' (discarded
// when there is none).
nlohmann::json printed_state(const std::string& output);

// Whether a line that ends in `before` and the next, which starts with `after`, part a figure from
// its word or "%" ("cut into 8" / "micro-batches", "DRAM 51.5" / "%"): what no line break may do.
inline bool figure_parted_from_its_word(const std::string& before, const std::string& after) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  return !before.empty() && digit(before.back()) && !after.empty() && (letter(after.front()) || after.front() == '%');
}

// Runs `warpscope --screenshot <test output dir>/<name>-<Suite.Test>.png <args>`. The PNG is
// deleted first so that a window which wrote nothing is never judged by an earlier run's picture.
WindowRun run_window(const std::string& name, const std::string& args, const WindowOptions& options = {});

}  // namespace ws::test_support
