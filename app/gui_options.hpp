// What the command line can set for the window; the same values drive `--screenshot` renders,
// so any moment the app can show can also be rendered headless.
#pragma once

#include <optional>
#include <string>

namespace ws::app {

struct GuiOptions {
  std::string screenshot_path;  // non-empty: render `frames` frames, write the last to this PNG, exit
  int frames = 30;
  int width = 1600, height = 900;
  bool wait_results = false;    // screenshot: keep rendering until the first real runs finish
  bool start_real_run = true;
  bool frame_times = false;     // print median and max frame time at exit

  // Initial controls for the real run.
  std::optional<int> m, n, k;
  std::optional<int> threads;
  std::optional<std::string> cpu_kernel, gpu_kernel;
};

// Opens the window (or renders headless for --screenshot). Returns the process exit code:
// 1 when no display can be opened.
int run_gui(const GuiOptions& options);

}  // namespace ws::app
