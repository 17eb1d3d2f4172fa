// One binary: with no subcommand it opens the window; subcommands run headless.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>
#include <string>
#include <system_error>

#include <CLI/CLI.hpp>

#include "cli_commands.hpp"
#include "core/assets.hpp"
#include "core/build_info.hpp"
#include "gui_options.hpp"
#include "warpscope/kernels/blas_core.hpp"
#include "warpscope/kernels/system_info.hpp"
#include "warpscope/sim/presets.hpp"

namespace {

// What escaped every handler below it (memory or threads ran out where nothing could go on):
// said in one line and exit 1, not an abort and a core dump.
int report_failure(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr)
    std::fprintf(stderr, "warpscope: ran out of memory (%s)\n", e.what());
  else if (dynamic_cast<const std::filesystem::filesystem_error*>(&e) != nullptr)  // also a system_error
    std::fprintf(stderr, "warpscope: %s\n", e.what());
  else if (dynamic_cast<const std::system_error*>(&e) != nullptr)
    std::fprintf(stderr, "warpscope: the system refused a thread or lock (%s): memory or process limits too tight?\n",
                 e.what());
  else
    std::fprintf(stderr, "warpscope: %s\n", e.what());
  return 1;
}

// Output that did not reach its file (`bench --json > x` on a full disk) is said, and the exit
// is not 0: stdio only keeps the failure in the stream's error flag.
int with_output_checked(int code) {
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  if (flushed && !std::ferror(stdout)) return code;
  if (!flushed && errno != 0)
    std::fprintf(stderr, "warpscope: could not write the output: %s\n", std::strerror(errno));
  else
    std::fprintf(stderr, "warpscope: could not write all of the output\n");
  return code == 0 ? 1 : code;
}

}  // namespace

int main(int argc, char** argv) {
  // First, before anything else runs: this may re-execute the program with OPENBLAS_CORETYPE set.
  ws::kernels::use_right_openblas_core(argv);
  // The simulated "this machine" CPU gets the SIMD width and FMA units the real kernels go by.
  const auto& cpu = ws::kernels::cpu_info();
  ws::sim::provide_this_machine_simd({cpu.simd_name, cpu.fp32_lanes, cpu.fma_units,
                                      "CPUID and XGETBV as read by the real kernels"});
  // Then, while this is still the only thread: sim/ reads presets through $WARPSCOPE_ASSETS.
  ws::app::publish_assets_dir();
  CLI::App app{"warpscope: why AI runs on GPUs. A real matrix multiply C = A·B on this machine's CPU and\n"
               "GPU, beside a simulated GPU and a few smart CPU cores. With no subcommand it opens the window."};
  const auto& assets = ws::app::assets_choice();
  app.set_version_flag("--version", ws::app::version_line() + "\nassets: " + assets.dir + " (" +
                                        ws::app::to_string(assets.origin) + ")");
  app.require_subcommand(0, 1);

  ws::app::GuiOptions gui;
  std::string window_size;
  app.add_option("--screenshot", gui.screenshot_path, "Render the window headless and write the last frame to this PNG");
  app.add_option("--frames", gui.frames, "Frames to render before a --screenshot is taken")->check(CLI::Range(1, 100000));
  app.add_option("--window", window_size, "Window size as WxH, e.g. 1600x900");
  app.add_flag("--wait-results", gui.wait_results, "With --screenshot: wait until the first real runs finish");
  app.add_flag("!--no-run", gui.start_real_run, "Do not start a real run when the window opens");
  app.add_flag("--frame-times", gui.frame_times, "Print the median and max frame time when the window closes");
  app.add_option("--size", [&](const CLI::results_t& r) {
    const int s = std::stoi(r[0]);
    gui.m = gui.n = gui.k = s;
    return true;
  }, "Initial M=N=K of the real run")->check(CLI::Range(1, 16384));
  app.add_option("--m", gui.m, "Initial M")->check(CLI::Range(1, 16384));
  app.add_option("--n", gui.n, "Initial N")->check(CLI::Range(1, 16384));
  app.add_option("--k", gui.k, "Initial K")->check(CLI::Range(1, 16384));
  app.add_option("--threads", gui.threads, "Initial CPU thread count")->check(CLI::Range(1, 1024));
  app.add_option("--cpu-kernel", gui.cpu_kernel, "Initial CPU kernel (see `warpscope bench --help`)");
  app.add_option("--gpu-kernel", gui.gpu_kernel, "Initial GPU kernel");

  app.add_option("--preset", gui.gpu_preset, "GPU preset to simulate (see `warpscope presets`)");
  app.add_option("--kernel", gui.sim_kernel,
                 "Simulated kernel: naive, tiled, regblock or tensor (default: the model of the real GPU kernel)");
  app.add_option("--cpu-preset", gui.cpu_preset, "CPU preset to simulate beside it");
  app.add_option("--block", gui.block, "Block side of the simulated launch: 8, 16 or 32")->check(CLI::IsMember({8, 16, 32}));
  app.add_option("--cycle", gui.cycle, "Simulated cycle to show (clamped to the end of the run)")->check(CLI::NonNegativeNumber);
  app.add_option("--zoom", gui.zoom, "What the chip view shows: chip, sm:N, warp:N:W or lane:N:W:L");
  app.add_flag("--roofline", gui.roofline, "Show the roofline panel (View > Roofline, key R)");
  app.add_flag("--cluster", gui.cluster, "Show the cluster view: the simulated GPUs split a training step (View > Cluster)");
  app.add_option("--cluster-strategy", gui.cluster_strategy, "The cluster view's split (default data)")
      ->check(CLI::IsMember({"data", "tensor", "pipeline", "hybrid"}));
  app.add_option("--cluster-gpus", gui.cluster_gpus, "The cluster view's GPU count (default 8)")->check(CLI::Range(1, 64));
  app.add_option("--select", gui.select, "What the inspector shows: lane:N:W:L or core:C");
  app.add_option("--keys", gui.keys,
                 "Synthetic input, comma separated: keys (Right, Shift+Right, Space, B, F5, ...), wait:N, resize:WxH, "
                 "drop:PATH");
  app.add_flag("--print-state", gui.print_state, "Print the app's state as one JSON line when the window closes");
  app.add_flag("--no-wait", gui.no_wait,
               "With --screenshot: draw from the first frame while the simulation is still running, as a user sees it");

  app.add_option("--measured", gui.measured_files,
                 "Show runs measured on another machine: a JSON file from `warpscope bench --json` there "
                 "(repeatable)");
  app.add_option("--soak", gui.soak_seconds,
                 "Drive the window with seeded random input for SECONDS (keys, clicks, drags, resizes, lessons, "
                 "runs), print one JSON line of figures, exit 1 on any fault")
      ->check(CLI::Range(1.0, 86400.0));
  app.add_option("--seed", gui.soak_seed, "Seed of --soak's random input (default 1)");
  app.add_option("--lesson", gui.lesson_path, "Open this lesson (TOML), e.g. assets/lessons/gpu-story.en.toml");
  app.add_option("--step", gui.lesson_step, "Lesson step to show first (1-based)")->check(CLI::PositiveNumber);
  app.add_option("--lang", gui.language, "UI language: en or ko")->check(CLI::IsMember({"en", "ko"}));
  app.add_option("--ui-scale", gui.ui_scale, "UI scale on top of the monitor's (1 = 100 %; else the saved setting)")
      ->check(CLI::Range(0.5f, 3.0f));
  app.add_option("--content-scale", gui.content_scale,
                 "Render as a monitor with this content scale would (2 = a 200 % HiDPI screen); default: ask the monitor")
      ->check(CLI::Range(0.5f, 4.0f));
  app.add_option("--config-dir", gui.config_dir,
                 "Directory of settings.toml (default: $WARPSCOPE_CONFIG_DIR, else $XDG_CONFIG_HOME/warpscope, else "
                 "~/.config/warpscope). Headless renders (--screenshot, --print-state) and --soak use settings only "
                 "when it is given");

  int exit_code = 0;
  ws::app::add_bench_command(app, exit_code);
#ifndef WARPSCOPE_NO_CLI_SIM
  ws::app::add_sim_commands(app, exit_code);
#endif
#ifndef WARPSCOPE_NO_CLI_LESSON
  ws::app::add_lesson_commands(app, exit_code);
#endif
#ifndef WARPSCOPE_NO_CLI_CLUSTER
  ws::app::add_cluster_command(app, exit_code);
#endif

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;  // every kind of bad input is the same exit code, whatever CLI11 calls it
  } catch (const CLI::Error& e) {  // CLI11's own, with the exit code it means
    return app.exit(e);
  } catch (const std::exception& e) {  // a subcommand that failed where it could not go on
    return report_failure(e);
  }

  if (!app.get_subcommands().empty()) return with_output_checked(exit_code);
  if (!window_size.empty() && !ws::app::parse_window_size(window_size, gui.width, gui.height)) {
    std::fprintf(stderr, "warpscope: --window wants WxH between 320x240 and 7680x4320, got '%s'\n",
                 window_size.c_str());
    return 2;
  }
  try {
    return with_output_checked(ws::app::run_gui(gui));
  } catch (const std::exception& e) {
    return report_failure(e);
  }
}
