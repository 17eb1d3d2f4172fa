// What the command line can set for the window; the same values drive `--screenshot` renders,
// so any moment the app can show can also be rendered headless.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

  // Initial simulated launch.
  std::optional<std::string> gpu_preset, cpu_preset;
  std::optional<std::string> sim_kernel;  // the simulated kernel, instead of the real run's model
  std::optional<int> block;
  std::optional<long long> cycle;   // jump here once the simulation is ready (clamped to its end)
  std::optional<std::string> zoom;  // "chip", "sm:N", "warp:N:W", "lane:N:W:L"
  std::optional<std::string> select;  // "lane:N:W:L" or "core:C": what the inspector shows
  bool cluster = false;               // open with the cluster view shown (View > Cluster)
  std::string cluster_strategy = "data";  // its first split: data, tensor, pipeline or hybrid
  int cluster_gpus = 8;                   // its first GPU count, 1..64
  bool roofline = false;              // open with the roofline panel shown (View > Roofline)

  // Synthetic key presses, fed through the same path as real keys one frame apart, e.g.
  // "Right,Right,Space,wait:5,Space"; and a JSON line of the app's state printed at exit.
  std::string keys;
  bool print_state = false;
  // Headless: start drawing as soon as the launch exists, while the rest is still simulated (as a
  // user sees it), instead of waiting for the whole run.
  bool no_wait = false;

  // Runs measured on other machines (JSON from `warpscope bench --json`), shown beside this
  // machine's; every *.json in assets/measured/ is shown too.
  std::vector<std::string> measured_files;

  // --soak: drive the window with seeded random input for this many seconds, then print one JSON
  // line of figures and exit 1 on any fault it saw.
  double soak_seconds = 0;
  std::uint64_t soak_seed = 1;

  // Lecture mode.
  std::string lesson_path;            // open this lesson (TOML) when the window opens
  std::optional<int> lesson_step;     // 1-based step to show first
  std::string export_dir;             // non-empty: render every step to DIR/step-NN.png, then exit
  std::optional<std::string> language;  // "en" or "ko": UI labels (else the saved setting)
  // Presentation: the user's UI scale (else the saved setting), and the monitor's content scale
  // (else what GLFW reports), so a test renders as a HiDPI screen would.
  std::optional<float> ui_scale;
  std::optional<float> content_scale;

  // Where settings.toml lives. Empty: $WARPSCOPE_CONFIG_DIR, else the XDG default (see
  // settings_dir()). Headless renders (--screenshot, --print-state, lesson export) and --soak
  // read and write settings only when this or $WARPSCOPE_CONFIG_DIR names a directory.
  std::string config_dir;
};

// Whether this run reads and writes settings.toml: always for the interactive window; for a
// headless render, an export, --print-state or a soak only with an explicit config directory
// (--config-dir or $WARPSCOPE_CONFIG_DIR), so rendering never changes what the user saved.
bool uses_saved_settings(const GuiOptions& options);

// "1600x900" -> 1600, 900; false (and nothing written) outside 320x240..7680x4320.
bool parse_window_size(const std::string& text, int& width, int& height);

// Opens the window (or renders headless for --screenshot). Returns the process exit code:
// 1 when no display can be opened.
int run_gui(const GuiOptions& options);

}  // namespace ws::app
