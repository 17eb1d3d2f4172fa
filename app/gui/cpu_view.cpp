#include "gui/cpu_view.hpp"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/lane_texels.hpp"
#include "core/measured_text.hpp"
#include "gui/preset_display_name.hpp"
#include "gui/presentation.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"
#include "lesson/i18n.hpp"
#include "warpscope/sim/cpu_prediction.hpp"

namespace ws::app {

namespace {

// Written and read on the GUI thread only (on_result fires from RealRunSession::update).
struct RealCpuRuns {
  kernels::Shape shape{1024, 1024, 1024};  // of the latest real CPU run; 1024³ before any
  std::optional<double> naive_gflops;      // verified 1-thread cpu-naive at `shape`, if measured
};
RealCpuRuns& real_cpu_runs() {
  static RealCpuRuns runs;
  return runs;
}

bool same_shape(const kernels::Shape& a, const kernels::Shape& b) { return a.m == b.m && a.n == b.n && a.k == b.k; }

// The prediction takes milliseconds: once per preset and shape, not once a frame.
double model_gflops(const sim::CpuPreset& cpu, const kernels::Shape& s) {
  static std::map<std::tuple<std::string, int, int, int>, double> cache;
  const auto key = std::make_tuple(cpu.id + "|" + cpu.name, s.m, s.n, s.k);
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  const double g = sim::predict_cpu_naive(cpu, s.m, s.n, s.k, 1).gflops;
  if (cache.size() > 64) cache.clear();
  cache.emplace(key, g);
  return g;
}

std::string gflops_text(double g) { return fmt::format("{:.{}f}", g, g < 10 ? 2 : 1); }

// A smart part named in as many words as fit its box; a first word longer than the box is cut
// after one of its hyphens ("out-of-…"), where English breaks such a word anyway. With no room
// even for that it is "": the part is left out. It was drawn as an empty box on eight narrow
// cards ("out-of-order window" at 1080 lines): a frame with nothing in it reads as a missing part.
std::string part_in_room(const std::string& part, float max_w) {
  if (auto fitted = fit_whole_words(part, max_w); !fitted.empty()) return fitted;
  const std::string first = part.substr(0, part.find(' '));
  for (auto cut = first.rfind('-'); cut != std::string::npos && cut > 0; cut = first.rfind('-', cut - 1)) {
    const std::string candidate = first.substr(0, cut + 1) + "\xE2\x80\xA6";
    if (ImGui::CalcTextSize(candidate.c_str()).x <= max_w) return candidate;
  }
  return "";
}
}  // namespace

void note_real_cpu_result(const kernels::JobResult& r) {
  if (r.device != kernels::Device::cpu || r.skipped || r.cancelled) return;
  auto& runs = real_cpu_runs();
  if (!same_shape(runs.shape, r.shape)) runs.naive_gflops.reset();
  runs.shape = r.shape;
  if (r.kernel == "cpu-naive" && r.threads == 1 && r.verified && r.gflops > 0) runs.naive_gflops = r.gflops;
}

std::string model_vs_measured_line(const sim::CpuPreset& cpu, lesson::Language lang, bool brief) {
  if (cpu.id != "this-machine") return {};
  const auto& runs = real_cpu_runs();
  const std::string shape = format_shape(runs.shape);
  const std::string model = gflops_text(model_gflops(cpu, runs.shape));
  if (brief)
    return runs.naive_gflops ? lesson::trf("cpu.model_measured_brief", lang, model, gflops_text(*runs.naive_gflops))
                             : lesson::trf("cpu.model_only_brief", lang, model);
  if (runs.naive_gflops)
    return lesson::trf("cpu.model_measured", lang, model, gflops_text(*runs.naive_gflops), shape);
  return lesson::trf("cpu.model_only", lang, model, shape) + "; " + lesson::trf("cpu.measure_hint", lang, shape);
}

namespace {

int card_columns(int cores) { return cores <= 2 ? cores : cores <= 4 ? 2 : 4; }

int card_rows(int cores) { return (cores + card_columns(cores) - 1) / std::max(1, card_columns(cores)); }

constexpr float kCardGap = 6;

float cards_min_height(int rows) { return rows * (2 * ImGui::GetTextLineHeight() + 10) + kCardGap * (rows - 1); }

// Cards with room for their name, the cell in fewer words over two lines ("C[0][26]:" /
// "k 225/1024", as it wraps at 2x text) and its bar: what the layout gives the cores before the
// hint to click, and before the matrix when stacked above it.
float cards_layout_height(int rows) {
  return rows * (3 * ImGui::GetTextLineHeight() + 19) + kCardGap * (rows - 1);
}

// The smallest the parts are drawn, against the text: at 2x text still larger than 1x.
constexpr float kSmallestPartScale = 0.65f;

// A card short of room names its four parts smaller and before its cell, in this height: its
// name, the parts at their smallest, one line each, and its bar.
float card_parts_height() {
  const float line = ImGui::GetTextLineHeight();
  return 4 + line + 1 + 4 * (kSmallestPartScale * line + 5) + 2 + 8;
}

// The room a grid card keeps below its parts: its cell over two lines, its bar, its cells done
// over three lines and its cache hits.
float lines_below_parts(float line) { return 7 * (line + 1) + 10; }

using PartLines = std::vector<std::vector<std::string>>;

// Each part wrapped between its words at `width`, and the height they take at the current text
// size (5 px after each part); none where a word is wider than `width` and would be left out
// ("window" alone for "out-of-order window").
std::optional<std::pair<PartLines, float>> wrap_parts(const std::string (&forms)[4], float width) {
  PartLines lines;
  float height = 0;
  for (const auto& part : forms) {
    lines.push_back(wrap_whole_words(part, width));
    if (!keeps_every_word(lines.back(), part)) return std::nullopt;
    height += lines.back().size() * ImGui::GetTextLineHeight() + 5;
  }
  return std::pair{std::move(lines), height};
}

// The height a line above the cards takes wrapped at `width`, with the spacing after it; none for
// no line.
float wrapped_height(const std::string& text, float width) {
  return text.empty() ? 0.0f
                      : wrapped_text_size(text, width).y + ImGui::GetStyle().ItemSpacing.y;
}

}  // namespace

float cpu_view_min_height(const SimSession& session, float width) {
  const sim::Simulation* s = session.simulation();
  if (!s) return 0;
  return wrapped_height(TF("label.simulated", cpu_display_name(s->cpu())), width) +
         wrapped_height(model_vs_measured_line(s->cpu(), ui_language(), true), width) +
         cards_layout_height(card_rows(s->cpu_core_count()));
}

int draw_cpu_view(const SimSession& session, ImVec2 size, int selected_core, CpuViewShown* shown, ImFont* large_font,
                  bool cores_first) {
  int clicked = -1;
  if (shown) *shown = {};
  const sim::Simulation* s = session.simulation();
  if (!s) {
    ImGui::BeginChild("cpu_view", size, false);
    ImGui::EndChild();
    return clicked;
  }
  const auto& cpu = s->cpu();
  const int cores = s->cpu_core_count();
  const int cols = card_columns(cores);
  const int rows = card_rows(cores);
  const float gap = kCardGap;
  // The lines above the cards, wrapped (at 2x text the panel is narrower than any of them). The
  // cards come first: where all lines would leave them less than a name and a line each (a short
  // panel, large text), the note on how many cores are shown gives way, then the model's figure
  // (in fewer words first); the label that says these cores are simulated always stays.
  // The label names the cores' model; where that leaves the cards less than a name and a line
  // (2x text on 720 lines: "simulated: This machine: Intel Xeon Processor" took three lines and
  // left the cards a sliver), it says only whose cores these are: the real-run panel names the
  // model, and a named preset keeps its short name.
  const std::string label_whole = TF("label.simulated", cpu_display_name(cpu));
  const std::string label_brief =
      TF("label.simulated", cpu.id == "this-machine" ? std::string(T("label.this_machine")) : cpu.sentence_name());
  const std::string shown_note =
      cpu.cores == 1 ? std::string(T("cpu.core_shown_one")) : TF("cpu.cores_shown", cores, cpu.cores);
  const std::string model_whole = model_vs_measured_line(cpu, ui_language());
  const std::string model_brief = model_vs_measured_line(cpu, ui_language(), true);
  const float width = size.x;  // the child has no padding
  const auto wrapped_h = [&](const std::string& t) { return wrapped_height(t, width); };
  const std::string& label = size.y - wrapped_h(label_whole) >= cards_min_height(rows) ? label_whole : label_brief;
  const float room = size.y - wrapped_h(label);
  // The model's line whole where the cards keep room for their cell over two lines, else in
  // fewer words; where neither does, the one that leaves the cards a name and a line. With the
  // cores the subject, their parts come first: where the whole line would leave the cards no room
  // to name them and the line in fewer words, or none, would (the first lesson step at 2x text on
  // 720 lines, whose caption names branch prediction, out-of-order execution and caches), the
  // line gives way. Eight cards need the room for the one up close only.
  std::string model_line;
  bool show_model = false;
  const float parts_h = cores >= 4 ? card_parts_height() : rows * card_parts_height() + gap * (rows - 1);
  bool model_chosen = false;
  if (cores_first && room - wrapped_h(model_whole) < parts_h) {
    if (!model_brief.empty() && room - wrapped_h(model_brief) >= parts_h) {
      model_line = model_brief;
      show_model = model_chosen = true;
    } else if (room >= parts_h) {
      model_chosen = true;  // no line
    }
  }
  for (const float cards_h : {cards_layout_height(rows), cards_min_height(rows)}) {
    for (const std::string* t : {&model_whole, &model_brief}) {
      if (!model_chosen && !show_model && room - wrapped_h(*t) >= cards_h) {
        model_line = *t;
        show_model = true;
      }
    }
  }
  const bool show_shown = show_model && room - wrapped_h(model_line) - wrapped_h(shown_note) >= cards_layout_height(rows);
  // The cards take whatever room the lines leave, down to a pixel each: the content is this tall
  // this frame. Told to ImGui up front, since it would otherwise judge the scroll bar by the last
  // frame's content and show one for a frame each time the panel shrinks.
  const float lines_h = wrapped_h(label) + (show_shown ? wrapped_h(shown_note) : 0) + (show_model ? wrapped_h(model_line) : 0);
  ImGui::SetNextWindowContentSize(ImVec2(0.0f, std::max(size.y, lines_h + rows + gap * (rows - 1))));
  // Scrolls rather than cuts: at 2x text in a short panel the wrapped lines above the cards can
  // be taller than the room.
  ImGui::BeginChild("cpu_view", size, false);
  wrapped_text(colour_simulated(), label);
  if (show_shown) wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), shown_note);
  // The model's speed for the real cpu-naive (one core) beside the measured one, each labelled.
  if (show_model && !model_line.empty()) {
    const bool measured = real_cpu_runs().naive_gflops.has_value();
    wrapped_text(measured ? colour_measured() : colour_simulated(), model_line);
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // A window shrunk to a few pixels leaves no width: ImGui asserts on a zero-sized button.
  const float grid_w = std::max(1.0f, (avail.x - gap * (cols - 1)) / std::max(1, cols));
  // As tall as the room left, however little: a taller card would run out of a panel that cannot
  // scroll (the lines that do not fit are left out whole, see text() below).
  const float grid_h = std::max(1.0f, (avail.y - gap * (rows - 1)) / std::max(1, rows));
  // The smart parts, each on a line of its own inside the card where it has the room.
  const std::string parts[4] = {T("cpu.branch_predictor"), T("cpu.ooo_window"),
                                TF("cpu.caches", cpu.l1d_kb, cpu.l2_kb, fmt::format("{:g}", cpu.l3_mb)),
                                TF("cpu.simd_unit", cpu.simd_isa, cpu.fp32_lanes)};
  const std::string parts_brief[4] = {T("cpu.branch_predictor"), T("cpu.ooo_window_brief"), T("cpu.caches_brief"),
                                      TF("cpu.simd_unit_brief", cpu.fp32_lanes)};
  // Eight cards in a short panel (2x text: on 720 lines, and on 1080 beside a wide chip) left each
  // a name and a bar, so no card showed what makes a core smart, the very point of the step on
  // where a CPU's transistors go. There core 0 stands tall on the panel's left with its parts, the
  // others small beside it: one core up close, the rest to count.
  const float ui_line = ImGui::GetTextLineHeight();
  // The others in as few columns as leave each row a number and a bar.
  const int others = cores - 1;
  const auto rows_of = [&](int columns) { return std::max(1, (others + columns - 1) / columns); };
  const auto row_height = [&](int columns) { return (avail.y - gap * (rows_of(columns) - 1)) / rows_of(columns); };
  int other_cols = 1;
  while (other_cols < 4 && row_height(other_cols) < ui_line + 16) ++other_cols;
  const int other_rows = rows_of(other_cols);
  const float others_w = std::max((avail.x - gap) * 0.42f, other_cols * (ui_line * 1.5f + 16) + gap * (other_cols - 1));
  const float focus_w = std::floor(avail.x - gap - others_w);
  // Up close where the grid's cards cannot name every part whole or in its short form (below):
  // at 1280x720 with 1x text the eight cards read "branch…", "out-of-…", "caches…", "SIMD…".
  const auto grid_names_parts = [&] {
    if (grid_h <= ui_line * 9) return false;
    const auto brief = wrap_parts(parts_brief, grid_w - 24);
    return brief && 4 + ui_line + 1 + brief->second + lines_below_parts(ui_line) <= grid_h;  // under the name
  };
  const bool focus = cores >= 4 && !grid_names_parts() && avail.y >= card_parts_height() && focus_w >= ui_line * 6;
  const float other_w = std::max(1.0f, (others_w - gap * (other_cols - 1)) / other_cols);
  const float other_h = std::max(1.0f, (avail.y - gap * (other_rows - 1)) / std::max(1, other_rows));
  const auto card_rect = [&](int core, ImVec2 start) -> std::pair<ImVec2, ImVec2> {
    if (!focus) {
      const ImVec2 a(start.x + (core % cols) * (grid_w + gap), start.y + (core / cols) * (grid_h + gap));
      return {a, ImVec2(a.x + grid_w, a.y + grid_h)};
    }
    if (core == 0) return {start, ImVec2(start.x + focus_w, start.y + std::max(1.0f, avail.y))};
    const int i = core - 1;
    const ImVec2 a(start.x + focus_w + gap + (i % other_cols) * (other_w + gap), start.y + (i / other_cols) * (other_h + gap));
    return {a, ImVec2(a.x + other_w, a.y + other_h)};
  };
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const auto owners = owner_palette();
  // Few cores in a tall panel (the first lesson step: two cards of about 500 x 750 px on a
  // 1080-line projector) left each card's text in its top fifth at the text size: the cards' text
  // grows, up to 1.6x, while every part and the longest cell line still fit the card's width on
  // one line and the card's whole content (about 15 lines) its height. The fitting below then
  // works at that size.
  const float card_scale = [&] {
    // The widest cell line the model can show: every figure at the matrices' largest side.
    const int side = std::max({s->config().shape.m, s->config().shape.n, s->config().shape.k});
    float widest = ImGui::CalcTextSize((TF("cpu.cell_at", side, side) + " " + TF("cpu.cell_k_of", side, side)).c_str()).x;
    for (const auto& part : parts) widest = std::max(widest, ImGui::CalcTextSize(part.c_str()).x);
    // 4 % to spare: a larger raster's glyphs are not exactly proportional.
    const float by_width = (grid_w - 24) / std::max(1.0f, widest * 1.04f);
    const float by_height = grid_h / (15 * ImGui::GetTextLineHeight());
    return focus ? 1.0f : std::clamp(std::min(by_width, by_height), 1.0f, 1.6f);
  }();
  if (shown) shown->card_text_scale = card_scale;
  const float ui_px = ImGui::GetFontSize();
  const bool in_large_font = card_scale > 1.05f && large_font != nullptr && large_font->FontSize >= ui_px * card_scale * 0.9f;
  if (in_large_font) {
    ImGui::PushFont(large_font);
    ImGui::SetWindowFontScale(card_scale * ui_px / large_font->FontSize);
  } else if (card_scale != 1.0f) {
    ImGui::SetWindowFontScale(card_scale);
  }
  const float line = ImGui::GetTextLineHeight();
  for (int core = 0; core < cores; ++core) {
    const auto info = s->cpu_core(core);
    const auto [a, b] = card_rect(core, start);
    const float box_w = b.x - a.x, box_h = b.y - a.y;
    // Seen: the card's top is in view (not scrolled away) and its name is drawn below.
    const bool in_view = a.y >= dl->GetClipRectMin().y - 0.5f;
    const auto& o = owners[1 + core % kOwnerColours];
    const ImU32 edge = ImGui::ColorConvertFloat4ToU32(ImVec4(o.r, o.g, o.b, 1));
    dl->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg), 6);
    dl->AddRect(a, b, edge, 6, 0, core == selected_core ? 3.0f : 1.5f);
    ImGui::SetCursorScreenPos(a);
    if (ImGui::InvisibleButton(fmt::format("core{}", core).c_str(), ImVec2(box_w, box_h))) clicked = core;
    dl->PushClipRect(a, b, true);
    // A card taller than the panel (large text, little room) is cut by the panel: lines below
    // what shows are left out rather than drawn half.
    const float bottom = std::min(b.y, dl->GetClipRectMax().y);
    float y = a.y + 4;
    // Wrapped between words inside the card; a line with no room left below is dropped whole.
    // A text cut short ends in "…" on its last line shown, so "k 23 of" never reads as whole; one
    // word and "…" ("cell…" on a card with room for one line) says nothing and is left out.
    auto text = [&](ImU32 colour, const std::string& t) {
      const auto lines = wrap_whole_words(t, box_w - 16);
      for (std::size_t i = 0; i < lines.size(); ++i) {
        if (y + line > bottom - 2) return;
        const bool last_shown = i + 1 < lines.size() && y + 2 * line + 1 > bottom - 2;
        std::string shown = lines[i];
        if (last_shown) {
          std::string rest = lines[i];
          for (std::size_t j = i + 1; j < lines.size(); ++j) rest += " " + lines[j];
          if (auto fitted = fit_whole_words(rest, box_w - 16); !fitted.empty()) shown = std::move(fitted);
          if (i == 0 && shown.find(' ') == std::string::npos) return;
        }
        dl->AddText(ImVec2(a.x + 8, y), colour, shown.c_str());
        y += line + 1;
      }
    };
    const ImU32 fg = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    // A card too narrow for "Core 12" (many cores, large text) is named by its number alone.
    const std::string name = TF("cpu.core", core);
    const bool name_fits = ImGui::CalcTextSize(name.c_str()).x <= box_w - 16;
    const bool card_visible = in_view && y + line <= bottom - 2 && a.y + 4 + line <= b.y;
    if (shown && card_visible) ++shown->cards_visible;
    text(edge, name_fits ? name : std::to_string(core));
    // Up close: the card for core 0 beside the others, or, with the cores the subject, a card too
    // short for its parts above its cell but tall enough for them small (the first step's two
    // cards on 720 lines at 2x text). Beside the chip a short card keeps its cell instead.
    const bool focus_card = (focus && core == 0) || (cores_first && !focus && card_scale == 1 &&
                                                     box_h <= line * 9 && box_h >= card_parts_height());
    if (box_h > line * 9 || focus_card) {
      // The parts that make a core "smart": each costs transistors a GPU lane does not have.
      // Named whole, wrapped onto as many lines as each needs, where the card has the room (the
      // lines below need up to seven); else each in its short form ("caches: L1, L2, L3"), wrapped;
      // else each on one line, cut short after whole words or a hyphen, never half a word. At
      // 1080 lines the eight cards had read "branch…", "out-of-…", "caches: L1…".
      // The card up close is there for its parts: they come before its cell (a line and the bar
      // kept below them where they can), and are drawn down to 65 % of the text size where
      // that names them whole rather than short.
      const float below = focus_card ? line * 0.8f + 12 : lines_below_parts(line);
      const float part_w = box_w - 24;
      const auto wrapped = [&](const std::string (&forms)[4], float room) -> std::optional<PartLines> {
        auto w = wrap_parts(forms, part_w);
        if (!w || y + w->second + room > bottom) return std::nullopt;
        return std::move(w->first);
      };
      std::optional<PartLines> part_lines;
      const float scales_up_close[] = {1.0f, 0.9f, 0.8f, 0.7f, kSmallestPartScale};
      const std::span<const float> scales = focus_card ? std::span<const float>(scales_up_close) : std::span<const float>(scales_up_close, 1);
      // Up close the parts may take the cell's line too, the bar alone kept below them: larger
      // parts without the cell rather than smaller ones with it (the cell's line comes back
      // wherever it still fits below them).
      const float rooms_up_close[] = {below, 8.0f};
      const std::span<const float> rooms = focus_card ? std::span<const float>(rooms_up_close) : std::span<const float>(rooms_up_close, 1);
      for (const float scale : scales) {
        for (const float room : rooms) {
          if (part_lines) break;
          if (focus_card) ImGui::SetWindowFontScale(scale);  // card_scale is 1 up close
          part_lines = wrapped(parts, room);
          if (!part_lines) part_lines = wrapped(parts_brief, room);
        }
      }
      std::array<bool, 4> cut{};
      if (!part_lines) {
        part_lines.emplace();
        for (int i = 0; i < 4; ++i) {
          if (ImGui::CalcTextSize(parts[i].c_str()).x <= part_w) {
            part_lines->push_back({parts[i]});
          } else if (ImGui::CalcTextSize(parts_brief[i].c_str()).x <= part_w) {
            part_lines->push_back({parts_brief[i]});
          } else {
            part_lines->push_back({part_in_room(parts_brief[i], part_w)});
            cut[i] = true;
          }
        }
      }
      const float part_line = ImGui::GetTextLineHeight();  // smaller up close
      for (std::size_t p = 0; p < part_lines->size(); ++p) {
        auto& lines = (*part_lines)[p];
        std::erase(lines, std::string());
        if (lines.empty()) continue;
        const float h = lines.size() * part_line;
        if (y + h + 2 > bottom) break;
        if (shown && card_visible) {
          ++shown->parts_named;
          if (cut[p]) ++shown->parts_cut;
        }
        dl->AddRect(ImVec2(a.x + 8, y), ImVec2(b.x - 8, y + h + 2), dim, 3);
        for (std::size_t i = 0; i < lines.size(); ++i)
          dl->AddText(ImVec2(a.x + 12, y + 1 + i * part_line), dim, lines[i].c_str());
        y += h + 5;
      }
      y += 2;
      if (focus_card) ImGui::SetWindowFontScale(1.0f);
    }
    // Where a line would be cut, the same figures in fewer words; where even those would be cut,
    // nothing: "k 225 of…" or "0 of…" on a short card at large text said less than no line.
    // Lines as they are, at `scale` times the text size: each within the card's width and all of
    // them in the room left below y.
    ImFont* font = ImGui::GetFont();
    const auto fits_lines = [&](const std::vector<std::string>& lines, float scale) {
      const float size = ImGui::GetFontSize() * scale;
      for (const auto& l : lines)
        if (font->CalcTextSizeA(size, FLT_MAX, 0.0f, l.c_str()).x > box_w - 16) return false;
      return y + (lines.size() - 1) * (line * scale + 1) + line * scale <= bottom - 2;
    };
    // A sentence wrapped between its words, none left out.
    const auto fits_whole = [&](const std::string& t) {
      const auto lines = wrap_whole_words(t, box_w - 16);
      return keeps_every_word(lines, t) && fits_lines(lines, 1);
    };
    const auto first_whole = [&](const auto& forms) -> int {
      for (int i = 0; i < static_cast<int>(std::size(forms)); ++i)
        if (fits_whole(forms[i])) return i;
      return -1;
    };
    if (info.row >= 0) {
      // The cell line breaks only where chosen, so "k" stays with its figures: the sentence on
      // one line or at its colon, then the same in fewer words, then the k figures alone.
      const std::string at = TF("cpu.cell_at", info.row, info.col), k_of = TF("cpu.cell_k_of", info.k_done, info.k_total);
      const std::string cell = TF("cpu.cell_name", info.row, info.col), k = TF("cpu.cell_k", info.k_done, info.k_total);
      const std::vector<std::string> forms[] = {{at + " " + k_of}, {at, k_of}, {cell + ": " + k}, {cell, k}, {k}};
      struct Try {
        int form;
        float scale;
      };
      // Last, the cell's two lines at four fifths of the text size, then two thirds, where a
      // narrow card at 2x text has no room for "k 241/1024" (the figures smaller rather than not at
      // all: two cards 146 px wide beside the chip at 1280x720 were a name and a bar, 140 px tall).
      constexpr Try kTries[] = {{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {3, 0.8f}, {4, 0.8f}, {3, 0.65f}, {4, 0.65f}};
      int form = -1;
      float scale = 1;
      for (const Try& t : kTries) {
        if (fits_lines(forms[t.form], t.scale)) {
          form = t.form;
          scale = t.scale;
          break;
        }
      }
      if (shown && card_visible && form >= 0 && form < 4) ++shown->cells_whole;
      if (form >= 0) {
        for (const auto& l : forms[form]) {
          dl->AddText(font, ImGui::GetFontSize() * scale, ImVec2(a.x + 8, y), fg, l.c_str());
          y += line * scale + 1;
        }
      }
      const float frac = info.k_total ? float(info.k_done) / info.k_total : 0;
      dl->AddRectFilled(ImVec2(a.x + 8, y), ImVec2(b.x - 8, y + 6), ImGui::GetColorU32(ImGuiCol_Border), 2);
      dl->AddRectFilled(ImVec2(a.x + 8, y), ImVec2(a.x + 8 + (box_w - 16) * frac, y + 6), edge, 2);
      y += 10;
    } else {
      text(fg, T("cpu.finished"));
    }
    const std::string cells[] = {
        TF("cpu.cells", info.cells_done, info.cells_assigned, fmt::format("{:.2f}", 100 * info.progress)),
        TF("cpu.cells_brief", info.cells_done, info.cells_assigned)};
    if (const int form = first_whole(cells); form >= 0) text(dim, cells[form]);
    const auto accesses = info.l1_hits + info.l2_hits + info.l3_hits + info.dram_accesses;
    if (accesses > 0 && box_h > line * 5) {
      const std::string hits = TF("cpu.hits", fmt::format("{:.0f}", 100.0 * info.l1_hits / accesses),
                                  fmt::format("{:.1f}", 100.0 * info.dram_accesses / accesses));
      if (fits_whole(hits)) text(dim, hits);
    }
    dl->PopClipRect();
  }
  ImGui::SetWindowFontScale(1.0f);
  if (in_large_font) ImGui::PopFont();
  ImGui::EndChild();
  return clicked;
}

}  // namespace ws::app
