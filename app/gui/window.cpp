// The window's life: GLFW and ImGui set-up, the frame loop with its throttling, headless
// screenshots, and tear-down. Panels draw themselves; this file only lays them out.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include "gui/fonts.hpp"
#include "gui/real_run_panel.hpp"
#include "gui/screenshot.hpp"
#include "gui/theme.hpp"
#include "gui_options.hpp"
#include "warpscope/kernels/job.hpp"

namespace ws::app {

namespace {

std::string g_glfw_error;

void remember_glfw_error(int, const char* description) { g_glfw_error = description ? description : "unknown"; }

int no_display_error() {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  const char* cause = (!display || !*display) && (!wayland || !*wayland) ? "no display (DISPLAY is not set)"
                                                                           : "the display cannot be opened";
  std::fprintf(stderr,
               "warpscope: cannot open a window: %s [%s]. Run it on a desktop, or headless with "
               "`xvfb-run -a warpscope ...`; `warpscope bench` needs no display.\n",
               cause, g_glfw_error.c_str());
  return 1;
}

void apply_options(RealRunView& view, const GuiOptions& o) {
  auto& c = view.session.controls();
  if (o.m) c.shape.m = *o.m;
  if (o.n) c.shape.n = *o.n;
  if (o.k) c.shape.k = *o.k;
  view.lock_square = c.shape.m == c.shape.n && c.shape.n == c.shape.k;
  if (o.threads) c.threads = *o.threads;
  if (o.cpu_kernel) c.cpu_kernel = *o.cpu_kernel;
  if (o.gpu_kernel) c.gpu_kernel = *o.gpu_kernel;
}

bool known_kernel(const std::optional<std::string>& name, kernels::Device device) {
  if (!name) return true;
  const auto* k = kernels::find_kernel(*name);
  if (k && k->device == device) return true;
  std::string valid;
  for (const auto& info : kernels::all_kernels())
    if (info.device == device) valid += (valid.empty() ? "" : ", ") + info.name;
  std::fprintf(stderr, "warpscope: unknown %s kernel '%s'; valid: %s\n", device == kernels::Device::cpu ? "CPU" : "GPU",
               name->c_str(), valid.c_str());
  return false;
}

struct FrameTimes {
  std::vector<double> ms;
  void report() const {
    if (ms.empty()) return;
    auto sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    std::printf("frame times over %zu frames: median %.2f ms, max %.2f ms\n", sorted.size(),
                sorted[sorted.size() / 2], sorted.back());
  }
};

}  // namespace

int run_gui(const GuiOptions& options) {
  if (!known_kernel(options.cpu_kernel, kernels::Device::cpu) || !known_kernel(options.gpu_kernel, kernels::Device::gpu))
    return 2;
  glfwSetErrorCallback(remember_glfw_error);
  if (!glfwInit()) return no_display_error();

  const bool headless = !options.screenshot_path.empty();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(options.width, options.height, "warpscope: why AI runs on GPUs", nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    return no_display_error();
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(headless ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is computed, not remembered: screenshots stay reproducible
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  apply_theme(Theme::dark);
  load_fonts(17.0f, false);

  RealRunView real_run;
  apply_options(real_run, options);
  if (options.start_real_run) real_run.session.run_now();

  FrameTimes frame_times;
  int frames_rendered = 0;
  const auto started = std::chrono::steady_clock::now();
  int exit_code = 0;

  while (!glfwWindowShouldClose(window)) {
    // A CPU kernel being timed must have the cores: wake rarely and only for input then.
    const bool cpu_timed = real_run.session.cpu_job_running();
    if (headless && !cpu_timed)
      glfwPollEvents();
    else
      glfwWaitEventsTimeout(cpu_timed ? 0.25 : real_run.session.busy() ? 0.1 : 0.5);

    const auto frame_start = std::chrono::steady_clock::now();
    const double now = glfwGetTime();
    real_run.session.update(now);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();

    const ImVec2 size = io.DisplaySize;
    const float left_w = std::clamp(size.x * 0.36f, 460.0f, 720.0f);
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(left_w, size.y));
    ImGui::Begin("Real run", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
    draw_real_run_panel(real_run, now);
    ImGui::End();

    ImGui::SetNextWindowPos(ImVec2(left_w, 0));
    ImGui::SetNextWindowSize(ImVec2(size.x - left_w, size.y));
    ImGui::Begin("Simulation", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
    ImGui::TextDisabled("The simulated GPU (SMs, warps, lanes) and the smart CPU cores are drawn here.");
    ImGui::End();

    ImGui::Render();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++frames_rendered;

    if (headless && frames_rendered >= options.frames) {
      const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      const bool results_ready = !options.wait_results || !real_run.session.busy() || waited > 900;
      if (results_ready) {
        const auto error = write_framebuffer_png(options.screenshot_path, fb_w, fb_h);
        if (!error.empty()) {
          std::fprintf(stderr, "warpscope: %s\n", error.c_str());
          exit_code = 1;
        }
        glfwSetWindowShouldClose(window, GLFW_TRUE);
      }
    }
    glfwSwapBuffers(window);
    if (options.frame_times) {
      glFinish();
      frame_times.ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count());
    }
  }

  real_run.session.cancel();
  if (options.frame_times) frame_times.report();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return exit_code;
}

}  // namespace ws::app
