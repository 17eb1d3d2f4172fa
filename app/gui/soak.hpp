// `warpscope --soak SECONDS`: a lecture's worth of random input on the real window, so a crash, a
// GL error, a wrong result, a stalled frame or growing memory is found before an audience sees it.
// Keys, clicks and the wheel go through the GLFW backend's own callbacks, window resizes through
// GLFW; the pointer position and held buttons are written into ImGui's input after the backend's
// frame, because ImGui 1.86's GLFW backend reads the cursor only while the window has focus, which
// a window under Xvfb without a window manager never gets.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "warpscope/kernels/job.hpp"

struct GLFWwindow;
struct ImGuiIO;

namespace ws::app {

class LessonPlayer;
struct SimulationPanel;
struct Presentation;
struct RealRunView;

struct SoakTargets {
  GLFWwindow* window = nullptr;
  RealRunView* real = nullptr;
  SimulationPanel* sim = nullptr;
  LessonPlayer* player = nullptr;
  Presentation* pres = nullptr;
  std::string assets_dir;
  double now = 0;
};

class SoakDriver {
 public:
  SoakDriver(double seconds, std::uint64_t seed);

  // One random action, between the GLFW backend's new frame and ImGui's.
  void act(ImGuiIO& io, SoakTargets& t);
  // After the frame was drawn and swapped: its length, whether real or simulated work was running,
  // and the GL error it left (GL_NO_ERROR is 0).
  void after_frame(double frame_ms, bool work_running, unsigned gl_error);
  void note_result(const kernels::JobResult& r);

  bool done() const;
  // Ends the run: `live_matrix_bytes` is what real runs still hold (A, B, C) when it ends,
  // `simulation_bytes` what the simulations hold on purpose: the checkpoints of the one on screen
  // and the finished ones kept for going back (each bounded by the checkpoint budget).
  void finish(std::uint64_t live_matrix_bytes, std::uint64_t font_atlas_bytes, std::uint64_t simulation_bytes);
  bool failed() const { return !errors_.empty(); }
  nlohmann::json report() const;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // Instrumented code runs 2-3x slower; the promise is about the release build.
  static constexpr double kMaxFrameMsWhileWorking = 3000.0;
#else
  static constexpr double kMaxFrameMsWhileWorking = 1000.0;
#endif
  // Memory the app may gain over a run for things other than live matrices and the simulations
  // it keeps: glibc keeping freed pages, Mesa's caches. Growth beyond this fails
  // the soak.
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer also holds freed memory back in its quarantine (256 MiB by default).
  static constexpr std::uint64_t kRssSlackBytes = (384ull + 256ull) << 20;
#else
  static constexpr std::uint64_t kRssSlackBytes = 384ull << 20;
#endif

 private:
  void press_key(ImGuiIO& io, SoakTargets& t);
  void mouse_action(ImGuiIO& io, SoakTargets& t);
  void app_action(SoakTargets& t);
  void resize(SoakTargets& t);
  int uniform(int lo, int hi);

  double seconds_;
  std::uint64_t seed_;
  std::mt19937_64 rng_;
  double started_at_ = -1;
  double last_now_ = 0;
  long long actions_ = 0, frames_ = 0;
  double worst_frame_ms_ = 0, worst_busy_frame_ms_ = 0;
  std::uint64_t start_rss_ = 0, peak_rss_ = 0, final_rss_ = 0, simulation_bytes_ = 0;
  int runs_finished_ = 0, runs_verified_ = 0, runs_skipped_ = 0;
  std::vector<std::string> errors_;
  std::string last_action_ = "start";  // named in a fault, so it can be reproduced
  std::vector<std::pair<double, std::string>> slowest_;  // the slowest frames and what preceded them
  // Input held from one frame to the next: a key is released and a button let go a frame later.
  int held_key_ = 0;
  bool held_ctrl_ = false, held_shift_ = false;
  int held_button_ = -1;
  int drag_frames_left_ = 0;
  float mouse_x_ = 100, mouse_y_ = 100, drag_dx_ = 0, drag_dy_ = 0;
};

// Resident and peak resident memory of this process (VmRSS, VmHWM), 0 when unknown.
std::uint64_t current_rss_bytes();
// VmRSS after returning malloc's free pages to the system.
std::uint64_t live_rss_bytes();
std::uint64_t peak_rss_bytes();

}  // namespace ws::app
