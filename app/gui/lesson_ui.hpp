// The parts of the window that belong to lecture mode and presentation: the menu bar, the
// caption panel with its step controls, and the lesson error window.
#pragma once

#include "gui/lesson_player.hpp"
#include "gui/presentation.hpp"
#include "gui/real_run_panel.hpp"
#include "gui/simulation_panel.hpp"

namespace ws::app {

// Returns the menu bar's height.
float draw_menu_bar(Presentation& pres, LessonPlayer& player, RealRunView& real, SimulationPanel& sim,
                    lesson::Language lang);
// The caption as the last frame drew it, for --print-state and exports.
struct RenderedCaption {
  // Placeholders filled, markup stripped: blocks one per line, list items as "• text", no "**".
  // While the simulation a caption quotes is still running it is the "Simulating..." line.
  std::string text;
  int unfilled = 0;      // placeholders that had no value and show as a dash (kMissingValue)
  bool waiting = false;  // the caption waits for the simulation (text is the progress line)
};

// Draws the current step's title, counter, controls and caption; returns how many characters of
// the caption the loaded fonts cannot draw (0 when every glyph is there). `rendered` (when given)
// receives the caption as drawn.
int draw_lesson_caption(LessonPlayer& player, RealRunView& real, SimulationPanel& sim, const Presentation& pres,
                        lesson::Language lang, RenderedCaption* rendered = nullptr);
// A broken lesson file: every diagnostic, and the reassurance that nothing was lost.
void draw_lesson_error(LessonPlayer& player, lesson::Language lang);

}  // namespace ws::app
