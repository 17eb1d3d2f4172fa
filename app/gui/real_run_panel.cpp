#include "gui/real_run_panel.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <limits>
#include <vector>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "core/caption_values.hpp"
#include "core/kernel_resources_text.hpp"
#include "core/measured_text.hpp"
#include "gui/gl_window.hpp"
#include "gui/presentation.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"
#include "warpscope/kernels/blas_core.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::app {

RealRunView::RealRunView() {
  session.controls().threads = std::max(1, kernels::cpu_info().cores);
  gpu_default = default_gpu_kernel_here();
  hardware_gpu = !gpu_default.kernel.empty();
  session.controls().gpu_kernel = gpu_default.kernel;
  session.on_result = [this](const kernels::JobResult& r) {
    if (!r.skipped) history.add(r.kernel, r.gflops);
    if (!r.skipped && !r.cancelled) {
      runs.push_back(r);
      if (runs.size() > kMaxRuns) runs.erase(runs.begin());
    }
  };
}

void RealRunView::add_measured(MeasuredLoad load) {
  if (!load.run) {
    std::fprintf(stderr, "warpscope: measured run not shown: %s\n", load.error.c_str());
    // The same file dropped again says so once; the panel keeps the latest few, not a growing list.
    std::erase(elsewhere_errors, load.error);
    elsewhere_errors.push_back(std::move(load.error));
    constexpr std::size_t kErrorsShown = 4;
    if (elsewhere_errors.size() > kErrorsShown)
      elsewhere_errors.erase(elsewhere_errors.begin(), elsewhere_errors.end() - kErrorsShown);
    return;
  }
  elsewhere.push_back(std::move(*load.run));
  references_lang_.reset();
}

bool RealRunView::shows_file(const std::string& path) const {
  return std::any_of(elsewhere.begin(), elsewhere.end(), [&](const MeasuredElsewhere& e) { return e.file == path; });
}

void RealRunView::label_references(lesson::Language lang) {
  if (references_lang_ == lang) return;
  std::vector<GflopsHistory::Reference> references;
  for (const auto& run : elsewhere)
    for (const auto& r : run.results)
      if (r.verified)
        references.push_back({r.kernel, fmt::format("{} {}, {}", r.kernel, format_shape(r.shape), run.label(r, lang)), r.gflops});
  history.set_references(std::move(references));
  references_lang_ = lang;
}

std::optional<ComparisonGpu> RealRunView::comparison() const {
  const auto& gpu = session.gpu_result();
  const auto& cpu = session.cpu_result();
  return comparison_gpu(gpu ? &*gpu : nullptr, cpu ? &*cpu : nullptr, hardware_gpu, elsewhere);
}

namespace {

// A kernel picker that still lists kernels that cannot run here, with the reason as a tooltip,
// so a student without a GPU sees what exists and why it is greyed out.
bool kernel_combo(const char* label, kernels::Device device, std::string& selected) {
  bool changed = false;
  if (ImGui::BeginCombo(label, selected.empty() ? T("run.none") : selected.c_str())) {
    if (device == kernels::Device::gpu && ImGui::Selectable(T("run.none"), selected.empty())) {
      changed = !selected.empty();
      selected.clear();
    }
    for (const auto& k : kernels::all_kernels()) {
      if (k.device != device) continue;
      const auto reason = kernels::unavailable_reason(k.name);
      const bool is_selected = (k.name == selected);
      std::string item = reason ? k.name + "  " + T("run.unavailable") : k.name;
      if (!reason && kernels::is_gl_kernel(k.name)) {
        const auto gl = kernels::gl_info();
        if (gl && gl->software) item += std::string("  ") + T("run.software_renderer");
      }
      if (ImGui::Selectable(item.c_str(), is_selected)) {
        changed = selected != k.name;
        selected = k.name;
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s%s%s", kernel_description(k, ui_language()).c_str(), reason ? "\n" : "",
                          reason ? kernels_words(*reason, ui_language()).c_str() : "");
      if (is_selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

bool size_slider(const char* label, int& value) {
  // Logarithmic: 1 to 16384 in one slider; Ctrl+click types an exact value.
  const bool changed = ImGui::SliderInt(label, &value, 1, 16384, "%d", ImGuiSliderFlags_Logarithmic |
                                                                        ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", T("control.ctrl_click"));
  return changed;
}

std::string format_bytes(double bytes) {
  if (bytes >= 1024.0 * 1024 * 1024) return fmt::format("{:.1f} GiB", bytes / (1024.0 * 1024 * 1024));
  if (bytes >= 1024.0 * 1024) return fmt::format("{:.1f} MiB", bytes / (1024.0 * 1024));
  return fmt::format("{:.0f} KiB", bytes / 1024.0);
}

// A result row's four figures as both tables write them: median ms, GFLOP/s, copy ms, check.
using FigureCells = std::array<std::string, 4>;
FigureCells figure_cells(const kernels::JobResult& r) {
  return {format_sig3(r.ms_median), format_sig3(r.gflops),
          r.transfer_ms ? format_sig3(*r.transfer_ms) : std::string(T("run.not_applicable")),
          T(r.verified ? "run.ok" : r.failed ? "run.failed" : "run.wrong")};
}

// Each cell's width at the current font, widened into `widths` (one per figure column).
void widen_to(std::vector<float>& widths, const FigureCells& cells, std::size_t first = 0) {
  for (std::size_t i = 0; i < cells.size(); ++i)
    widths[first + i] = std::max(widths[first + i], ImGui::CalcTextSize(cells[i].c_str()).x);
}

// The four cells, in their columns and colours; returns the room in pixels between the ms figure
// and the GFLOP/s. The check cell is the last item, for its tooltip. The error itself is in the
// tooltip (and in the line below a WRONG or failed result): a seventh column did not fit the
// panel at 1280 px. An unverified result's time and GFLOP/s are in the error colour too: a narrow
// panel drops the check column, and its figures must not read as good ones then.
float draw_figure_cells(const kernels::JobResult& r, const FigureCells& cells) {
  const auto figure = [&](const std::string& text) {
    if (r.verified) ImGui::TextUnformatted(text.c_str());
    else ImGui::TextColored(colour_error(), "%s", text.c_str());
  };
  ImGui::TableNextColumn();
  figure(cells[0]);
  const float ms_end = ImGui::GetItemRectMax().x;
  ImGui::TableNextColumn();
  figure(cells[1]);
  const float gap = ImGui::GetItemRectMin().x - ms_end;
  ImGui::TableNextColumn();
  if (r.transfer_ms)
    ImGui::TextUnformatted(cells[2].c_str());
  else
    ImGui::TextDisabled("%s", cells[2].c_str());
  ImGui::TableNextColumn();
  ImGui::TextColored(r.verified ? colour_ok() : colour_error(), "%s", cells[3].c_str());
  return gap;
}

// A row's status ("not chosen", "queued") in its figures' first cell, running on over the empty
// cells beside it to the table's edge. A NoClip column let it run on in some frames and cut it in
// others ("not chose" once the panel had a scroll bar), depending on how ImGui merged the table's
// draw channels.
void status_text(const char* text) {
  const ImGuiTable* table = ImGui::GetCurrentTable();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(at.x, table->InnerClipRect.Min.y), table->InnerClipRect.Max, false);
  dl->AddText(at, ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
  dl->PopClipRect();
  ImGui::Dummy(ImGui::CalcTextSize(text));  // the item, for the row's height and a tooltip
}

// `cells`: the result's figure_cells where it has figures. `no_result_key`: what a chosen kernel
// without a result says (queued, waiting for "Run anyway", not run yet). `figures_gap`: lowered
// to the room in pixels between the row's ms figure and its GFLOP/s.
void draw_result_row(const char* side, const std::optional<kernels::JobResult>& result,
                     const std::optional<FigureCells>& cells, const std::string& kernel, const RunnerStatus& status,
                     const char* no_result_key, float& figures_gap) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  // A GL kernel on a software renderer computed on this CPU: its row must not read "GPU".
  ImGui::TextUnformatted(result && result->software_renderer ? "CPU (GL)" : side);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(kernel.empty() ? T("run.none") : kernel.c_str());
  const bool running = status.busy && status.kernel == kernel;
  if (running) {
    ImGui::TableNextColumn();
    ImGui::ProgressBar(static_cast<float>(status.progress), ImVec2(-1, 0), T("run.running"));
    for (int i = 0; i < 3; ++i) ImGui::TableNextColumn();
    return;
  }
  if (!result) {
    ImGui::TableNextColumn();
    status_text(T(kernel.empty() ? "run.not_chosen" : no_result_key));
    for (int i = 0; i < 3; ++i) ImGui::TableNextColumn();
    return;
  }
  if (result->skipped) {
    ImGui::TableNextColumn();
    status_text(T("label.skipped"));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kernels_words(*result->skipped, ui_language()).c_str());
    for (int i = 0; i < 3; ++i) ImGui::TableNextColumn();
    return;
  }
  figures_gap = std::min(figures_gap, draw_figure_cells(*result, *cells));
  if (ImGui::IsItemHovered() && !result->failed)
    ImGui::SetTooltip("%s", TF("run.error_tooltip", fmt::format("{:.2e}", result->max_rel_error),
                               result->checked_elements).c_str());
}

// The controls of the real run; edits cancel the running job and schedule a new one.
void draw_controls(RealRunView& view, double now) {
  auto& session = view.session;
  auto& c = session.controls();
  const auto& cpu = kernels::cpu_info();
  bool edited = false;
  // Room on the right for the widest label at any UI scale: a fixed 90 px cut "Threads" at 2x.
  float label_w = 0;
  for (const char* key : {"control.threads", "control.cpu_kernel", "control.gpu_kernel", "control.repeats"})
    label_w = std::max(label_w, ImGui::CalcTextSize(T(key)).x);
  ImGui::PushItemWidth(-(label_w + 2 * ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("M").x));
  edited |= ImGui::Checkbox(T("control.square"), &view.lock_square);
  auto& shape = c.shape;
  const kernels::Shape before = shape;
  edited |= size_slider("M", shape.m);
  edited |= size_slider("N", shape.n);
  edited |= size_slider("K", shape.k);
  if (view.lock_square) {
    const int v = shape.m != before.m ? shape.m : shape.n != before.n ? shape.n : shape.k;
    shape.m = shape.n = shape.k = v;
  }
  const bool threads_matter = [&] {
    const auto* k = kernels::find_kernel(c.cpu_kernel);
    return k && k->uses_threads;
  }();
  ImGui::BeginDisabled(!threads_matter);
  edited |= ImGui::SliderInt(T("control.threads"), &c.threads, 1, std::max(1, cpu.cores) * 2, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::EndDisabled();
  if (!threads_matter && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", TF("run.one_thread", c.cpu_kernel).c_str());
  edited |= kernel_combo(T("control.cpu_kernel"), kernels::Device::cpu, c.cpu_kernel);
  edited |= kernel_combo(T("control.gpu_kernel"), kernels::Device::gpu, c.gpu_kernel);
  edited |= ImGui::SliderInt(T("control.repeats"), &c.repeats, 1, 20, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::PopItemWidth();
  if (edited) session.note_controls_edited(now);

  const double bytes = 4.0 * (double(shape.m) * shape.k + double(shape.k) * shape.n + double(shape.m) * shape.n);
  // Wrapped: at 1.5x text on 1280x720 the line ran out of the panel ("per produ").
  wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
               TF("run.memory_need", format_bytes(bytes), fmt::format("{:.3g}", shape.flops() / 1e9)));
}

// The controls as one line, the button that unfolds them: the size, the kernels, the threads
// where the CPU kernel uses them.
void draw_folded_controls(RealRunView& view) {
  const auto& c = view.session.controls();
  const auto* cpu_kernel = kernels::find_kernel(c.cpu_kernel);
  const std::string cpu = c.cpu_kernel.empty() ? T("run.none") : c.cpu_kernel;
  const std::string gpu = c.gpu_kernel.empty() ? T("run.none") : c.gpu_kernel;
  const std::string shape = format_shape(c.shape);
  const char* threads_key = c.threads == 1 ? "control.real_folded_one_thread" : "control.real_folded_threads";
  const std::string text = cpu_kernel && cpu_kernel->uses_threads ? TF(threads_key, shape, cpu, c.threads, gpu)
                                                                  : TF("control.real_folded", shape, cpu, gpu);
  // Longer kernel names take the button's second line rather than lose the GPU's.
  if (wrapped_button(text, "unfold_real_controls")) view.controls_unfolded = true;
}

void draw_run_buttons(RealRunSession& session) {
  if (ImGui::Button(T("control.run"))) session.run_now();
  ImGui::SameLine();
  ImGui::BeginDisabled(!session.busy());
  if (ImGui::Button(T("control.cancel"))) session.cancel();
  ImGui::EndDisabled();
  if (session.cpu_job_running()) {
    // Beside the buttons, in fewer words where the whole note would run off the panel (1280x720:
    // "...leave it the cores" was cut for the few frames a small run takes), else not at all: a
    // line of its own would move everything under it for as long as the run lasts, and the
    // table's row already says "running".
    const float room = ImGui::GetContentRegionAvail().x - ImGui::GetItemRectMax().x + ImGui::GetCursorScreenPos().x -
                       ImGui::GetStyle().ItemSpacing.x;
    for (const char* key : {"run.timing_cpu", "run.timing_cpu_brief"}) {
      if (ImGui::CalcTextSize(T(key)).x <= room) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", T(key));
        break;
      }
    }
  }
}

// A run estimated above kLongRunSeconds waits here instead of starting: the sentence, and one
// click either way. Drawn in presentation mode too, since a lesson step may ask for such a run.
void draw_pending_run(RealRunSession& session) {
  const auto pending = session.pending_confirmation(ui_language());
  if (!pending) return;
  ImGui::Spacing();
  wrapped_text(colour_error(), *pending);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", session.pending_basis(ui_language()).c_str());
  if (ImGui::Button(T("control.run_anyway"))) session.confirm();
  ImGui::SameLine();
  if (ImGui::Button(fmt::format("{}##pending", T("control.cancel")).c_str())) session.cancel();
  ImGui::Spacing();
}

// Column headers in full where the panel has room for them, else their short forms: ImGui would
// cut a long header mid-word ("medi...") in a narrow panel or at large text.
// When even the short forms do not fit, the last two columns (copy time and check, the least
// needed in a lecture) are dropped: `keep` says how many of the headers to show.
struct FittingHeaders {
  std::vector<const char*> names;
  std::size_t keep = 0;
  // Below 1 where even the kept columns' figures are wider than the panel: the table's text is
  // drawn this much smaller rather than run one figure into the next ("0.0075569.4" at 2x text
  // beside the generations table).
  float text_scale = 1;
  // Sets up the columns, the dropped ones disabled (ImGui skips what is drawn into them).
  void setup() const {
    for (std::size_t i = 0; i < names.size(); ++i)
      ImGui::TableSetupColumn(names[i], i < keep ? ImGuiTableColumnFlags_None : ImGuiTableColumnFlags_Disabled);
  }
};
// `names_w`: the text of the two columns before these (the device and kernel names), at the
// current font, without their padding; 0 where there are none. `widest`: per
// column, its widest cell below the header at the current font (0 where unknown).
FittingHeaders fitting_headers(float names_w, std::initializer_list<const char*> full,
                               std::initializer_list<const char*> brief, const std::vector<float>& widest = {}) {
  const auto& style = ImGui::GetStyle();
  const float pad = 2 * style.CellPadding.x + style.ItemSpacing.x;
  auto need = [&](const std::vector<const char*>& headers, std::size_t count, float text) {
    // The names' text shrinks with the table's; their padding does not (counted as if it did, the
    // estimate was 13 px short at 0.8 and cut "GFLOP/s" at 1024x768 with 2x text).
    float w = names_w > 0 ? names_w * text + 2 * pad : 0;
    for (std::size_t i = 0; i < count; ++i)
      w += std::max(ImGui::CalcTextSize(headers[i]).x, i < widest.size() ? widest[i] : 0.0f) * text + pad;
    return w;
  };
  const float room = ImGui::GetContentRegionAvail().x;
  const std::vector<const char*> f(full), b(brief);
  if (need(f, f.size(), 1) <= room) return {f, f.size()};
  if (need(b, b.size(), 1) <= room) return {b, b.size()};
  FittingHeaders out{b, b.size() >= 2 ? b.size() - 2 : b.size()};
  // Smaller in steps, as far as text a back row still reads: past that the figures touch.
  while (out.text_scale > 0.7f && need(b, out.keep, out.text_scale) > room) out.text_scale *= 0.97f;
  return out;
}

// "Measured elsewhere, on NVIDIA H200 and Intel Xeon (vm, 2026-12-04), from h200-1024.json".
std::string elsewhere_label(const MeasuredElsewhere& run) {
  const std::string devices = run.gpu_name.empty() ? run.cpu_name : TF("run.devices_both", run.gpu_name, run.cpu_name);
  return TF("run.elsewhere", devices, run.host, run.short_date(), std::filesystem::path(run.file).filename().string());
}

float elsewhere_row_height() { return ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y; }

// Height of the label and table draw_elsewhere gives `run` with `rows` of its results, at this
// panel's width.
float elsewhere_table_height(const MeasuredElsewhere& run, std::size_t rows) {
  const float label_h = wrapped_text_size(elsewhere_label(run), ImGui::GetContentRegionAvail().x).y;
  return label_h + 3 * ImGui::GetStyle().ItemSpacing.y + elsewhere_row_height() * static_cast<float>(rows + 1);
}

// Runs measured on other machines: a table per file, in their own colour, under their label. In
// presentation mode, where the panel cannot scroll, when they do not all fit: the file of the run
// the speed sentence compares with, that run and as many of the file's others (in its order) as
// the panel has rows for, and one line counting the rest (the two shipped files' 26 rows ran a
// projected panel 1 400 px past its bottom; the compared run alone left most of it empty).
void draw_elsewhere(RealRunView& view, bool clean) {
  for (const auto& error : view.elsewhere_errors) wrapped_text(colour_error(), error);
  float full_h = 0;
  std::size_t all_rows = 0;
  for (const auto& run : view.elsewhere) {
    full_h += elsewhere_table_height(run, run.results.size());
    all_rows += run.results.size();
  }
  const float avail = ImGui::GetContentRegionAvail().y;
  const bool condensed = clean && full_h > avail;
  const auto side = condensed ? view.comparison() : std::nullopt;
  const kernels::JobResult* only = side && side->elsewhere ? side->result : nullptr;
  const auto holds_only = [&](const MeasuredElsewhere& run) {
    return std::any_of(run.results.begin(), run.results.end(), [&](const auto& r) { return &r == only; });
  };
  // Rows besides the compared one that fit under it, the line counting the rest kept in.
  std::size_t others_fit = 0;
  bool compared_fits = true;
  if (condensed && only != nullptr)
    for (const auto& run : view.elsewhere)
      if (holds_only(run)) {
        const float row_h = elsewhere_row_height();
        const float more_h = wrapped_text_size(TF("run.elsewhere_more", all_rows), ImGui::GetContentRegionAvail().x).y +
                             ImGui::GetStyle().ItemSpacing.y;
        const float compared_h = elsewhere_table_height(run, 1);
        const float spare = avail - compared_h - more_h;
        others_fit = spare > row_h ? static_cast<std::size_t>(spare / row_h) : 0;
        // Not even the compared run's row fits: the speed sentence above names it, where and when.
        compared_fits = compared_h <= avail;
      }
  std::size_t others_shown = 0;
  view.elsewhere_rows_shown = 0;
  int table_id = 0;
  for (const auto& run : view.elsewhere) {
    if (condensed && (!holds_only(run) || !compared_fits)) continue;
    ImGui::Separator();
    wrapped_text(colour_elsewhere(), elsewhere_label(run));
    ImGui::PushStyleColor(ImGuiCol_Text, colour_elsewhere());
    if (ImGui::BeginTable(fmt::format("elsewhere{}", table_id++).c_str(), 6,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
      // The rows shown, formatted once: every column's widest cell (the kernels' names among them)
      // sets the headers, then the same cells are drawn.
      struct ShownRow {
        const kernels::JobResult* result;
        std::string shape;
        FigureCells figures;
      };
      std::vector<ShownRow> shown;
      std::vector<float> cells_w(6, 0.0f);
      for (const auto& r : run.results) {
        if (condensed && &r != only && others_shown++ >= others_fit) continue;
        shown.push_back({&r, format_shape(r.shape), figure_cells(r)});
        cells_w[0] = std::max(cells_w[0], ImGui::CalcTextSize(r.kernel.c_str()).x);
        cells_w[1] = std::max(cells_w[1], ImGui::CalcTextSize(shown.back().shape.c_str()).x);
        widen_to(cells_w, shown.back().figures, 2);
      }
      const auto headers =
          fitting_headers(0,
                          {T("run.col_kernel"), T("run.col_size"), T("run.col_median_ms"), "GFLOP/s", T("run.col_copy_ms"),
                           T("run.col_check")},
                          {T("run.col_kernel"), T("run.col_size"), "ms", "GFLOP/s", T("run.col_copy"), T("run.ok")}, cells_w);
      if (headers.text_scale < 1) ImGui::SetWindowFontScale(headers.text_scale);
      headers.setup();
      ImGui::TableHeadersRow();
      for (const auto& row : shown) {
        ++view.elsewhere_rows_shown;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row.result->kernel.c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", run.label(*row.result, ui_language()).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row.shape.c_str());
        draw_figure_cells(*row.result, row.figures);
      }
      ImGui::EndTable();
      if (headers.text_scale < 1) ImGui::SetWindowFontScale(1.0f);
    }
    ImGui::PopStyleColor();
  }
  const std::size_t left_out = all_rows - static_cast<std::size_t>(view.elsewhere_rows_shown);
  const std::string more = left_out == 1 ? std::string(T("run.elsewhere_more_one")) : TF("run.elsewhere_more", left_out);
  // In presentation mode the count gives way where the panel ends first (1280x720 with 2x text and
  // both shipped files): the speed sentence and the compared run are what the room reads.
  if (left_out > 0 && (!condensed || wrapped_text_size(more, ImGui::GetContentRegionAvail().x).y <=
                                         ImGui::GetContentRegionAvail().y + 0.5f))
    wrapped_text(colour_elsewhere(), more);
}

// This machine's CPU, the OpenBLAS core, and what GPU (CUDA, else OpenGL) there is or why none.
void draw_hardware_lines() {
  const auto& cpu = kernels::cpu_info();
  text_wrapped(TF(cpu.cores == 1 ? "run.cpu_line_one" : "run.cpu_line", cpu.name, cpu.cores, cpu.simd));
  // The kernel cpu-blas really runs, and the one OpenBLAS would have run when warpscope corrected it.
  if (const auto blas = kernels::blas_core_state(); blas.core != "none")
    text_wrapped(openblas_core_words(blas, ui_language()));
  const auto gpu = kernels::gpu_info();
  if (gpu)
    text_wrapped(TF("run.gpu_line", gpu->name, gpu->cc_major, gpu->cc_minor, gpu->sm_count));
  else
    wrapped_text(colour_error(), "CUDA: " + kernels_words(kernels::gpu_status(), ui_language()));
  if (!gpu) {
    const auto gl = kernels::gl_info();
    if (gl && !gl->software)
      text_wrapped("GPU (OpenGL): " + gl->renderer);
    else if (gl)
      wrapped_text(colour_error(), TF("run.gl_software", gl->renderer));
    else
      wrapped_text(colour_error(), "OpenGL: " + kernels_words(kernels::gl_status(), ui_language()));
  }
  if (!window_software_fallback().empty()) wrapped_text(colour_error(), T("run.window_software"));
}

}  // namespace

void draw_real_run_panel(RealRunView& view, double now, bool clean) {
  auto& session = view.session;
  auto& c = session.controls();

  // The panel's height below its title bar and padding.
  const float room = ImGui::GetWindowHeight() - ImGui::GetCursorStartPos().y - ImGui::GetStyle().WindowPadding.y;
  if (const ImVec2 panel = ImGui::GetWindowSize(); panel.x != view.compact_for_w || panel.y != view.compact_for_h) {
    view.compact = view.full_needed_h > room;
    view.crowded_latched = false;
    view.compact_for_w = panel.x;
    view.compact_for_h = panel.y;
  }
  const bool compact = clean && view.compact;
  // Presentation mode keeps the timers and hides the controls. Outside it, a panel too short for
  // the controls and the results folds the controls, and where that is not enough either, the
  // lines on this machine's hardware give way too (the GPU row's tooltip still says why no GPU
  // runs). Both are judged on the height with everything drawn, so the choice holds once made.
  // The history's least height counts too: with the results alone judged, 1366x768 with 1.5x
  // Korean text left the history 1 px and cut it. Once crowded at a panel's size it stays so until
  // the size changes: a scroll bar that comes and goes narrows the text, wraps the hardware lines
  // onto one more line, and flipped the decision every other frame (a four-frame flicker there).
  const bool crowded = view.crowded_latched = view.crowded_latched || view.results_end_h + view.history_least_h > room;
  view.controls_folded = !clean && crowded && !view.controls_unfolded.value_or(false);
  const bool hardware_hidden =
      compact || (view.controls_folded && view.results_end_h - view.controls_whole_h + view.controls_folded_h > room);
  view.details_hidden = compact || (hardware_hidden && view.results_end_h - view.controls_whole_h +
                                                            view.controls_folded_h - view.hardware_h >
                                                        room);
  wrapped_text(colour_measured(), T("label.measured_here"));
  float hardware_drawn_h = 0;
  if (!hardware_hidden) {
    const float top = ImGui::GetCursorPosY();
    draw_hardware_lines();
    hardware_drawn_h = view.hardware_h = ImGui::GetCursorPosY() - top;
  }
  ImGui::Separator();

  float controls_drawn_h = 0;
  if (!clean) {
    const float top = ImGui::GetCursorPosY();
    if (view.controls_folded) {
      draw_folded_controls(view);
    } else {
      if (crowded && ImGui::ArrowButton("##fold_real_controls", ImGuiDir_Up)) view.controls_unfolded = false;
      if (crowded) ImGui::SameLine();
      draw_controls(view, now);
    }
    draw_run_buttons(session);
    controls_drawn_h = ImGui::GetCursorPosY() - top;
    (view.controls_folded ? view.controls_folded_h : view.controls_whole_h) = controls_drawn_h;
  }
  draw_pending_run(session);

  const auto status = session.status();
  if (ImGui::BeginTable("results", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                          ImGuiTableFlags_SizingStretchProp)) {
    // The names are never cut; the figures share what is left.
    // The two name columns as wide as what they hold this frame: "cpu-parallel" and "CPU (GL)"
    // left "GPU cpu-tiled"'s estimate short, and at 800x600 the headers and "not chosen" were cut.
    const auto& gpu = session.gpu_result();
    const char* side_names[] = {"CPU", gpu && gpu->software_renderer ? "CPU (GL)" : "GPU"};
    const char* kernel_names[] = {T("run.col_kernel"), c.cpu_kernel.empty() ? T("run.none") : c.cpu_kernel.c_str(),
                                  c.gpu_kernel.empty() ? T("run.none") : c.gpu_kernel.c_str()};
    const auto widest_of = [](const auto& texts) {
      float w = 0;
      for (const char* t : texts) w = std::max(w, ImGui::CalcTextSize(t).x);
      return w;
    };
    const float names_w = widest_of(side_names) + widest_of(kernel_names);
    // The figures the rows hold; a status ("not chosen", "queued") runs on into empty cells.
    const std::optional<kernels::JobResult>* results[2] = {&session.cpu_result(), &session.gpu_result()};
    std::optional<FigureCells> cells[2];  // the CPU's and the GPU's row, where they have figures
    std::vector<float> figures_w(4, 0.0f);
    for (int i = 0; i < 2; ++i) {
      if (!*results[i] || (*results[i])->skipped) continue;
      cells[i] = figure_cells(**results[i]);
      widen_to(figures_w, *cells[i]);
    }
    const auto headers = fitting_headers(names_w, {T("run.col_median_ms"), "GFLOP/s", T("run.col_copy_ms"), T("run.col_check")},
                                         {"ms", "GFLOP/s", T("run.col_copy"), T("run.ok")}, figures_w);
    if (headers.text_scale < 1) ImGui::SetWindowFontScale(headers.text_scale);
    // The fixed columns' widths given, at this frame's text size: left to ImGui they follow the
    // last frame's text, a frame late whenever the size changes (and "GFLOP/s" is cut for it).
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, widest_of(side_names));
    ImGui::TableSetupColumn(T("run.col_kernel"), ImGuiTableColumnFlags_WidthFixed, widest_of(kernel_names));
    // Every figure column after the first as wide as its widest text, at this frame's text size,
    // and the median (first) takes what is left: stretched columns share out a narrow panel by
    // weight, not by what they hold, and cut GFLOP/s (the figure a lecture reads out), or the
    // check column's "정상" at 1280x720 with 1.6x text, by a few pixels.
    std::vector<float> fixed_w(headers.names.size(), 0.0f);
    for (std::size_t i = 1; i < headers.names.size(); ++i) {
      fixed_w[i] = ImGui::CalcTextSize(headers.names[i]).x;
      for (const auto& row : cells)
        if (row) fixed_w[i] = std::max(fixed_w[i], ImGui::CalcTextSize((*row)[i].c_str()).x);
    }
    for (std::size_t i = 0; i < headers.names.size(); ++i)
      ImGui::TableSetupColumn(headers.names[i],
                              (i > 0 ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_None) |
                                  (i < headers.keep ? ImGuiTableColumnFlags_None : ImGuiTableColumnFlags_Disabled),
                              fixed_w[i]);
    ImGui::TableHeadersRow();
    float gap = std::numeric_limits<float>::max();
    // A run on its way (started, queued or due after a control moved) is queued; one estimated
    // too long waits for "Run anyway"; else none was asked for ("--no-run", or cancelled).
    const char* no_result_key = session.busy()                                ? "run.queued"
                                : session.pending_confirmation(ui_language()) ? "run.waiting"
                                                                              : "run.not_run";
    draw_result_row("CPU", *results[0], cells[0], c.cpu_kernel, status, no_result_key, gap);
    draw_result_row("GPU", *results[1], cells[1], c.gpu_kernel, status, no_result_key, gap);
    view.figures_gap = gap == std::numeric_limits<float>::max() ? 0 : gap;
    // The CUDA and OpenGL lines above already say why; the row's tooltip says it in one sentence.
    if (c.gpu_kernel.empty() && view.gpu_default.kernel.empty() && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", why_no_gpu_words(view.gpu_default, ui_language()).c_str());
    ImGui::EndTable();
    if (headers.text_scale < 1) ImGui::SetWindowFontScale(1.0f);
  }
  float details_drawn_h = 0;  // the lines on how each kernel ran, as drawn this frame
  for (const auto* r : {&session.cpu_result(), &session.gpu_result()}) {
    if (!*r) continue;
    // Why a kernel was skipped gives way in a short projected panel, as the hardware lines saying
    // the same did: its row still says "skipped", and the speed sentence below is what the room reads.
    // A failed or wrong run's line never gives way.
    if ((*r)->skipped) {
      if (!compact)
        wrapped_text(colour_error(), TF("run.kernel_skipped", (*r)->kernel, kernels_words(*(*r)->skipped, ui_language())));
    } else if ((*r)->failed) wrapped_text(colour_error(), TF("run.kernel_failed", (*r)->kernel, *(*r)->failed));
    else if (!(*r)->verified)
      wrapped_text(colour_error(), TF("run.kernel_wrong", (*r)->kernel, fmt::format("{:.2e}", (*r)->max_rel_error),
                                       (*r)->checked_elements));
    else if (!(*r)->detail.empty() && !view.details_hidden) {  // how it ran: a detail the compact panel gives up first
      const float top = ImGui::GetCursorPosY();
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      // The BLAS core in the UI language; the other notes are the CUDA runtime's own, as it wrote them.
      const auto words = detail_words((*r)->detail, kernels::blas_core_state(), ui_language());
      text_wrapped((*r)->kernel + ": " + words);
      ImGui::PopStyleColor();
      details_drawn_h += ImGui::GetCursorPosY() - top;
    }
  }

  // What the real CUDA kernel asks of an SM, through the occupancy calculator (this GPU's figures,
  // or the build's for sm_90, as the line says).
  if (!c.gpu_kernel.empty() && !view.details_hidden)
    if (const auto line = resource_line(c.gpu_kernel, c.shape, ui_language())) {
      const float top = ImGui::GetCursorPosY();
      wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), c.gpu_kernel + ": " + *line);
      details_drawn_h += ImGui::GetCursorPosY() - top;
    }
  if (!view.details_hidden) view.details_h = details_drawn_h;

  if (const auto& g = session.gpu_result(); g && g->software_renderer && !g->skipped)
    wrapped_text(colour_error(), TF("run.software_gpu", g->kernel, g->device_name));

  ImGui::Spacing();
  view.sentence_in_view.reset();
  if (const auto& cpu_run = session.cpu_result()) {
    const auto gpu_side = view.comparison();
    const auto sentence = gpu_side ? comparison_speedup_sentence(*gpu_side, *cpu_run, ui_language()) : std::nullopt;
    if (sentence) {
      // Larger than the panel's text, except where a short projected panel would cut it so: step 13
      // with the H200 file at 1280x720 and 2x text ran it 397 px past the bottom. There it is as
      // large as the room left holds, down to 0.8 of the panel's text.
      const ImVec2 avail = ImGui::GetContentRegionAvail();
      float scale = 1.35f;
      while (compact && scale > 0.8f && wrapped_text_size(*sentence, avail.x / scale).y * scale > avail.y) scale -= 0.05f;
      ImGui::SetWindowFontScale(scale);
      wrapped_text(gpu_side->elsewhere ? colour_elsewhere() : colour_measured(), *sentence);
      ImGui::SetWindowFontScale(1.0f);
      view.sentence_in_view = ImGui::GetItemRectMax().y <= ImGui::GetWindowPos().y + ImGui::GetWindowHeight() + 0.5f;
    }
  }
  view.results_end_h = ImGui::GetCursorPosY() - ImGui::GetCursorStartPos().y - controls_drawn_h - hardware_drawn_h -
                       details_drawn_h + (clean ? 0 : view.controls_whole_h) + view.hardware_h + view.details_h;
  draw_elsewhere(view, clean);
  // The history gives way with the hardware lines: in a panel that short it would only be cut.
  if (!hardware_hidden) {
    const float history_top = ImGui::GetCursorPosY();
    ImGui::Separator();
    text_wrapped(T("label.history"));
    constexpr float kHistoryMin = 120, kHistoryMargin = 8;
    view.history_least_h = ImGui::GetCursorPosY() - history_top + kHistoryMin + kHistoryMargin;
    view.full_needed_h = ImGui::GetCursorPosY() - ImGui::GetCursorStartPos().y + kHistoryMin + kHistoryMargin;
    view.label_references(ui_language());
    view.history.draw(std::max(kHistoryMin, ImGui::GetContentRegionAvail().y - kHistoryMargin));
    // Content that grew since the size last changed (a result's lines): compact from the next frame.
    if (view.full_needed_h > room + 1) view.compact = true;
  }
}

}  // namespace ws::app
