#include "gui/soak.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <malloc.h>
#include <string>

#include <fmt/format.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>

#include "core/measured_text.hpp"
#include "gui/dropped_files.hpp"
#include "gui/lesson_player.hpp"
#include "gui/presentation.hpp"
#include "gui/real_run_panel.hpp"
#include "gui/simulation_panel.hpp"
#include "warpscope/kernels/system_info.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::app {

namespace {

// Every key a lecturer or a stray hand might press. Not F12: it writes a screenshot into the
// user's Pictures folder, and a soak must not touch the user's files.
const int kKeys[] = {GLFW_KEY_SPACE,     GLFW_KEY_RIGHT,  GLFW_KEY_LEFT,   GLFW_KEY_UP,     GLFW_KEY_DOWN,
                     GLFW_KEY_HOME,      GLFW_KEY_END,    GLFW_KEY_PAGE_UP, GLFW_KEY_PAGE_DOWN, GLFW_KEY_F11,
                     GLFW_KEY_C,         GLFW_KEY_T,      GLFW_KEY_EQUAL,  GLFW_KEY_MINUS,  GLFW_KEY_0,
                     GLFW_KEY_ESCAPE,    GLFW_KEY_TAB,    GLFW_KEY_PERIOD, GLFW_KEY_COMMA,  GLFW_KEY_ENTER,
                     GLFW_KEY_BACKSPACE, GLFW_KEY_DELETE, GLFW_KEY_A,      GLFW_KEY_L,      GLFW_KEY_KP_ADD,
                     GLFW_KEY_R,         GLFW_KEY_B,      GLFW_KEY_F5,     GLFW_KEY_LEFT_BRACKET,
                     GLFW_KEY_RIGHT_BRACKET};  // R: the roofline panel; B, '.': the black screen

constexpr double kRssBaselineAfterSeconds = 2.0;  // fonts and the first simulation are built by then
constexpr std::size_t kMaxErrorsKept = 20;

std::uint64_t status_kib(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string prefix = std::string(key) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    try {
      return std::stoull(line.substr(prefix.size()));
    } catch (...) {
      return 0;
    }
  }
  return 0;
}

void key_event(GLFWwindow* window, int key, int action) {
  ImGui_ImplGlfw_KeyCallback(window, key, glfwGetKeyScancode(key), action, 0);
}

double mib(std::uint64_t bytes) { return std::round(bytes / 1048576.0 * 10) / 10; }

}  // namespace

std::uint64_t current_rss_bytes() { return status_kib("VmRSS") * 1024; }

// glibc keeps freed pages in its arenas (every thread that ran a job has one), so RSS alone
// mixes live memory with memory already given back to malloc; trimming first measures what lives.
std::uint64_t live_rss_bytes() {
  malloc_trim(0);
  return current_rss_bytes();
}
std::uint64_t peak_rss_bytes() { return status_kib("VmHWM") * 1024; }

SoakDriver::SoakDriver(double seconds, std::uint64_t seed) : seconds_(seconds), seed_(seed), rng_(seed) {}

int SoakDriver::uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

bool SoakDriver::done() const { return started_at_ >= 0 && last_now_ - started_at_ >= seconds_; }

void SoakDriver::act(ImGuiIO& io, SoakTargets& t) {
  if (started_at_ < 0) started_at_ = t.now;
  last_now_ = t.now;
  if (start_rss_ == 0 && t.now - started_at_ >= kRssBaselineAfterSeconds) start_rss_ = live_rss_bytes();

  if (held_key_ != 0) {
    // Released a frame after it was pressed, so the next press counts as a new one.
    key_event(t.window, held_key_, GLFW_RELEASE);
    if (held_ctrl_) key_event(t.window, GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE);
    if (held_shift_) key_event(t.window, GLFW_KEY_LEFT_SHIFT, GLFW_RELEASE);
    held_key_ = 0;
    held_ctrl_ = held_shift_ = false;
  } else if (held_button_ >= 0) {
    if (drag_frames_left_-- > 0) {
      mouse_x_ += drag_dx_;
      mouse_y_ += drag_dy_;
    } else {
      ImGui_ImplGlfw_MouseButtonCallback(t.window, held_button_, GLFW_RELEASE, 0);
      held_button_ = -1;
    }
  } else {
    ++actions_;
    const int pick = uniform(0, 99);
    if (pick < 30) mouse_action(io, t);
    else if (pick < 65) press_key(io, t);
    else if (pick < 70) ImGui_ImplGlfw_CharCallback(t.window, static_cast<unsigned>(uniform(32, 126)));
    else if (pick < 74) resize(t);
    else if (pick < 90) app_action(t);
    // else: a pause, as a lecturer talks
  }
  io.MousePos = ImVec2(mouse_x_, mouse_y_);
  for (int b = 0; b < 3; ++b) io.MouseDown[b] = b == held_button_;
}

void SoakDriver::press_key(ImGuiIO&, SoakTargets& t) {
  held_key_ = kKeys[uniform(0, static_cast<int>(std::size(kKeys)) - 1)];
  held_ctrl_ = uniform(0, 4) == 0 || held_key_ == GLFW_KEY_EQUAL || held_key_ == GLFW_KEY_MINUS;
  held_shift_ = uniform(0, 5) == 0;
  const char* name = glfwGetKeyName(held_key_, 0);
  last_action_ = fmt::format("key {}{}{}", held_ctrl_ ? "Ctrl+" : "", held_shift_ ? "Shift+" : "",
                             name ? std::string(name) : std::to_string(held_key_));
  if (held_ctrl_) key_event(t.window, GLFW_KEY_LEFT_CONTROL, GLFW_PRESS);
  if (held_shift_) key_event(t.window, GLFW_KEY_LEFT_SHIFT, GLFW_PRESS);
  key_event(t.window, held_key_, GLFW_PRESS);
}

void SoakDriver::mouse_action(ImGuiIO& io, SoakTargets& t) {
  const float w = std::max(1.0f, io.DisplaySize.x), h = std::max(1.0f, io.DisplaySize.y);
  mouse_x_ = std::uniform_real_distribution<float>(0, w)(rng_);
  // Now and then the menu bar, where the menus open.
  mouse_y_ = uniform(0, 9) == 0 ? std::uniform_real_distribution<float>(0, 20)(rng_)
                                : std::uniform_real_distribution<float>(0, h)(rng_);
  const int kind = uniform(0, 9);
  last_action_ = fmt::format("mouse {} at ({:.0f}, {:.0f})", kind < 3 ? "move" : kind < 6 ? "wheel" : kind < 8 ? "click" : kind == 8 ? "drag" : "right click", mouse_x_, mouse_y_);
  if (kind < 3) return;  // a move: hover tooltips
  if (kind < 6) {        // a wheel turn: zoom the chip, scroll a panel
    ImGui_ImplGlfw_ScrollCallback(t.window, 0, uniform(-3, 3));
    return;
  }
  held_button_ = kind == 9 ? 1 : 0;  // right button now and then
  ImGui_ImplGlfw_MouseButtonCallback(t.window, held_button_, GLFW_PRESS, 0);
  // A click, or a drag across a slider, the chip view or the timeline.
  drag_frames_left_ = kind < 8 ? 0 : uniform(2, 12);
  drag_dx_ = std::uniform_real_distribution<float>(-60, 60)(rng_);
  drag_dy_ = std::uniform_real_distribution<float>(-30, 30)(rng_);
}

void SoakDriver::resize(SoakTargets& t) {
  // Tiny windows too: a projector switch can leave the window a few pixels high.
  const bool tiny = uniform(0, 3) == 0;
  const int w = tiny ? uniform(1, 120) : uniform(320, 1920);
  const int h = tiny ? uniform(1, 120) : uniform(240, 1080);
  glfwSetWindowSize(t.window, w, h);
  last_action_ = fmt::format("resize to {}x{}", w, h);
}

void SoakDriver::app_action(SoakTargets& t) {
  RealRunView& real = *t.real;
  auto& c = real.session.controls();
  const int kind = uniform(0, 8);
  static const char* names[] = {"open lesson", "lesson step", "presets", "real-run controls", "real-run controls",
                                "run", "cancel", "language", "drop a file"};
  last_action_ = names[kind];
  switch (kind) {
    case 0: {  // open a built-in lesson, English or Korean
      const std::string path = fmt::format("{}/lessons/gpu-story.{}.toml", t.assets_dir, uniform(0, 1) ? "ko" : "en");
      if (t.player->open(path)) {
        t.player->start_at(0, real, *t.sim);
      }
      break;
    }
    case 1:
      if (t.player->active() && t.player->step_count() > 0)
        t.player->go_to(static_cast<std::size_t>(uniform(0, static_cast<int>(t.player->step_count()) - 1)), real, *t.sim);
      else
        t.player->close();
      break;
    case 2: {
      static const std::vector<std::string> gpus = sim::gpu_ids();
      static const std::vector<std::string> cpus = sim::cpu_ids();
      t.sim->controls.gpu_preset = gpus[static_cast<std::size_t>(uniform(0, static_cast<int>(gpus.size()) - 1))];
      if (uniform(0, 1)) t.sim->controls.cpu_preset = cpus[static_cast<std::size_t>(uniform(0, static_cast<int>(cpus.size()) - 1))];
      break;
    }
    case 3:
    case 4: {  // what the real-run panel's sliders and pickers do
      std::vector<std::string> cpu_kernels, gpu_kernels{""};
      for (const auto& k : kernels::all_kernels())
        (k.device == kernels::Device::cpu ? cpu_kernels : gpu_kernels).push_back(k.name);
      c.cpu_kernel = cpu_kernels[static_cast<std::size_t>(uniform(0, static_cast<int>(cpu_kernels.size()) - 1))];
      c.gpu_kernel = gpu_kernels[static_cast<std::size_t>(uniform(0, static_cast<int>(gpu_kernels.size()) - 1))];
      auto side = [&] { return static_cast<int>(std::exp2(std::uniform_real_distribution<double>(0, 10)(rng_))); };
      const int s = side();
      c.shape = uniform(0, 2) ? kernels::Shape{s, s, s} : kernels::Shape{side(), side(), side()};
      real.lock_square = c.shape.m == c.shape.n && c.shape.n == c.shape.k;
      c.threads = uniform(1, std::max(1, kernels::cpu_info().cores) * 2);
      c.repeats = uniform(1, 5);
      real.session.note_controls_edited(t.now);
      break;
    }
    case 5: real.session.run_now(); break;
    case 6: real.session.cancel(); break;
    case 8: {  // from a file manager: runs measured elsewhere, lessons, and files of the wrong kind
      const std::string candidates[] = {
          t.assets_dir + "/measured/h200/h200-1024.json", t.assets_dir + "/measured/h200/h200-2048.json",
          t.assets_dir + "/lessons/gpu-story.ko.toml",    t.assets_dir + "/lessons/gpu-story.en.toml",
          t.assets_dir + "/presets/gpus/h100.toml",       t.assets_dir + "/no-such-file.json",
          t.assets_dir + "/lessons"};
      const std::string& path = candidates[static_cast<std::size_t>(uniform(0, static_cast<int>(std::size(candidates)) - 1))];
      const char* paths[] = {path.c_str()};
      deliver_dropped_paths(t.window, 1, paths);
      last_action_ = "drop " + path.substr(t.assets_dir.size() + 1);
      break;
    }
    default: t.pres->set_language(uniform(0, 1) ? lesson::Language::ko : lesson::Language::en); break;
  }
}

void SoakDriver::after_frame(double frame_ms, bool work_running, unsigned gl_error) {
  ++frames_;
  worst_frame_ms_ = std::max(worst_frame_ms_, frame_ms);
  constexpr std::size_t kSlowestKept = 5;
  if (slowest_.size() < kSlowestKept || frame_ms > slowest_.back().first) {
    slowest_.emplace_back(frame_ms, last_action_);
    std::sort(slowest_.begin(), slowest_.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (slowest_.size() > kSlowestKept) slowest_.pop_back();
  }
  if (work_running) {
    worst_busy_frame_ms_ = std::max(worst_busy_frame_ms_, frame_ms);
    if (frame_ms > kMaxFrameMsWhileWorking && errors_.size() < kMaxErrorsKept)
      errors_.push_back(fmt::format("frame {} took {:.0f} ms while work ran (limit {:.0f} ms), after {}", frames_,
                                    frame_ms, kMaxFrameMsWhileWorking, last_action_));
  }
  if (gl_error != 0 && errors_.size() < kMaxErrorsKept)
    errors_.push_back(fmt::format("GL error 0x{:04X} after frame {}, after {}", gl_error, frames_, last_action_));
}

void SoakDriver::note_result(const kernels::JobResult& r) {
  ++runs_finished_;
  if (r.skipped) {
    ++runs_skipped_;
  } else if (r.verified) {
    ++runs_verified_;
  } else if (errors_.size() < kMaxErrorsKept) {
    errors_.push_back(fmt::format("{} at {} gave a wrong result: max relative error {:.2e} ({})", r.kernel,
                                  format_shape(r.shape), r.max_rel_error, r.detail));
  }
}

void SoakDriver::finish(std::uint64_t live_matrix_bytes, std::uint64_t font_atlas_bytes,
                        std::uint64_t simulation_bytes) {
  peak_rss_ = peak_rss_bytes();
  final_rss_ = live_rss_bytes();
  simulation_bytes_ = simulation_bytes;
  if (start_rss_ == 0) start_rss_ = final_rss_;  // a run shorter than the baseline delay
  const std::uint64_t allowed = start_rss_ + live_matrix_bytes + font_atlas_bytes + simulation_bytes + kRssSlackBytes;
  if (final_rss_ > allowed)
    errors_.push_back(fmt::format("memory grew from {} MiB to {} MiB; live matrices ({} MiB), the font atlas ({} MiB), "
                                  "the simulation on screen and those kept ({} MiB) and {} MiB of slack explain {} MiB",
                                  mib(start_rss_), mib(final_rss_), mib(live_matrix_bytes), mib(font_atlas_bytes),
                                  mib(simulation_bytes), mib(kRssSlackBytes), mib(allowed)));
}

nlohmann::json SoakDriver::report() const {
  return {{"soak_seconds", seconds_},
          {"seed", seed_},
          {"actions", actions_},
          {"frames", frames_},
          {"worst_frame_ms", std::round(worst_frame_ms_ * 10) / 10},
          {"worst_frame_ms_while_working", std::round(worst_busy_frame_ms_ * 10) / 10},
          {"start_rss_mib", mib(start_rss_)},
          {"peak_rss_mib", mib(peak_rss_)},
          {"final_rss_mib", mib(final_rss_)},
          {"simulation_mib", mib(simulation_bytes_)},
          {"runs_finished", runs_finished_},
          {"runs_verified", runs_verified_},
          {"runs_skipped", runs_skipped_},
          {"slowest_frames", [&] {
             nlohmann::json list = nlohmann::json::array();
             for (const auto& [ms, after] : slowest_) list.push_back({{"ms", std::round(ms * 10) / 10}, {"after", after}});
             return list;
           }()},
          {"errors", errors_},
          {"ok", errors_.empty()}};
}

}  // namespace ws::app
