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
// Draws the current step's title, counter, controls and caption; returns how many characters of
// the caption the loaded fonts cannot draw (0 when every glyph is there).
int draw_lesson_caption(LessonPlayer& player, RealRunView& real, SimulationPanel& sim, const Presentation& pres,
                        lesson::Language lang);
// A broken lesson file: every diagnostic, and the reassurance that nothing was lost.
void draw_lesson_error(LessonPlayer& player, lesson::Language lang);

}  // namespace ws::app
