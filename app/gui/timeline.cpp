#include "gui/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include <fmt/format.h>
#include <imgui.h>
#include <GLFW/glfw3.h>

#include "core/sim_refusal_text.hpp"
#include "gui/preset_display_name.hpp"
#include "gui/presentation.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"

namespace ws::app {

std::string finish_caption(const sim::Simulation& s) {
  if (!s.gpu_done()) return {};
  return TF("timeline.finished", fmt::format("{:.4g}", s.cycle_to_ms(s.total_cycles())),
            fmt::format("{:.3g}", 100.0 * s.cpu_progress()));
}

void draw_timeline_controls(SimSession& session, ScrubBarLayout* scrub);

std::string buffer_status(const SimSession& session) {
  const auto percent = static_cast<int>(100.0 * session.simulated_fraction());
  if (const auto target = session.seek_pending()) {
    if (*target <= session.simulated_cycles()) return TF("timeline.seeking", *target);
    return TF("timeline.seeking_simulating", *target, percent);
  }
  // The view holds at its cycle until the anchor resolves: say why, or the still chip looks stuck.
  if (const auto& anchor = session.pending_anchor())
    return TF(anchor->kind == SeekAnchor::Kind::mid_run ? "timeline.waiting_mid_run" : "timeline.waiting_first_issue",
              percent);
  if (session.buffering()) return TF("timeline.buffering", percent);
  return TF("timeline.simulating_to", percent, session.simulated_cycles());
}

static std::int64_t big_step(const SimSession& session) {
  return std::max<std::int64_t>(1, session.total_cycles() / 100);
}

void handle_timeline_keys(SimSession& session, bool arrows_step_cycles) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) session.toggle_play();
  const std::int64_t amount = io.KeyShift ? big_step(session) : 1;
  // While a lesson owns the arrows, ']' and '[' step the clock ('.' is the clicker's blank screen).
  const bool forward = arrows_step_cycles ? ImGui::IsKeyPressed(GLFW_KEY_RIGHT) : ImGui::IsKeyPressed(GLFW_KEY_RIGHT_BRACKET);
  const bool back = arrows_step_cycles ? ImGui::IsKeyPressed(GLFW_KEY_LEFT) : ImGui::IsKeyPressed(GLFW_KEY_LEFT_BRACKET);
  if (forward) session.step(amount);
  if (back) session.step(-amount);
  if (ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) session.restart();
}

namespace {

// The clock's milliseconds keep as many decimals as four significant digits of the longest time
// known (the run's end, or how far it has been simulated), so that the number does not change
// width, and the line its place, from one frame to the next.
std::string clock_text(const sim::Simulation& s, std::int64_t cycle, bool complete, bool with_cycle = true) {
  const double longest_ms = s.cycle_to_ms(complete ? s.total_cycles() : std::max(s.simulated_cycles(), cycle));
  const int decimals = longest_ms > 0 ? std::clamp(3 - static_cast<int>(std::floor(std::log10(longest_ms))), 0, 9) : 4;
  const auto ms = [&](std::int64_t c) { return fmt::format("{:.{}f}", s.cycle_to_ms(c), decimals); };
  const auto mhz = fmt::format("{:.0f}", s.gpu().clock_mhz);
  if (complete) {
    if (!with_cycle) return TF("timeline.ms_of", ms(cycle), ms(s.total_cycles()), mhz);
    return TF("timeline.cycle_of", cycle, s.total_cycles(), ms(cycle), ms(s.total_cycles()), mhz);
  }
  // The end is not known yet: say how far the simulation behind the animation has got.
  if (!with_cycle) return TF("timeline.ms_at", ms(cycle), mhz);
  return TF("timeline.cycle_at", cycle, ms(cycle), mhz);
}

}  // namespace

TimelineText timeline_text(const SimSession& session, bool say_refusal, bool with_scrub_bar) {
  TimelineText t;
  const sim::Simulation* sim = session.simulation();
  if (sim == nullptr) {
    if (session.building()) t.status = T("timeline.simulating");
    else if (say_refusal) t.status = sim_refusal_words(session.error(), ui_language());
    return t;
  }
  const sim::Simulation& s = *sim;
  t.simulated = true;
  t.kernel = TF("timeline.simulated_kernel", gpu_display_name(s.gpu()), sim::to_string(s.config().kernel));
  t.where = clock_text(s, s.cycle(), s.complete());
  const std::int64_t widest_cycle = s.complete() ? s.total_cycles() : std::max(s.simulated_cycles(), s.cycle());
  t.widest = clock_text(s, widest_cycle, s.complete());
  if (with_scrub_bar) {
    t.short_where = clock_text(s, s.cycle(), s.complete(), false);
    t.short_widest = clock_text(s, widest_cycle, s.complete(), false);
  }
  const bool seeking_in_known_run = s.complete() && session.seek_pending();
  if (!s.complete() || seeking_in_known_run) t.status = buffer_status(session);
  if (!seeking_in_known_run) t.finish = finish_caption(s);
  return t;
}

namespace {

// Where the clock goes and in which form, decided on its widest so that it does not jump as the
// cycles count up: beside the kernel's name where it fits there whole; else, where a scrub bar's
// label says the cycle, without the cycle where that fits beside; else on a line of its own,
// whole where one line holds it, without the cycle where that is what one line holds, else
// wrapped. At 1280x720 with 2x text each of the short forms spares the panel a line (42 px).
struct ClockPlace {
  const std::string* text;
  bool beside;
};
ClockPlace clock_place(const TimelineText& t, float width) {
  const float room = width - wrapped_text_size(t.kernel, width).x - ImGui::GetStyle().ItemSpacing.x;
  const float whole = ImGui::CalcTextSize(t.widest.c_str()).x;
  const float short_w = t.short_widest.empty() ? std::numeric_limits<float>::max() : ImGui::CalcTextSize(t.short_widest.c_str()).x;
  if (whole <= room) return {&t.where, true};
  if (short_w <= room) return {&t.short_where, true};
  if (whole > width && short_w <= width) return {&t.short_where, false};
  return {&t.where, false};
}

}  // namespace

float timeline_text_height(const TimelineText& t, float width) {
  // A refusal's reason is wrapped, never cut (a tensor refusal names five presets).
  if (!t.simulated)
    return t.status.empty() ? 0 : wrapped_text_size(t.status, width).y + ImGui::GetStyle().ItemSpacing.y;
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  float h = wrapped_text_size(t.kernel, width).y + spacing;
  if (const ClockPlace clock = clock_place(t, width); !clock.beside) h += wrapped_text_size(*clock.text, width).y + spacing;
  for (const auto* line : {&t.status, &t.finish})
    if (!line->empty()) h += ImGui::GetTextLineHeight() + spacing;
  return h;
}

namespace {

// The scrub bar's label at the run's last cycle ("cycle 361018"): the least width that shows it whole.
float scrub_label_width(const SimSession& session) {
  char label[64];
  std::snprintf(label, sizeof label, T("timeline.cycle_slider"), static_cast<long long>(session.total_cycles()));
  return ImGui::CalcTextSize(label).x + 2 * ImGui::GetStyle().FramePadding.x;
}

float speed_slider_width() { return ImGui::CalcTextSize("10000000").x + 2 * ImGui::GetStyle().FramePadding.x + 20; }

// The four buttons, with the spacing after them.
float timeline_buttons_width() {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float pad = 2 * style.FramePadding.x;
  const float play_w = std::max(ImGui::CalcTextSize(T("control.pause")).x, ImGui::CalcTextSize(T("control.play")).x) + pad;
  float w = 0;
  for (const char* b : {"|<", "<", ">"}) w += ImGui::CalcTextSize(b).x + pad + style.ItemSpacing.x;
  return w + play_w + style.ItemSpacing.x;
}

// The speed slider with its label ("cycles/s"), and the spacing after it.
float speed_control_width() {
  const ImGuiStyle& style = ImGui::GetStyle();
  return speed_slider_width() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(T("timeline.cycles_per_s")).x +
         style.ItemSpacing.x;
}

// Where the timeline's three parts go, decided once for both the room the panel keeps
// (timeline_controls_height) and the drawing, so the two never disagree on the rows. Each part
// goes on a new row where the one before has no room for it whole, rather than a sliver that
// reads "cyc" (the speed's label at 1024x768 with 2x text; the scrub bar at 1280x720 with 2x).
struct TimelineRows {
  bool speed_on_new_row = false;
  bool scrub_on_new_row = false;
  int count() const { return 1 + (speed_on_new_row ? 1 : 0) + (scrub_on_new_row ? 1 : 0); }
};
TimelineRows timeline_rows(const SimSession& session, float width) {
  TimelineRows rows;
  const float buttons = timeline_buttons_width(), speed = speed_control_width();
  rows.speed_on_new_row = buttons + speed > width;
  const float before_scrub = rows.speed_on_new_row ? speed : buttons + speed;
  rows.scrub_on_new_row = width - before_scrub < scrub_label_width(session);
  return rows;
}

}  // namespace

float timeline_controls_height(const SimSession& session, float width) {
  return ImGui::GetFrameHeightWithSpacing() * static_cast<float>(timeline_rows(session, width).count());
}

void draw_timeline(SimSession& session, const TimelineText& t, bool clean, ScrubBarLayout* scrub) {
  if (scrub != nullptr) *scrub = {};
  if (!t.simulated) {
    if (!t.status.empty()) wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), t.status);
    return;
  }
  if (!clean) draw_timeline_controls(session, scrub);
  const float width = ImGui::GetContentRegionAvail().x;
  wrapped_text(colour_simulated(), t.kernel);
  // Never cut: beside the kernel's name or on lines of its own, wrapped.
  if (const ClockPlace clock = clock_place(t, width); clock.beside) {
    ImGui::SameLine();
    ImGui::TextUnformatted(clock.text->c_str());
  } else {
    text_wrapped(*clock.text);
  }
  if (!t.status.empty()) ImGui::TextDisabled("%s", t.status.c_str());
  if (!t.finish.empty()) ImGui::TextColored(colour_simulated(), "%s", t.finish.c_str());
}

void draw_timeline_controls(SimSession& session, ScrubBarLayout* scrub) {
  const TimelineRows rows = timeline_rows(session, ImGui::GetContentRegionAvail().x);
  if (ImGui::Button("|<")) session.restart();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", T("timeline.restart"));
  ImGui::SameLine();
  if (ImGui::Button("<")) session.step(-1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", T("timeline.step_back"));
  ImGui::SameLine();
  // As wide as the longer word in this language, so it does not jump between Play and Pause.
  const float play_w = std::max(ImGui::CalcTextSize(T("control.pause")).x, ImGui::CalcTextSize(T("control.play")).x) +
                       2 * ImGui::GetStyle().FramePadding.x;
  if (ImGui::Button(session.playing() ? T("control.pause") : T("control.play"), ImVec2(play_w, 0))) session.toggle_play();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Space");
  ImGui::SameLine();
  if (ImGui::Button(">")) session.step(1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", T("timeline.step_forward"));
  if (!rows.speed_on_new_row) ImGui::SameLine();
  float speed = static_cast<float>(session.speed());
  ImGui::SetNextItemWidth(speed_slider_width());
  if (ImGui::SliderFloat(T("timeline.cycles_per_s"), &speed, 1.0f, 1e7f, "%.0f", ImGuiSliderFlags_Logarithmic))
    session.set_speed(speed);
  if (!rows.scrub_on_new_row) ImGui::SameLine();
  long long cycle = session.cycle();
  const long long lo = 0, hi = session.total_cycles();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderScalar("##cycle", ImGuiDataType_S64, &cycle, &lo, &hi, T("timeline.cycle_slider"))) session.seek(cycle);
  // Like a video player's buffer bar: the part of the timeline that has been simulated.
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  if (scrub != nullptr) *scrub = {a.x, a.y, b.x - a.x, b.y - a.y, scrub_label_width(session)};
  const double have = hi > 0 ? std::min(1.0, static_cast<double>(session.simulated_cycles()) / static_cast<double>(hi)) : 1.0;
  const float bar = std::max(2.0f, (b.y - a.y) * 0.15f);
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(a.x, b.y - bar), ImVec2(a.x + static_cast<float>((b.x - a.x) * have), b.y),
                                            ImGui::GetColorU32(colour_simulated()));
}

}  // namespace ws::app
