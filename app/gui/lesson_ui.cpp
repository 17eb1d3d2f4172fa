#include "gui/lesson_ui.hpp"

#include "core/assets.hpp"

#include <filesystem>
#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <thread>
#include <map>

#include <fmt/format.h>
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "core/caption_values.hpp"
#include "lesson/facts.hpp"
#include "core/sim_session.hpp"
#include "gui/caption_view.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::app {

namespace {

// The same launch simulated with both kernels, for captions that compare them. Computed once per
// launch in the background (a summary needs a full run), never on the UI thread: a request made
// while one is running waits its turn, and a run nobody wants any more is stopped.
class KernelComparison {
 public:
  ~KernelComparison() { abandon(); }
  void request(const SimControls& c) {
    const auto key = fmt::format("{}|{}|{}|{}x{}x{}", c.gpu_preset, c.cpu_preset, c.block, c.shape.m, c.shape.n, c.shape.k);
    if (key == key_) return;
    key_ = key;
    naive_.reset();
    tiled_.reset();
    if (pending_.valid()) {
      cancel_->store(true);
      next_ = c;
      return;
    }
    start(c);
  }
  void poll() {
    if (!pending_.valid() || pending_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    auto [n, t] = pending_.get();
    if (next_) {
      start(*next_);
      next_.reset();
      return;
    }
    naive_ = n;
    tiled_ = t;
  }
  std::optional<sim::Summary> naive_, tiled_;

 private:
  using Result = std::pair<std::optional<sim::Summary>, std::optional<sim::Summary>>;

  void start(const SimControls& c) {
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    pending_ = std::async(std::launch::async, [c, cancel = cancel_] {
      Result out;
      try {
        const auto& gpu = sim::find_gpu(c.gpu_preset);
        const auto cpu = sim::find_cpu(c.cpu_preset);
        for (auto kernel : {sim::Kernel::naive, sim::Kernel::tiled}) {
          sim::SimConfig cfg;
          cfg.kernel = kernel;
          cfg.shape = c.shape;
          cfg.block = c.block;
          cfg.checkpoints = false;
          cfg.progressive = true;  // so that it can be dropped half-way
          cfg.threads = window_sim_threads();
          const sim::Simulation s(gpu, cpu, cfg);
          while (!s.complete() && s.background_error().empty()) {
            if (cancel->load()) return Result{};
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
          }
          (kernel == sim::Kernel::naive ? out.first : out.second) = s.summary();
        }
      } catch (const std::exception&) {
        // A launch that cannot be simulated has no comparison: the caption shows a dash.
      }
      return out;
    });
  }
  void abandon() {
    if (cancel_) cancel_->store(true);
    if (pending_.valid()) pending_.wait();
  }

  std::string key_;
  std::optional<SimControls> next_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  std::future<Result> pending_;
};

bool caption_compares_kernels(const std::string& caption) {
  return caption.find("{sim.naive_time_ms}") != std::string::npos ||
         caption.find("{sim.tiled_time_ms}") != std::string::npos ||
         caption.find("{sim.tiled_speedup}") != std::string::npos;
}

}  // namespace

bool start_lesson(const std::string& path, LessonPlayer& player, RealRunView& real, SimulationPanel& sim,
                  Presentation& pres) {
  if (!player.open(path)) return false;
  pres.set_language(lesson::language_from_code(player.lesson().language).value_or(pres.language));
  player.start_at(0, real, sim);
  return true;
}

float draw_menu_bar(Presentation& pres, LessonPlayer& player, RealRunView& real, SimulationPanel& sim,
                    lesson::Language lang) {
  using lesson::tr;
  float height = 0;
  if (ImGui::BeginMainMenuBar()) {
    if (ImGui::BeginMenu(tr("panel.lesson", lang))) {
      for (const char* code : {"en", "ko"}) {
        const auto path = fmt::format("{}/lessons/gpu-story.{}.toml", assets_dir(), code);
        const auto label = fmt::format("{} ({})", tr("lesson.gpu_story", lang), lesson::language_name(*lesson::language_from_code(code)));
        if (ImGui::MenuItem(label.c_str())) start_lesson(path, player, real, sim, pres);
      }
      static char path_buffer[512] = "";
      ImGui::Separator();
      ImGui::TextUnformatted(tr("lesson.open", lang));
      ImGui::SetNextItemWidth(320);
      if (ImGui::InputTextWithHint("##lesson_path", "path/to/lesson.toml", path_buffer, sizeof path_buffer,
                                   ImGuiInputTextFlags_EnterReturnsTrue))
        start_lesson(path_buffer, player, real, sim, pres);
      ImGui::Separator();
      if (ImGui::MenuItem(tr("lesson.restart", lang), "Shift+Home", false, player.active())) player.restart(real, sim);
      if (ImGui::MenuItem(tr("lesson.exit", lang), nullptr, false, player.active())) {
        player.close();
        sim.shape_override.reset();
        sim.kernel_override.reset();
      }
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr("panel.measured", lang))) {
      if (real.elsewhere.empty()) ImGui::TextDisabled("%s", tr("measured.none", lang));
      for (const auto& run : real.elsewhere)
        ImGui::TextDisabled("%s: %s, %s", std::filesystem::path(run.file).filename().string().c_str(), run.host.c_str(),
                            run.short_date().c_str());
      if (!real.shipped.empty()) {
        ImGui::Separator();
        ImGui::TextUnformatted(tr("measured.shipped", lang));
        for (const auto& run : real.shipped) {
          const bool shown = real.shows_file(run.file);
          if (ImGui::MenuItem(shipped_run_title(run).c_str(), nullptr, shown, !shown))
            real.add_measured(MeasuredLoad{run, ""});
        }
      }
      ImGui::Separator();
      ImGui::TextUnformatted(tr("measured.open", lang));
      static char measured_path[512] = "";
      ImGui::SetNextItemWidth(320);
      if (ImGui::InputTextWithHint("##measured_path", "path/to/h200.json", measured_path, sizeof measured_path,
                                   ImGuiInputTextFlags_EnterReturnsTrue))
        real.add_measured(load_measured_file(measured_path));
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr("panel.view", lang))) {
      if (ImGui::MenuItem(tr("panel.roofline", lang), "R", pres.show_roofline)) pres.show_roofline = !pres.show_roofline;
      if (ImGui::MenuItem(tr("panel.generations", lang), "G", pres.show_generations))
        pres.show_generations = !pres.show_generations;
      if (ImGui::MenuItem(tr("panel.cluster", lang), nullptr, pres.show_cluster)) pres.show_cluster = !pres.show_cluster;
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr("panel.settings", lang))) {
      if (ImGui::MenuItem(tr("control.theme_dark", lang), "T", pres.theme == Theme::dark)) pres.theme = Theme::dark;
      if (ImGui::MenuItem(tr("control.theme_light", lang), "T", pres.theme == Theme::light_high_contrast))
        pres.theme = Theme::light_high_contrast;
      ImGui::Separator();
      if (ImGui::MenuItem(fmt::format("{} +", tr("control.ui_scale", lang)).c_str(), "Ctrl +")) pres.set_scale(pres.scale * 1.15f);
      if (ImGui::MenuItem(fmt::format("{} -", tr("control.ui_scale", lang)).c_str(), "Ctrl -")) pres.set_scale(pres.scale / 1.15f);
      if (ImGui::MenuItem(fmt::format("{} 100 %", tr("control.ui_scale", lang)).c_str(), "Ctrl 0")) pres.set_scale(1.0f);
      // Ctrl + in a small window changes nothing on screen: say why rather than seem broken.
      if (pres.scale_limited_by_window())
        ImGui::TextDisabled("%s", lesson::trf("control.ui_scale_limited", lang, pres.scale, pres.applied_scale()).c_str());
      ImGui::Separator();
      if (ImGui::MenuItem(tr("control.projector", lang), "P", pres.projector)) pres.projector = !pres.projector;
      if (ImGui::MenuItem(tr("control.clean_mode", lang), "C", pres.clean)) pres.clean = !pres.clean;
      if (ImGui::MenuItem(tr("control.fullscreen", lang), "F11", pres.fullscreen))
        pres.toggle_fullscreen(glfwGetCurrentContext());
      if (ImGui::MenuItem(tr("control.blank", lang), "B")) pres.blank = true;  // a key or a click ends it
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr("control.language", lang))) {
      for (auto l : {lesson::Language::en, lesson::Language::ko})
        if (ImGui::MenuItem(lesson::language_name(l), nullptr, pres.language == l)) pres.set_language(l);
      ImGui::EndMenu();
    }
    // Korean asked for and no font with Hangul (the UI then falls back to English): said beside
    // the Language menu, ahead of the key hints. Floating over the panels, it covered the
    // simulation's pickers.
    if (pres.hangul_missing()) {
      // Whole, in as many words as the bar holds (at 2x text on a small screen only the first
      // form's start would show); the whole sentence on hover.
      const char* forms[] = {tr("label.font_missing", lesson::Language::en),
                             tr("label.font_missing_short", lesson::Language::en), "no Hangul font"};
      const float room = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x;
      const char* fitted = forms[2];
      for (const char* form : forms)
        if (ImGui::CalcTextSize(form).x <= room) {
          fitted = form;
          break;
        }
      ImGui::TextColored(colour_error(), "%s", fitted);
      if (fitted != forms[0] && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", forms[0]);
    }
    // As many whole hints as the bar has room for ("P projector" first to go at 2x text on a
    // small screen), never one cut in half at the window's edge.
    const std::string hints = tr("label.key_hints", lang);
    std::string shown;
    std::size_t from = 0;
    while (from < hints.size()) {
      const std::size_t gap = hints.find("   ", from);
      const std::string hint = hints.substr(from, gap == std::string::npos ? std::string::npos : gap - from);
      const std::string candidate = shown.empty() ? "  " + hint : shown + "   " + hint;
      if (ImGui::CalcTextSize(candidate.c_str()).x > ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x)
        break;
      shown = candidate;
      if (gap == std::string::npos) break;
      from = hints.find_first_not_of(' ', gap);
    }
    if (!shown.empty()) ImGui::TextDisabled("%s", shown.c_str());
    height = ImGui::GetWindowSize().y;
    ImGui::EndMainMenuBar();
  }
  return height;
}

CaptionContent compose_lesson_caption(LessonPlayer& player, RealRunView& real, SimulationPanel& sim,
                                      lesson::Language lang) {
  CaptionContent content;
  RenderedCaption& out = content.rendered;
  static KernelComparison comparison;
  static std::uint64_t progress_for = 0;  // SimSession::generation() the figure was computed for
  static std::optional<double> progress_at_finish;

  const auto& st = player.state();
  content.title = st.title;

  // Everything a caption quotes comes from the app's own state, never from the lesson text.
  CaptionContext ctx;
  sim::Simulation* s = sim.session.simulation();
  ctx.sim = s;
  ctx.language = lang;
  // Until the background run is complete its totals do not exist: a caption that quotes them
  // waits, saying how far the simulation has got, rather than showing a gap.
  if (s && !s->complete()) {
    bool quotes_sim = false;
    for (const auto& key : lesson::caption_placeholders(st.caption)) quotes_sim |= key.rfind("sim.", 0) == 0;
    if (quotes_sim) {
      const auto percent = static_cast<int>(100.0 * s->simulated_fraction());
      out.text = lesson::trf("sim.simulating_percent", lang, percent);
      out.waiting = true;
      content.blocks = lesson::parse_caption_markup(out.text);
      content.glyph_text = out.text + st.title;
      return content;
    }
  }
  // Likewise a caption that quotes this machine's measurements while a real run is in flight
  // (the one the step started): the last results are of another size or kernel, or there are none;
  // or while a run too long to start unasked waits for Run anyway (a slow machine), which it says.
  const auto waits_for_confirmation = real.session.pending_confirmation(lang);
  if (real.session.busy() || waits_for_confirmation) {
    bool quotes_measured = false;
    for (const std::string* caption : {&st.caption, &st.caption_no_gpu})
      for (const auto& key : lesson::caption_placeholders(*caption)) quotes_measured |= key.rfind("measured.", 0) == 0;
    if (quotes_measured) {
      out.text = waits_for_confirmation ? lesson::trf("measured.waits_for_run_anyway", lang, *waits_for_confirmation)
                                        : lesson::tr("measured.measuring", lang);
      out.waiting = true;
      content.blocks = lesson::parse_caption_markup(out.text);
      content.glyph_text = out.text + st.title;
      return content;
    }
  }
  if (s && sim.session.generation() != progress_for && !sim.session.building() && s->complete()) {
    progress_for = sim.session.generation();
    progress_at_finish = cpu_progress_at_gpu_finish(*s);
  }
  if (s && sim.session.generation() == progress_for) ctx.cpu_progress_at_finish = progress_at_finish;
  if (caption_compares_kernels(st.caption)) {
    comparison.request(sim.controls);
    comparison.poll();
    ctx.naive_summary = comparison.naive_;
    ctx.tiled_summary = comparison.tiled_;
  }
  if (real.session.cpu_result()) ctx.cpu_result = &*real.session.cpu_result();
  ctx.cpu_name = kernels::cpu_info().name;
  if (const auto g = kernels::gpu_info()) {
    ctx.gpu_name = g->name;
  } else if (const auto gl = kernels::gl_info(); gl && !gl->software) {
    ctx.gpu_name = gl->renderer;
  }
  // The GPU side is this machine's GPU, or (with no hardware GPU here) a run measured elsewhere on
  // the same problem, named with where and when; a software renderer is never the GPU side.
  if (const auto gpu_side = real.comparison()) {
    ctx.gpu_result = gpu_side->result;
    if (gpu_side->elsewhere || ctx.gpu_name.empty()) ctx.gpu_name = comparison_gpu_name(*gpu_side, lang);
  }
  // The cluster view's split for this step, worked out as the view does (core/cluster_setup.hpp),
  // only when the caption quotes it; cached, since a caption is composed every frame.
  static std::string cluster_for;
  static std::optional<sim::ClusterResult> cluster;
  static std::vector<ScalingPoint> curve;
  bool quotes_cluster = false, quotes_curve = false;
  for (const auto& key : lesson::caption_placeholders(st.caption)) {
    quotes_cluster |= key.rfind("cluster.", 0) == 0;
    quotes_curve |= key == "cluster.curve";
  }
  if (quotes_cluster) {
    const auto& cs = st.cluster;
    const std::string key = fmt::format("{}|{}|{}|{}|{}|{}|{}", sim.controls.gpu_preset, cs.strategy, cs.gpus, cs.nodes,
                                        cs.micro_batches, cs.size, quotes_curve);
    if (key != cluster_for) {
      cluster_for = key;
      cluster.reset();
      curve.clear();
      try {
        cluster = simulate_setting(sim.controls.gpu_preset, cs);
        if (quotes_curve) curve = scaling_curve(sim.controls.gpu_preset, cs);
      } catch (const std::exception&) {
        // A split the model refuses leaves the values as dashes; the cluster view says why.
      }
    }
    if (cluster) ctx.cluster = &*cluster;
    ctx.cluster_curve = curve;
  }
  // No hardware GPU here and no run measured elsewhere: a GPU figure can never come. The step's
  // caption_no_gpu says the point without it; a caption without one gets words for the values.
  ctx.no_gpu_here = ctx.gpu_name.empty() && ctx.gpu_result == nullptr;
  const std::string& caption = ctx.no_gpu_here && !st.caption_no_gpu.empty() ? st.caption_no_gpu : st.caption;
  const auto text = lesson::expand_caption(caption, [&](std::string_view key) {
    auto value = caption_value(key, ctx);
    if (!value || value->empty()) ++out.unfilled;
    return value;
  });
  const std::string sources = lesson::fact_sources(caption, lang);
  content.blocks = lesson::parse_caption_markup(text);
  content.sources = lesson::parse_caption_markup(sources);
  for (const auto* blocks : {&content.blocks, &content.sources}) {
    for (const auto& block : *blocks) {
      if (!out.text.empty()) out.text += '\n';
      if (block.kind == lesson::CaptionBlock::Kind::list_item) out.text += "\xE2\x80\xA2 ";
      for (const auto& span : block.spans) out.text += span.text;
    }
  }
  content.glyph_text = text + sources + st.title;
  return content;
}

namespace {

float caption_header_h() { return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.y; }

// The separator under the title and the space around it.
float caption_rule_h() { return 1.0f + 2 * ImGui::GetStyle().ItemSpacing.y; }

// The space between the text and its sources: a paragraph's break at the sources' size.
float sources_gap(float sources_px) { return std::round(0.7f * sources_px); }

}  // namespace

CaptionFit fit_lesson_caption(const CaptionContent& content, const Presentation& pres, float panel_w, float max_h,
                              float caption_px) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float inner_w = std::max(50.0f, panel_w - 2 * style.WindowPadding.x);
  ImFont* regular = pres.fonts.caption_regular ? pres.fonts.caption_regular : ImGui::GetFont();
  ImFont* bold = pres.fonts.caption_bold ? pres.fonts.caption_bold : regular;
  // Smaller than this nobody reads it anyway; the caption is still never cut or scrolled.
  const float smallest_px = 9.0f;
  CaptionFit fit;
  fit.text_px = caption_px;
  for (;;) {
    fit.title_px = fit.text_px;
    fit.sources_px = content.sources.empty() ? 0 : std::max(smallest_px, std::floor(fit.text_px * kSourcesScale));
    const float title_h = bold->CalcTextSizeA(fit.title_px, FLT_MAX, inner_w, content.title.c_str()).y;
    float text_h = caption_blocks_height(content.blocks, regular, bold, fit.text_px, inner_w);
    if (!content.sources.empty())
      text_h += sources_gap(fit.sources_px) +
                caption_blocks_height(content.sources, regular, bold, fit.sources_px, inner_w);
    // One extra pixel each side: ImGui rounds the window's clip rectangle inwards.
    // The window's title bar is as tall as a frame.
    fit.panel_h = std::ceil(ImGui::GetFrameHeight() + 2 * style.WindowPadding.y + caption_header_h() + title_h +
                            caption_rule_h() + text_h + 2);
    if (fit.panel_h <= max_h || fit.text_px <= smallest_px) break;
    fit.text_px = std::max(smallest_px, std::floor(fit.text_px * 0.92f));
  }
  return fit;
}

int draw_lesson_caption(LessonPlayer& player, RealRunView& real, SimulationPanel& sim, const Presentation& pres,
                        lesson::Language lang, const CaptionContent& content, const CaptionFit& fit,
                        CaptionLines* caption_lines) {
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left) && player.step() > 0) player.go_to(player.step() - 1, real, sim);
  ImGui::SameLine();
  const auto counter = lesson::trf("lesson.step_of", lang, player.step() + 1, player.step_count());
  // As wide as its text at any UI scale: a fixed width cut "Step 12 of 17" at 2x.
  ImGui::SetNextItemWidth(ImGui::CalcTextSize(counter.c_str()).x + ImGui::GetFrameHeight() +
                          2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::BeginCombo("##step", counter.c_str())) {
    for (std::size_t i = 0; i < player.step_count(); ++i) {
      const auto& title = player.lesson().steps[i].title;
      const auto item = fmt::format("{}. {}", i + 1, title.value_or(""));
      if (ImGui::Selectable(item.c_str(), i == player.step())) player.go_to(i, real, sim);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) player.go_to(player.step() + 1, real, sim);
  // The lesson's name only where it fits whole; the step title below says what matters.
  const std::string& lesson_title = player.lesson().title;
  ImGui::SameLine();
  if (ImGui::CalcTextSize(lesson_title.c_str()).x + ImGui::GetStyle().ItemSpacing.x <= ImGui::GetContentRegionAvail().x)
    ImGui::TextDisabled("%s", lesson_title.c_str());
  else
    ImGui::NewLine();

  ImFont* regular = pres.fonts.caption_regular ? pres.fonts.caption_regular : ImGui::GetFont();
  ImFont* bold = pres.fonts.caption_bold ? pres.fonts.caption_bold : regular;
  const float inner_w = ImGui::GetContentRegionAvail().x;
  const ImVec2 title_at = ImGui::GetCursorScreenPos();
  const char* title = content.title.c_str();
  const ImVec2 title_size = bold->CalcTextSizeA(fit.title_px, FLT_MAX, inner_w, title);
  ImGui::GetWindowDrawList()->AddText(bold, fit.title_px, title_at, ImGui::GetColorU32(ImGuiCol_Text), title, nullptr,
                                      inner_w);
  ImGui::Dummy(ImVec2(inner_w, title_size.y));
  ImGui::Separator();
  if (content.rendered.waiting) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  draw_caption_blocks(content.blocks, regular, bold, fit.text_px, inner_w, caption_lines);
  if (content.rendered.waiting) ImGui::PopStyleColor();
  if (!content.sources.empty()) {
    // Dummy adds ItemSpacing after itself, as draw_caption_blocks' Dummy did: the gap is exact.
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y + sources_gap(fit.sources_px));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    draw_caption_blocks(content.sources, regular, bold, fit.sources_px, inner_w);
    ImGui::PopStyleColor();
  }
  return count_missing_glyphs(regular, content.glyph_text);
}

void draw_lesson_error(LessonPlayer& player, lesson::Language lang) {
  using lesson::tr;
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(size.x / 2, size.y / 2), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(size.x * 0.6f, 0), ImGuiCond_Appearing);
  bool open = true;
  if (ImGui::Begin(tr("lesson.load_failed", lang), &open)) {
    text_wrapped(player.error());
    ImGui::TextDisabled("%s", tr("lesson.state_kept", lang));
  }
  ImGui::End();
  if (!open) player.clear_error();
}

}  // namespace ws::app
