// The parts of the window that belong to lecture mode and presentation: the menu bar, the
// caption panel with its step controls, and the lesson error window.
#pragma once

#include "gui/caption_view.hpp"
#include "gui/lesson_player.hpp"
#include "gui/presentation.hpp"
#include "gui/real_run_panel.hpp"
#include "gui/simulation_panel.hpp"

namespace ws::app {

// Opens the lesson at `path` on its first step and switches the window to the lesson's language,
// as every way of opening one does (the Lesson menu, a dropped file). On failure returns false and
// the player keeps what it had, with error() saying why.
bool start_lesson(const std::string& path, LessonPlayer& player, RealRunView& real, SimulationPanel& sim,
                  Presentation& pres);

// Returns the menu bar's height.
float draw_menu_bar(Presentation& pres, LessonPlayer& player, RealRunView& real, SimulationPanel& sim,
                    lesson::Language lang);
// The caption as the last frame drew it, for --print-state and exports.
struct RenderedCaption {
  // Placeholders filled, markup stripped: blocks one per line, list items as "• text", no "**".
  // While the simulation a caption quotes is still running it is the "Simulating..." line.
  std::string text;
  int unfilled = 0;      // placeholders that had no value and show as a dash (kMissingValue)
  bool waiting = false;  // the caption waits for the simulation or a real run (text says which)
};

// The current step's caption with its values filled in, before anything is drawn: the window
// sizes the caption panel from it.
struct CaptionContent {
  std::vector<lesson::CaptionBlock> blocks;
  // Where the facts it quotes come from ("Source: ..."), drawn under it in smaller, dimmer type:
  // on the slide for anyone who wants to check, but not at the back row's size, which it used to
  // take from the text (a step quoting five sources had its text shrink to 19 px at 720 lines).
  std::vector<lesson::CaptionBlock> sources;
  RenderedCaption rendered;
  std::string title;
  std::string glyph_text;  // every character the panel will draw, for the missing-glyph count
};
CaptionContent compose_lesson_caption(LessonPlayer& player, RealRunView& real, SimulationPanel& sim,
                                      lesson::Language lang);

// How the caption fits a panel `panel_w` wide and at most `max_h` high: the panel grows to fit
// its text; when even `max_h` is too little, the text gets smaller rather than a scrollbar.
struct CaptionFit {
  float text_px = 0;     // the caption's font size
  float title_px = 0;    // the step title's
  float sources_px = 0;  // the sources line's (CaptionContent::sources): kSourcesScale of text_px; 0: none
  float panel_h = 0;     // the whole caption window, padding included
};
inline constexpr float kSourcesScale = 0.6f;
CaptionFit fit_lesson_caption(const CaptionContent& content, const Presentation& pres, float panel_w, float max_h,
                              float caption_px);

// Draws the current step's counter, controls, title and caption; returns how many characters of
// the caption the loaded fonts cannot draw (0 when every glyph is there). `caption_lines`, where
// given, gets the caption's lines as drawn, block by block (not its sources line).
int draw_lesson_caption(LessonPlayer& player, RealRunView& real, SimulationPanel& sim, const Presentation& pres,
                        lesson::Language lang, const CaptionContent& content, const CaptionFit& fit,
                        CaptionLines* caption_lines = nullptr);
// A broken lesson file: every diagnostic, and the reassurance that nothing was lost.
void draw_lesson_error(LessonPlayer& player, lesson::Language lang);

}  // namespace ws::app
