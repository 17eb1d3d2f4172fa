// The window's life: GLFW and ImGui set-up, the frame loop with its throttling, headless
// screenshots, and tear-down. Panels draw themselves; this file only lays them out.
#include <algorithm>
#include <chrono>
#include <memory>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <epoxy/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // BringWindowToDisplayFront
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <nlohmann/json.hpp>

#include <filesystem>

#include <fmt/format.h>

#include "core/assets.hpp"
#include "core/lane_texels.hpp"
#include "core/measured_elsewhere.hpp"
#include "core/measured_text.hpp"
#include "core/settings.hpp"
#include "core/system_language.hpp"
#include "gui/cpu_view.hpp"
#include "gui/dropped_files.hpp"
#include "gui/fonts.hpp"
#include "gui/gl_window.hpp"
#include "gui/gl_worker_context.hpp"
#include "gui/lesson_ui.hpp"
#include "gui/lesson_player.hpp"
#include "gui/picture_state.hpp"
#include "gui/presentation.hpp"
#include "gui/key_script.hpp"
#include "gui/real_run_panel.hpp"
#include "gui/generations_panel.hpp"
#include "gui/cluster_view.hpp"
#include "gui/roofline_panel.hpp"
#include "gui/screenshot.hpp"
#include "gui/simulation_panel.hpp"
#include "gui/soak.hpp"
#include "gui/text_clip_check.hpp"
#include "gui/theme.hpp"
#include "gui/timeline.hpp"
#include "gui_options.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/kernels/system_info.hpp"
#include "warpscope/sim/simulation.hpp"

namespace ws::app {

namespace {

// An exported step's frames before it may be written: its zoom lands on the first, and the layout
// catches up with the caption on the next two.
constexpr int kExportFramesBeforeWrite = 3;

void apply_options(RealRunView& view, const GuiOptions& o) {
  auto& c = view.session.controls();
  if (o.m) c.shape.m = *o.m;
  if (o.n) c.shape.n = *o.n;
  if (o.k) c.shape.k = *o.k;
  view.lock_square = c.shape.m == c.shape.n && c.shape.n == c.shape.k;
  if (o.threads) c.threads = *o.threads;
  if (o.cpu_kernel) c.cpu_kernel = *o.cpu_kernel;
  if (o.gpu_kernel) c.gpu_kernel = *o.gpu_kernel;
  // Runs put in assets/measured/ first, then the files named on the command line; the shipped ones
  // (its subfolders) wait in the Measured runs menu.
  for (auto& load : load_measured_dir(assets_dir() + "/measured")) view.add_measured(std::move(load));
  for (const auto& path : o.measured_files) view.add_measured(load_measured_file(path));
  for (const auto& path : shipped_measured_files(assets_dir() + "/measured")) {
    auto load = load_measured_file(path);
    if (load.run)
      view.shipped.push_back(std::move(*load.run));
    else
      std::fprintf(stderr, "warpscope: shipped run not offered: %s\n", load.error.c_str());
  }
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

// "sm:3", "warp:3:5", "lane:3:5:12" -> numbers after the kind; empty when malformed.
std::vector<int> parse_target(const std::string& text, const std::string& kind) {
  if (text.rfind(kind + ":", 0) != 0) return {};
  std::vector<int> out;
  std::size_t pos = kind.size() + 1;
  while (pos <= text.size()) {
    const auto end = text.find(':', pos);
    try {
      out.push_back(std::stoi(text.substr(pos, end == std::string::npos ? std::string::npos : end - pos)));
    } catch (...) {
      return {};
    }
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return out;
}

bool apply_zoom(GpuView& view, const std::string& zoom) {
  if (zoom == "chip") return view.zoom_to_chip(), true;
  if (auto v = parse_target(zoom, "sm"); v.size() == 1) return view.zoom_to_sm(v[0]), true;
  if (auto v = parse_target(zoom, "warp"); v.size() == 2) return view.zoom_to_warp(v[0], v[1]), true;
  if (auto v = parse_target(zoom, "lane"); v.size() == 3) return view.zoom_to_lane(v[0], v[1], v[2]), true;
  return false;
}

bool apply_selection(SimulationPanel& panel, const std::string& select) {
  if (auto v = parse_target(select, "lane"); v.size() == 3) return panel.gpu_view.selection = {v[0], v[1], v[2]}, true;
  if (auto v = parse_target(select, "core"); v.size() == 1) return panel.selected_core = v[0], true;
  return false;
}

// The theme's text colours against its window background (WCAG ratio): the plain text, the
// secondary text, and the weakest of the colours that say where a figure comes from.
nlohmann::json text_contrast_json() {
  const ImGuiStyle& style = ImGui::GetStyle();
  const Rgba background = to_rgba(style.Colors[ImGuiCol_WindowBg]);
  double coloured = 21;
  for (const ImVec4& c : {colour_ok(), colour_error(), colour_measured(), colour_elsewhere(), colour_simulated()})
    coloured = std::min(coloured, contrast_ratio(to_rgba(c), background));
  return {{"text", contrast_ratio(to_rgba(style.Colors[ImGuiCol_Text]), background)},
          {"secondary", contrast_ratio(to_rgba(style.Colors[ImGuiCol_TextDisabled]), background)},
          {"coloured", coloured}};
}

nlohmann::json clip_report_json() {
  const auto& report = clip_check_last_frame();
  nlohmann::json texts = nlohmann::json::array();
  for (const auto& t : report.texts) texts.push_back({{"panel", t.panel}, {"text", t.text}});
  // Every text the frame drew, once per panel: a test reads it to find UI text left in English.
  nlohmann::json drawn = nlohmann::json::array();
  for (const auto& t : report.drawn) drawn.push_back({{"panel", t.panel}, {"text", t.text}});
  nlohmann::json scrolling = nlohmann::json::array();
  for (const auto& t : report.scrolling) scrolling.push_back({{"panel", t.panel}, {"text", t.text}});
  return {{"count", report.texts.size()}, {"panels", report.by_panel()}, {"texts", texts},
          {"drawn", drawn}, {"scrolling", scrolling}, {"check_linked", clip_check_linked()}};
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
  // Bad presets and targets are reported before a window opens, with the valid names.
  try {
    if (options.gpu_preset) sim::find_gpu(*options.gpu_preset);
    if (options.cpu_preset) sim::find_cpu(*options.cpu_preset);
    if (options.sim_kernel && !sim::parse_kernel(*options.sim_kernel)) {
      std::string names;
      for (const auto& k : sim::kernel_names()) names += names.empty() ? k : ", " + k;
      throw std::invalid_argument("unknown simulated kernel '" + *options.sim_kernel + "' (known: " + names + ")");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warpscope: %s\n", e.what());
    return 2;
  }
  KeyScript key_script;
  if (auto error = key_script.parse(options.keys); !error.empty()) {
    std::fprintf(stderr, "warpscope: --keys: %s\n", error.c_str());
    return 2;
  }
  {
    GpuView probe;
    SimulationPanel probe_panel;
    if (options.zoom && !apply_zoom(probe, *options.zoom)) {
      std::fprintf(stderr, "warpscope: --zoom wants chip, sm:N, warp:N:W or lane:N:W:L, got '%s'\n", options.zoom->c_str());
      return 2;
    }
    if (options.select && !apply_selection(probe_panel, *options.select)) {
      std::fprintf(stderr, "warpscope: --select wants lane:N:W:L or core:C, got '%s'\n", options.select->c_str());
      return 2;
    }
  }
  const bool headless = !options.screenshot_path.empty();
  std::unique_ptr<SoakDriver> soak;
  if (options.soak_seconds > 0) soak = std::make_unique<SoakDriver>(options.soak_seconds, options.soak_seed);
  // A window nobody looks at never takes the keyboard focus: on a display shared by tests run
  // side by side, each new window would take it from the others, and ImGui drops the keys
  // held in a window that loses focus, so a scripted press (--keys) could vanish.
  const bool unfocused = headless || !options.export_dir.empty() || soak;
  GLFWwindow* window =
      open_gl_window(options.width, options.height, "warpscope: why AI runs on GPUs", unfocused);
  if (!window) return 1;
  glfwMakeContextCurrent(window);
  glfwSwapInterval(headless || soak ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the layout is computed, not remembered: screenshots stay reproducible
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  install_drop_handler(window);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  // Screenshots, exports, --print-state and soaks must not depend on what a user saved, nor
  // change it: they start from defaults and write nothing, unless a config directory is named
  // explicitly (--config-dir or $WARPSCOPE_CONFIG_DIR; how the tests check persistence).
  const bool use_settings = uses_saved_settings(options);
  const std::filesystem::path settings_file =
      options.config_dir.empty() ? settings_path() : std::filesystem::path(options.config_dir) / "settings.toml";
  Settings settings = use_settings && !settings_file.empty() ? load_settings_from(settings_file) : Settings{};
  Presentation pres;
  pres.show_roofline = options.roofline;
  pres.show_cluster = options.cluster;
  pres.theme = settings.theme == "light" ? Theme::light_high_contrast : Theme::dark;
  pres.scale = settings.ui_scale;
  if (options.ui_scale) pres.set_scale(*options.ui_scale);
  pres.projector = settings.projector;
  if (options.content_scale) {
    pres.content_scale = *options.content_scale;
    pres.content_scale_fixed = true;
  }
  pres.follow_content_scale(window);
  // A first run (nothing saved) speaks the desktop's language; a headless render, which reads no
  // settings, stays English whatever the locale, so that its pictures do not depend on it.
  const std::string first_language = use_settings ? system_language_code() : "en";
  pres.language = lesson::language_from_code(
                      options.language.value_or(settings.language.empty() ? first_language : settings.language))
                      .value_or(lesson::Language::en);

  // Before the real-run side asks which GPU kernels can run: the GL kernels must probe the context
  // they will really use. Declared before real_run so the job worker is gone when it is destroyed.
  auto gl_worker = std::make_unique<GlWorkerContext>(window);
  RealRunView real_run;
  apply_options(real_run, options);
  if (options.start_real_run && options.lesson_path.empty()) real_run.session.run_now();
  {
    // The CPU panel puts the measured cpu-naive beside the CPU model's figure.
    auto earlier = real_run.session.on_result;
    real_run.session.on_result = [earlier](const kernels::JobResult& r) {
      if (earlier) earlier(r);
      note_real_cpu_result(r);
    };
  }
  if (soak) {
    auto feed_history = real_run.session.on_result;
    real_run.session.on_result = [feed_history, &soak](const kernels::JobResult& r) {
      if (feed_history) feed_history(r);
      soak->note_result(r);
    };
  }

  // Owned here so its GL objects are freed while the context still exists.
  auto sim_panel_owner = std::make_unique<SimulationPanel>();
  SimulationPanel& sim_panel = *sim_panel_owner;
  sim_panel.controls.gpu_preset = options.gpu_preset ? sim::find_gpu(*options.gpu_preset).id : default_gpu_preset();
  if (options.cpu_preset) sim_panel.controls.cpu_preset = *options.cpu_preset;
  if (options.block) sim_panel.controls.block = *options.block;
  if (options.sim_kernel) sim_panel.kernel_override = sim::parse_kernel(*options.sim_kernel);
  const auto requested_at = std::chrono::steady_clock::now();

  RooflinePanel roofline_panel;
  GenerationsPanel generations_panel;
  ClusterView cluster_view;
  cluster_view.gpus = options.cluster_gpus;
  for (std::size_t i = 0; i < sim::strategy_names().size(); ++i)
    if (sim::strategy_names()[i] == options.cluster_strategy) cluster_view.strategy = static_cast<int>(i);
  LessonPlayer player;
  std::string lesson_path = options.lesson_path;
  std::error_code no_throw;  // a saved path under a folder it may no longer read is just not reopened
  if (lesson_path.empty() && use_settings && !settings.last_lesson.empty() &&
      std::filesystem::exists(settings.last_lesson, no_throw))
    lesson_path = settings.last_lesson;
  if (!lesson_path.empty()) {
    if (!player.open(lesson_path)) {
      std::fprintf(stderr, "warpscope: cannot load the lesson:\n%s", player.error().c_str());
      if (!options.export_dir.empty() || !options.lesson_path.empty()) {
        real_run.session.cancel();
        gl_worker.reset();
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        glfwDestroyWindow(window);
        glfwTerminate();
        return 2;
      }
    } else {
      if (!options.language) pres.language = lesson::language_from_code(player.lesson().language).value_or(pres.language);
      const int first = options.lesson_step ? *options.lesson_step - 1
                        : options.lesson_path.empty() ? settings.last_step : 0;
      player.start_at(static_cast<std::size_t>(std::max(0, first)), real_run, sim_panel);
    }
  }
  // Not before the lesson's first step is known: a build of the default launch would only delay it.
  if (!player.active()) sim_panel.sync(real_run.session.controls());
  if (options.cycle) sim_panel.session.seek_when_ready(*options.cycle);
  if (options.zoom) apply_zoom(sim_panel.gpu_view, *options.zoom);
  if (options.select) apply_selection(sim_panel, *options.select);
  // A window with no lesson opens playing, so the chip is moving before anyone touches a key;
  // --cycle asks for one still picture instead.
  if (!player.active() && !options.cycle) sim_panel.session.play_when_ready(true);
  // A screenshot shows the whole launch simulated, not "simulating...", unless asked to show the
  // first frames as a user sees them.
  // An export waits here for its first step as it does for every later one (after go_to): a step
  // that opens at "mid-run" or "first-issue" needs the simulation that far before its PNG.
  if (headless || !options.export_dir.empty()) {
    if (options.no_wait)
      sim_panel.session.wait_adopted();
    else
      sim_panel.session.wait_ready();
  }
  nlohmann::json first_frame;  // the simulation as the first frame that showed it found it
  double last_time = glfwGetTime();
  RealRunControls last_controls = real_run.session.controls();

  FrameTimes frame_times;
  int frames_rendered = 0;
  // Frames after the first two (whose panels are laid out on estimates) in which a text was cut
  // or a panel scrolled: the last frame's check alone misses a layout that is one frame late.
  int frames_cut = 0;
  nlohmann::json first_frame_cut;
  int step_frames_cut = 0;  // the same, in `lesson export`, for the step being exported (from its third frame)
  nlohmann::json step_first_cut;
  const auto started = std::chrono::steady_clock::now();
  int exit_code = 0;
  std::size_t export_step = 0;
  int export_frames = 0;
  int export_settled_frames = 0;  // consecutive frames with the step's caption complete
  int missing_glyphs = 0;
  RenderedCaption rendered_caption;  // the caption as the last frame drew it ("" when none was drawn)
  DrawnPanels drawn_panels;          // for the picture's counts (--print-state, a step's expect)
  float rendered_caption_px = 0;     // its font size
  CaptionLines rendered_caption_lines;  // its lines as drawn, block by block
  float rendered_sources_px = 0;     // its sources line's (0: none)
  auto export_step_started = std::chrono::steady_clock::now();
  std::string toast;
  double toast_until = 0;
  bool toast_from_drop = false;  // the toast lists dropped files
  // A menu or picker was open at the end of the last frame: its Escape closes it (ImGui has done so
  // by the time the keys are read), and does not also leave full screen.
  bool popup_was_open = false;
  bool screenshot_requested = false;
  // A lesson step, the language or the text size changes what the panels hold, and ImGui sizes a
  // panel's scroll bar and a new table's columns from the frame before: the first frames after
  // such a change can show a scroll bar or a bare header that is gone a frame later. They are
  // drawn but not shown, so the room sees a step once it is laid out; --print-state's frames_cut
  // counts the frames shown (and a lesson export's, a step's frames from its third). A burst of
  // changes (keys held down) still shows every few frames.
  constexpr int kSettleFrames = 3, kMostFramesHeld = 6;
  int frames_to_hold = 0, frames_held = 0;
  std::tuple<bool, std::size_t, lesson::Language, float> shown_layout{false, 0, lesson::Language::en, 0.0f};

  while (!glfwWindowShouldClose(window)) {
    // A CPU kernel being timed must have the cores: wake rarely and only for input then.
    // (The job runner holds the simulation's background runs for the job's length.)
    const bool cpu_timed = real_run.session.cpu_job_running();
    const bool animating = sim_panel.session.playing() || sim_panel.session.building();
    if ((headless && !cpu_timed) || soak)
      glfwPollEvents();
    else
      glfwWaitEventsTimeout(cpu_timed ? 0.25 : animating ? 1.0 / 60 : real_run.session.busy() ? 0.1 : 0.5);

    const auto frame_start = std::chrono::steady_clock::now();
    const double now = glfwGetTime();
    const double dt = std::min(0.25, now - last_time);
    last_time = now;
    real_run.session.update(now);
    key_script.feed_next(window);
    pres.follow_content_scale(window);
    {
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window, &fb_w, &fb_h);
      pres.fit_window(fb_w, fb_h);
    }
    int window_w = 0, window_h = 0;
    glfwGetWindowSize(window, &window_w, &window_h);
    const float caption_px = pres.caption_px(static_cast<float>(window_h), player.active());
    pres.refresh_fonts_if_needed(player.active() && player.lesson().language == "ko",
                                 player.active() ? player.text() : std::string(), caption_px);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (soak) {
      SoakTargets targets{window, &real_run, &sim_panel, &player, &pres, assets_dir(), now};
      soak->act(io, targets);
    }
    ImGui::NewFrame();
    clip_check_begin_frame();
    const lesson::Language lang = pres.effective_language();
    set_ui_language(lang);

    // Files dropped on the window since the last frame: a bench JSON from a GPU server, a lesson.
    // Files dropped one after another while the last one's line still shows add their lines.
    if (auto dropped = take_dropped_paths(); !dropped.empty()) {
      if (!toast_from_drop || now >= toast_until) toast.clear();
      for (const auto& path : dropped)
        toast += (toast.empty() ? "" : "\n") + open_dropped(path, player, real_run, sim_panel, pres);
      toast_from_drop = true;
      toast_until = now + 4;
    }

    // Keys that work everywhere in the window (not while typing into a field).
    if (!io.WantTextInput) {
      handle_blank_keys(pres);
      // A clicker's slideshow button (the Logitech R400's sends F5, then Escape) starts and ends
      // full screen; Escape with a menu or picker open only closes that, as ImGui does.
      if (ImGui::IsKeyPressed(GLFW_KEY_F5, false) && !pres.fullscreen) pres.toggle_fullscreen(window);
      if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false) && pres.fullscreen && !popup_was_open)
        pres.toggle_fullscreen(window);
      if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) pres.toggle_fullscreen(window);
      if (ImGui::IsKeyPressed(GLFW_KEY_F12, false)) screenshot_requested = true;
      if (io.KeyCtrl && (ImGui::IsKeyPressed(GLFW_KEY_EQUAL, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD, false))) pres.set_scale(pres.scale * 1.15f);
      if (io.KeyCtrl && (ImGui::IsKeyPressed(GLFW_KEY_MINUS, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT, false))) pres.set_scale(pres.scale / 1.15f);
      if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_0, false)) pres.set_scale(1.0f);
      if (!io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_C, false)) pres.clean = !pres.clean;
      if (!io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_T, false)) pres.toggle_theme();
      if (!io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_R, false)) pres.show_roofline = !pres.show_roofline;
      if (!io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_G, false)) pres.show_generations = !pres.show_generations;
      if (!io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_P, false)) pres.projector = !pres.projector;
      if (player.active()) {
        if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT) || ImGui::IsKeyPressed(GLFW_KEY_PAGE_DOWN))
          player.go_to(player.step() + 1, real_run, sim_panel);
        if ((ImGui::IsKeyPressed(GLFW_KEY_LEFT) || ImGui::IsKeyPressed(GLFW_KEY_PAGE_UP)) && player.step() > 0)
          player.go_to(player.step() - 1, real_run, sim_panel);
        if (io.KeyShift && ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) player.restart(real_run, sim_panel);
      }
      handle_timeline_keys(sim_panel.session, !player.active());
    }

    PanelVisibility show = player.visibility();
    // A lesson step names the roofline in `panels` (beside the simulation when it names those too);
    // View > Roofline (R) puts it in the simulation's place, full size, until R again.
    // View > GPU generations (G) does the same with the generations table.
    if (pres.show_roofline || pres.show_generations) {
      show.roofline = pres.show_roofline;
      show.generations = pres.show_generations && !pres.show_roofline;
      show.cluster = false;
      show.gpu = show.cpu = show.matrix = show.timeline = show.inspector = false;
    }
    // The roofline and the generations table share the lower slot; the roofline has it when a
    // step names both.
    if (show.roofline) show.generations = false;
    // A lesson step that names the cluster view puts it in the same slot (the roofline and the
    // generations table keep it when a step names them too).
    if (show.roofline || show.generations) show.cluster = false;
    const bool lower_shown = show.roofline || show.generations || show.cluster;
    cluster_view.drawn = false;
    if (player.active() && player.applied_this_frame()) player.apply_cluster(cluster_view);
    roofline_panel.drawn = false;
    generations_panel.drawn = false;
    float top = 0;
    if (!pres.clean) top = draw_menu_bar(pres, player, real_run, sim_panel, lang);
    // Projector mode in a lesson hides the panels' controls as clean mode does (the menu bar stays):
    // at 2x text on a 720-line projector the combos alone took the animation's room.
    const bool controls_hidden = pres.clean || (pres.projector && player.active());
    sim_panel.hide_controls = controls_hidden;
    sim_panel.large_font = pres.fonts.caption_regular;
    const ImVec2 size = io.DisplaySize;
    float left_w = show.timers ? std::clamp(size.x * 0.36f, 460.0f * pres.ui_scale(), 720.0f * pres.ui_scale()) : 0;
    // At 2x text on a 1280-wide window the minimum alone would leave the animation and caption a
    // third of the width: the timers never take more than 45 %.
    left_w = std::min(left_w, std::floor(size.x * 0.45f));
    // With large text on a small screen the timers would leave the roofline a sliver: it keeps 58 %.
    if (lower_shown) left_w = std::min(left_w, std::floor(size.x * 0.42f));
    // Headless renders and exports advance playback by a fixed 1/30 s a frame, so the same
    // arguments give the same pixels however fast this machine renders. Frames spent only waiting
    // for a real run (a screenshot's after its --frames and keys, an exported step's after its
    // first ones) hold the picture: else a playing step was written at whatever cycle the run's
    // time left it at, and its `expect` passed or failed with the machine's load. Before the
    // caption is composed: a build adopted here changes the figures it quotes, and a caption
    // composed before it would set the panels' heights for the state of the frame before (one
    // frame cut, then a jump).
    const bool exporting = !options.export_dir.empty();
    const bool only_waiting = exporting ? export_frames >= kExportFramesBeforeWrite
                                        : headless && frames_rendered >= options.frames && key_script.finished();
    sim_panel.session.update(!headless && !exporting ? dt : only_waiting ? 0.0 : 1.0 / 30);
    if (first_frame.is_null() && sim_panel.session.simulation() != nullptr) {
      first_frame = {{"ms_after_start", std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - requested_at).count()},
                     {"cycle", sim_panel.session.cycle()},
                     {"simulated_cycles", sim_panel.session.simulated_cycles()},
                     {"simulated_fraction", sim_panel.session.simulated_fraction()},
                     {"complete", sim_panel.session.complete()},
                     {"playing", sim_panel.session.playing()}};
    }
    // The caption panel is as tall as its text (never a scrollbar); the animation gets the rest,
    // down to half of the window, below which the caption's text gets smaller instead. It spans the
    // whole width, under the real run too: a step that shows the timers (a table of a few rows)
    // gave its caption the right half only, and at 2x text on a 720-line projector that shrank
    // the caption to 15 px.
    CaptionContent caption;
    CaptionFit caption_fit;
    const bool caption_shown = player.active() && show.caption;
    if (caption_shown) {
      // The figures a caption quotes are worded in the caption's language, which is the lesson's:
      // an English lesson under a Korean interface says "1 wave", not "웨이브 1번" mid-sentence.
      const auto caption_lang = lesson::language_from_code(player.lesson().language).value_or(lang);
      caption = compose_lesson_caption(player, real_run, sim_panel, caption_lang);
      caption_fit = fit_lesson_caption(caption, pres, size.x, std::floor((size.y - top) * 0.5f), caption_px);
    }
    const float caption_h = caption_shown ? caption_fit.panel_h : 0;
    // The clear colour is the window background: not drawing it again halves the pixels a software
    // renderer blends each frame (Mesa llvmpipe on a 2-core machine is where this matters).
    const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoBackground;
    if (show.timers) {
      ImGui::SetNextWindowPos(ImVec2(0, top));
      ImGui::SetNextWindowSize(ImVec2(left_w, size.y - top - caption_h));
      // Presentation mode is a picture: it never scrolls, it gives way (see RealRunView::compact).
      ImGui::Begin(lesson::tr("panel.real_run", lang), nullptr, fixed | (controls_hidden ? ImGuiWindowFlags_NoScrollbar : 0));
      draw_real_run_panel(real_run, now, controls_hidden);
      ImGui::End();
    }
    // Right of the real run: the simulated GPU above, the roofline below (the roofline alone takes
    // it all when the step shows nothing of the simulation).
    const bool sim_shown = show.gpu || show.cpu || show.matrix || show.timeline || show.inspector || !lower_shown;
    const float right_h = size.y - top - caption_h;
    const float roofline_h = !lower_shown ? 0 : sim_shown ? std::floor(right_h * 0.5f) : right_h;
    bool real_edited = false;
    if (sim_shown) {
      ImGui::SetNextWindowPos(ImVec2(left_w, top));
      ImGui::SetNextWindowSize(ImVec2(size.x - left_w, right_h - roofline_h));
      // Laid out to fit its room (main_h), so a scroll bar could only flash for a frame after the
      // panel shrank (ImGui judges it on the last frame's content).
      ImGui::Begin(lesson::tr("panel.gpu", lang), nullptr, fixed | (controls_hidden ? ImGuiWindowFlags_NoScrollbar : 0));
      sim_panel.draw(ImGui::GetContentRegionAvail(), headless ? 1.0 : dt, real_run.session.controls(), real_edited,
                     show, pres.clean);
      ImGui::End();
    } else {
      sim_panel.sync(real_run.session.controls());
    }
    if (roofline_h > 0) {
      ImGui::SetNextWindowPos(ImVec2(left_w, top + right_h - roofline_h));
      ImGui::SetNextWindowSize(ImVec2(size.x - left_w, roofline_h));
      if (show.roofline) {
        ImGui::Begin(lesson::tr("panel.roofline", lang), nullptr, fixed);
        roofline_panel.draw(ImGui::GetContentRegionAvail(), real_run, sim_panel.session, sim_panel.controls.gpu_preset);
      } else if (show.cluster) {
        ImGui::Begin(lesson::tr("panel.cluster", lang), nullptr, fixed);
        cluster_view.hide_controls = controls_hidden;
        cluster_view.draw(ImGui::GetContentRegionAvail(), sim_panel.controls.gpu_preset, lang);
      } else {
        ImGui::Begin(lesson::tr("panel.generations", lang), nullptr, fixed);
        generations_panel.large_font = pres.fonts.caption_regular;
        generations_panel.draw(ImGui::GetContentRegionAvail(), sim_panel.controls.gpu_preset, lang);
      }
      ImGui::End();
    }
    if (pres.show_cluster && !show.cluster) {
      cluster_view.hide_controls = false;
      ImGui::SetNextWindowPos(ImVec2(size.x * 0.1f, top + size.y * 0.08f), ImGuiCond_Appearing);
      ImGui::SetNextWindowSize(ImVec2(size.x * 0.8f, size.y * 0.8f), ImGuiCond_Appearing);
      ImGui::SetNextWindowBgAlpha(1.0f);  // over the layout: the panels behind must not show through
      if (ImGui::Begin(lesson::tr("panel.cluster", lang), &pres.show_cluster))
        cluster_view.draw(ImGui::GetContentRegionAvail(), sim_panel.controls.gpu_preset, lang);
      ImGui::End();
    }
    drawn_panels = {show.timers, roofline_panel.drawn, generations_panel.drawn, cluster_view.drawn};
    if (cluster_view.drawn) {
      const auto cluster_state = cluster_view.state();
      drawn_panels.cluster_gpus = cluster_state.value("gpus", 0);
      drawn_panels.cluster_gantt_rows = cluster_state.value("gantt_rows_drawn", 0);
      drawn_panels.cluster_curve_points = cluster_state.value("curve_points_drawn", 0);
    }
    if (real_edited) real_run.session.note_controls_edited(now);
    if (!(real_run.session.controls() == last_controls)) {
      // The user moved a real-run control: the animation follows the real run again.
      if (!player.applied_this_frame()) {
        sim_panel.shape_override.reset();
        sim_panel.kernel_override.reset();
      }
      last_controls = real_run.session.controls();
    }
    player.clear_applied_flag();
    rendered_caption = {};
    rendered_caption_lines.clear();
    rendered_caption_px = caption_shown ? caption_fit.text_px : 0;
    rendered_sources_px = caption_shown ? caption_fit.sources_px : 0;
    if (caption_h > 0) {
      ImGui::SetNextWindowPos(ImVec2(0, size.y - caption_h));
      ImGui::SetNextWindowSize(ImVec2(size.x, caption_h));
      ImGui::Begin(lesson::tr("panel.caption", lang), nullptr,
                   fixed | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
      missing_glyphs =
          draw_lesson_caption(player, real_run, sim_panel, pres, lang, caption, caption_fit, &rendered_caption_lines);
      rendered_caption = caption.rendered;
      ImGui::End();
    }
    if (!player.error().empty() && !headless) draw_lesson_error(player, lang);
    if (now < toast_until) {
      // Under the menu bar, over whatever panel is there for a few seconds: never over the
      // caption, which the room is reading; and in front, as the panels drawn after a click
      // would otherwise cover it.
      ImGui::SetNextWindowPos(ImVec2(size.x / 2, top + 8 * pres.ui_scale()), ImGuiCond_Always, ImVec2(0.5f, 0));
      ImGui::SetNextWindowBgAlpha(1.0f);
      ImGui::Begin("##toast", nullptr,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                       ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoSavedSettings);
      ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
      ImGui::TextUnformatted(toast.c_str());
      ImGui::End();
    }
    popup_was_open = ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    draw_blank(pres);

    clip_check_end_frame();
    const std::tuple layout{player.active(), player.step(), pres.effective_language(), pres.ui_scale()};
    if (layout != shown_layout) {
      shown_layout = layout;
      frames_to_hold = kSettleFrames;
    }
    const bool shown = frames_to_hold == 0 || frames_held >= kMostFramesHeld;
    if (const auto& report = clip_check_last_frame(); !report.texts.empty() || !report.scrolling.empty()) {
      const auto cut = [&] {
        const auto r = clip_report_json();
        return nlohmann::json{{"frame", frames_rendered}, {"texts", r["texts"]}, {"scrolling", r["scrolling"]}};
      };
      if (shown && frames_rendered >= 2 && frames_cut++ == 0) first_frame_cut = cut();
      if (!options.export_dir.empty() && export_frames >= 2 && step_frames_cut++ == 0) step_first_cut = cut();
    }
    ImGui::Render();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    const ImVec4 clear = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    glClearColor(clear.x, clear.y, clear.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++frames_rendered;

    if (screenshot_requested) {
      screenshot_requested = false;
      const auto path = user_screenshot_path();
      const auto error = write_framebuffer_png(path, fb_w, fb_h);
      toast = error.empty() ? TF("label.saved", path) : error;
      toast_from_drop = false;
      toast_until = now + 3;
    }
    if (!options.export_dir.empty()) {
      // Each step gets a few frames to settle its zoom animation before it is written.
      // With --wait-results a step is written once its caption has every value (the real run
      // done, the simulation it quotes finished), or after two minutes, whichever comes first.
      const double step_waited =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - export_step_started).count();
      // And the step's cycle reached: a "mid-run" or "first-issue" step is not written before its
      // anchor has landed, whatever its caption quotes (one written without it would show cycle 0).
      // A refused launch has no cycle to wait for.
      const bool anchor_waiting = sim_panel.session.simulation() != nullptr && sim_panel.session.pending_anchor();
      const bool caption_settled =
          !real_run.session.busy() && !rendered_caption.waiting && rendered_caption.unfilled == 0 && !anchor_waiting;
      // A frame's panels are laid out around the caption of the frame before (its height decides
      // theirs), so a caption that just got its last value is written one frame later, once the
      // layout has caught up (else the clip check saw last frame's taller content).
      export_settled_frames = caption_settled ? export_settled_frames + 1 : 0;
      // The step's zoom was resolved by this first frame's draw: land it now rather than show a
      // view half-way from the last step's (a warp cut at the panel's edge, its label left out).
      if (export_frames == 0) sim_panel.gpu_view.snap();
      if (++export_frames >= kExportFramesBeforeWrite && !sim_panel.session.building() &&
          (!options.wait_results || export_settled_frames >= 2 || step_waited > 120)) {
        const auto path = fmt::format("{}/step-{:02}.png", options.export_dir, export_step + 1);
        const auto error = write_framebuffer_png(path, fb_w, fb_h);
        if (!error.empty()) {
          std::fprintf(stderr, "warpscope: %s\n", error.c_str());
          exit_code = 1;
          glfwSetWindowShouldClose(window, GLFW_TRUE);
        } else {
          std::printf("%s\n", path.c_str());
          // What the picture shows, held to what the step's caption claims (its `expect`).
          const auto picture = picture_counts(sim_panel, real_run, player.state().zoom, drawn_panels);
          const auto checked = check_expectations(player.state().expect, picture);
          for (const auto& e : checked)
            if (!e["ok"].get<bool>())
              std::fprintf(stderr, "warpscope: step %zu: the picture does not show '%s' (the value is %g)\n",
                           export_step + 1, e["expect"].get<std::string>().c_str(), e["value"].get<double>());
          if (options.print_state)  // one line per step: the caption exactly as this PNG shows it
            std::printf("%s\n", nlohmann::json{{"lesson_step", export_step + 1},
                                                {"caption", rendered_caption.text},
                                                {"caption_unfilled", rendered_caption.unfilled},
                                                {"caption_lines", rendered_caption_lines},
                                                {"caption_px", caption_fit.text_px},
                                                {"caption_sources_px", caption_fit.sources_px},
                                                {"clipped_text", clip_report_json()},
                                                {"frames_cut", {{"count", step_frames_cut}, {"first", step_first_cut}}},
                                                {"picture", picture},
                                                {"expect", checked},
                                                {"expect_failed", failed_expectations(checked)}}
                                     .dump()
                                     .c_str());
          std::fflush(stdout);  // keeps each line whole when stderr shares the pipe
        }
        if (missing_glyphs > 0) {
          std::fprintf(stderr, "warpscope: step %zu: %d characters have no glyph in the loaded fonts\n",
                       export_step + 1, missing_glyphs);
          exit_code = 1;
        }
        export_frames = 0;
        export_settled_frames = 0;
        // The PNG is this frame shown. Without this a step written within its settling frames
        // left them counted, and the next step's first, unsettled frame passed the cap on held
        // frames: the whole export's frames_cut named a scroll bar no picture had.
        frames_held = 0;
        step_frames_cut = 0;
        step_first_cut = nullptr;
        if (++export_step >= player.step_count()) {
          glfwSetWindowShouldClose(window, GLFW_TRUE);
        } else {
          player.go_to(export_step, real_run, sim_panel);
          sim_panel.session.wait_ready();
          export_step_started = std::chrono::steady_clock::now();
        }
      }
    } else if (headless && frames_rendered >= options.frames && key_script.finished()) {
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
    if (shown) {
      frames_to_hold = 0;
      frames_held = 0;
      glfwSwapBuffers(window);
    } else {
      --frames_to_hold;
      ++frames_held;
      glfwPostEmptyEvent();  // the next frame comes at once, not at the next input
    }
    if (soak) {
      const GLenum gl_error = glGetError();
      const bool working = real_run.session.busy() || sim_panel.session.building();
      soak->after_frame(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count(),
                        working, gl_error);
      if (soak->done()) glfwSetWindowShouldClose(window, GLFW_TRUE);
    }
    if (options.frame_times) {
      glFinish();
      frame_times.ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count());
    }
  }

  // Read before cancel(), which drops the run waiting to be confirmed.
  const std::string pending_run_at_close = real_run.session.pending_confirmation(ui_language()).value_or("");
  real_run.session.cancel();
  if (soak) {
    // Memory is judged once the cancelled job has let go of its matrices.
    for (int i = 0; i < 200 && real_run.session.status().busy; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    // A job that cannot be interrupted (cblas_sgemm) may still hold its matrices.
    const auto& shape = real_run.session.controls().shape;
    const std::uint64_t live = real_run.session.status().busy
                                   ? 4ull * (std::uint64_t(shape.m) * shape.k + std::uint64_t(shape.k) * shape.n +
                                             std::uint64_t(shape.m) * shape.n)
                                   : 0;
    const sim::Simulation* shown = sim_panel.session.simulation();
    soak->finish(live, font_atlas_bytes(),
                 (shown != nullptr ? shown->checkpoint_bytes() : 0) + sim_panel.session.kept_bytes());
    std::printf("%s\n", soak->report().dump().c_str());
    if (soak->failed()) exit_code = 1;
  }
  if (use_settings) {
    settings.theme = pres.theme == Theme::dark ? "dark" : "light";
    settings.ui_scale = pres.scale;
    settings.projector = pres.projector;
    settings.language = std::string(lesson::language_code(pres.language));
    std::error_code ec;  // a working directory deleted under the window: keep the path as given
    const auto absolute = player.active() ? std::filesystem::absolute(player.path(), ec) : std::filesystem::path();
    settings.last_lesson = !player.active() ? std::string() : ec ? player.path() : absolute.string();
    settings.last_step = static_cast<int>(player.step());
    std::string error;
    const bool saved = settings_file.empty() ? save_settings(settings, &error)  // says why there is no place
                                             : save_settings_to(settings, settings_file, &error);
    if (!saved) std::fprintf(stderr, "warpscope: settings not saved: %s\n", error.c_str());
  }
  if (options.frame_times) frame_times.report();
  if (options.print_state) {
    nlohmann::json state;
    const auto* s = sim_panel.session.simulation();
    state["cycle"] = sim_panel.session.cycle();
    state["total_cycles"] = sim_panel.session.total_cycles();
    state["simulated_cycles"] = sim_panel.session.simulated_cycles();
    state["simulation_complete"] = sim_panel.session.complete();
    const auto& anchor = sim_panel.session.pending_anchor();
    state["anchor_pending"] = !anchor ? "" : anchor->kind == SeekAnchor::Kind::mid_run ? "mid-run" : "first-issue";
    state["simulation_reused"] = sim_panel.session.reused();
    state["simulations_kept"] = sim_panel.session.kept_count();
    state["simulation_finishing"] = !sim_panel.session.finishing()        ? ""
                                    : sim_panel.session.finishing_paused() ? "paused"
                                                                           : "running";
    state["simulations_built"] = sim_panel.session.builds_started();
    state["real_run_busy"] = real_run.session.busy();
    state["blank"] = pres.blank;
    state["first_frame"] = first_frame;
    state["playing"] = sim_panel.session.playing();
    state["speed"] = sim_panel.session.speed();
    if (s) {
      state["waves"] = s->waves();
      state["blocks"] = static_cast<long long>(s->grid_x()) * s->grid_y();
      state["blocks_per_sm"] = s->blocks_per_sm();
      state["warp_slots_per_sm"] = s->warp_slots_per_sm();
      state["sm_count"] = s->sm_count();
      if (s->complete()) state["peak_occupancy"] = s->summary().peak_occupancy;
      // The selected lane as the inspector shows it: every accumulator with its cell and value.
      const auto& sel = sim_panel.gpu_view.selection;
      if (sel.valid() && sel.sm < s->sm_count() && sel.slot < s->warp_slots_per_sm()) {
        const auto li = s->lane_info(sel.sm, sel.slot, sel.lane);
        nlohmann::json acc = nlohmann::json::array();
        for (const auto& a : li.accumulators) acc.push_back({a.row, a.col, a.value});
        state["selected_lane"] = {{"sm", sel.sm}, {"slot", sel.slot}, {"lane", sel.lane}, {"active", li.active},
                                  {"k_done", li.k_done}, {"k_total", li.k_total},
                                  {"state", sim::to_string(s->warp_info(sel.sm, sel.slot).state)},
                                  {"accumulators", acc}};
      }
    }
    state["gpu_preset"] = s ? s->gpu().id : sim_panel.controls.gpu_preset;
    state["kernel"] = sim::to_string(sim_panel.controls.kernel);
    const auto& shape = sim_panel.controls.shape;
    state["animated"] = {shape.m, shape.n, shape.k};
    auto rect = [](const SimulationPanel::Rect& r) { return nlohmann::json{r.x, r.y, r.w, r.h}; };
    const ScrubBarLayout& scrub = sim_panel.scrub;
    state["regions"] = {{"chip", rect(sim_panel.chip_rect)}, {"cpu", rect(sim_panel.cpu_rect)},
                        {"matrix", rect(sim_panel.matrix_rect)}, {"scrub", {scrub.x, scrub.y, scrub.w, scrub.h}}};
    state["scrub_label_w"] = scrub.label_w;
    if (s) {
      state["c_done"] = s->c_done_count();
      state["cpu_cells_done"] = s->cpu_cells_done();
    }
    // The measured figures exactly as the panel shows them, so they can be checked against `bench`.
    auto measured = [](const std::optional<kernels::JobResult>& r) -> nlohmann::json {
      if (!r) return nullptr;
      return {{"kernel", r->kernel}, {"ms_median", r->ms_median}, {"gflops", r->gflops}, {"threads", r->threads},
              {"verified", r->verified}, {"skipped", r->skipped ? nlohmann::json(*r->skipped) : nlohmann::json(nullptr)}};
    };
    state["measured"] = {{"cpu", measured(real_run.session.cpu_result())}, {"gpu", measured(real_run.session.gpu_result())}};
    if (const auto& g = real_run.session.gpu_result()) {
      state["measured"]["gpu"]["api"] = g->api;
      state["measured"]["gpu"]["device_name"] = g->device_name;
      state["measured"]["gpu"]["software_renderer"] = g->software_renderer;
    }
    state["gpu_kernel"] = real_run.session.controls().gpu_kernel;
    state["pending_run"] = pending_run_at_close;
    const auto gl = kernels::gl_info();
    state["gl_context"] = gl ? gl->context : kernels::gl_status();
    state["window_software_fallback"] =
        window_software_fallback().empty() ? nlohmann::json() : nlohmann::json(window_software_fallback());
    state["gpu_kernel_why_none"] = why_no_gpu_words(real_run.gpu_default, lesson::Language::en);
    nlohmann::json elsewhere = nlohmann::json::array();
    for (const auto& run : real_run.elsewhere)
      for (const auto& r : run.results)
        elsewhere.push_back({{"label", run.label(r, ui_language())}, {"kernel", r.kernel}, {"gflops", r.gflops},
                             {"ms_median", r.ms_median}, {"size", {r.shape.m, r.shape.n, r.shape.k}},
                             {"verified", r.verified}, {"host", run.host}, {"date", run.date}});
    state["measured_elsewhere"] = elsewhere;
    state["measured_elsewhere_errors"] = real_run.elsewhere_errors;
    state["last_toast"] = toast;  // the last notice shown under the menu bar (a saved picture, a dropped file)
    state["measured_elsewhere_rows_shown"] = real_run.elsewhere_rows_shown;
    // The sentence the panel shows, in its language, so a test can check which GPU it compares with.
    std::string sentence;
    if (const auto& cpu_run = real_run.session.cpu_result()) {
      if (const auto side = real_run.comparison()) {
        sentence = comparison_speedup_sentence(*side, *cpu_run, ui_language()).value_or("");
      }
    }
    state["speed_sentence"] = sentence;
    state["lesson_step"] = player.active() ? static_cast<int>(player.step()) + 1 : 0;
    state["picture"] = picture_counts(sim_panel, real_run, player.active() ? player.state().zoom : lesson::Zoom{},
                                      drawn_panels);
    if (player.active()) {
      const auto checked = check_expectations(player.state().expect, state["picture"]);
      state["expect"] = checked;
      state["expect_failed"] = failed_expectations(checked);
    }
    state["lesson_steps"] = static_cast<int>(player.step_count());
    // The current step's caption as the last frame drew it: placeholders filled, markup stripped
    // (one line per block, list items as "• "); "" with no lesson or no caption panel.
    state["caption"] = player.active() ? rendered_caption.text : std::string();
    state["caption_unfilled"] = player.active() ? rendered_caption.unfilled : 0;
    state["language"] = std::string(lesson::language_code(pres.effective_language()));
    state["hangul_font"] = pres.fonts.hangul_path.value_or("");
    state["font_atlas"] = {{"width", io.Fonts->TexWidth}, {"height", io.Fonts->TexHeight}, {"bytes", font_atlas_bytes()}};
    state["rss_mib"] = static_cast<double>(live_rss_bytes()) / (1 << 20);
    state["missing_glyphs"] = missing_glyphs;
    state["ui_scale"] = pres.scale;
    // What the window holds of it: less than ui_scale where the window is too small for the text.
    state["ui_scale_applied"] = pres.applied_scale();
    state["content_scale"] = pres.content_scale;
    state["projector"] = pres.projector;
    state["caption_px"] = rendered_caption_px;
    state["caption_lines"] = rendered_caption_lines;
    state["caption_sources_px"] = rendered_sources_px;
    // Text its panel cuts off in the last frame: how many, in which panels, and what.
    state["clipped_text"] = clip_report_json();
    state["frames_cut"] = {{"count", frames_cut}, {"first", first_frame_cut}};
    // What the style really holds, so a test can tell a scaled style from a compounded one.
    state["style_window_padding"] = ImGui::GetStyle().WindowPadding.x;
    state["style_window_min_size"] = ImGui::GetStyle().WindowMinSize.x;
    state["theme"] = pres.theme == Theme::dark ? "dark" : "light";
    state["text_contrast"] = text_contrast_json();
    state["clean"] = pres.clean;
    state["fullscreen"] = pres.fullscreen;
    // The roofline as drawn in the last frame: plot rectangle, decades, each roof and point with
    // its pixels, so a test can check the drawing against the maths.
    state["roofline"] = roofline_panel.drawn ? roofline_panel.state() : nlohmann::json{{"shown", false}};
    state["generations"] = generations_panel.drawn ? generations_panel.state() : nlohmann::json{{"shown", false}};
    state["cluster"] = cluster_view.drawn ? cluster_view.state() : nlohmann::json{{"shown", false}};
    std::printf("%s\n", state.dump().c_str());
  }
  gl_worker.reset();  // waits for a running GL job to leave the worker context, then destroys it
  sim_panel_owner.reset();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return exit_code;
}

}  // namespace ws::app
