// Text that must fit a box it cannot grow: cut between words, never inside one. The clipped-text
// check (text_clip_check.hpp) fails a panel that cuts a word; these are how panels avoid it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

struct ImVec2;
struct ImVec4;

namespace ws::app {

// The longest run of whole words from the start of `text` that fits `max_w` pixels in the current
// font, with "…" when words were left out; "" when not even the first word fits.
std::string fit_whole_words(const std::string& text, float max_w);

// `text` broken into lines of whole words no wider than `max_w`; a single word wider than that is
// left out (it could only be shown cut).
std::vector<std::string> wrap_whole_words(const std::string& text, float max_w);
// Whether `lines` (wrap_whole_words of `text`) hold every word of it: none was too wide to keep.
bool keeps_every_word(const std::vector<std::string>& lines, const std::string& text);

// Whether a line must not break between `word` and `next`: a figure and the word or "%" after it
// ("3.18 GFLOP/s", "1 thread", "51.5 %"). The panels' wrapping and the captions' both ask this.
bool figure_and_its_unit(std::string_view word, std::string_view next);

// `text` with a line break at each space where the next word would pass `max_w`, and nowhere else:
// ImGui's own wrapping also breaks after '.' and ',', which splits a figure ("0." / "005561 ms").
// A figure keeps the word or "%" after it on its line ("3.18 GFLOP/s", "51.5 %"), here as in
// fit_whole_words and wrap_whole_words; a word wider than `max_w` keeps a line of its own (ImGui
// then breaks it where it must).
std::string break_at_spaces(const std::string& text, float max_w);

// What every wrapped text of the app is drawn with, and its size: break_at_spaces, then ImGui's
// wrapping only for a word too wide for a line. Measure with wrapped_text_size what is drawn with
// text_wrapped or wrapped_text, so a panel's layout and its drawing agree on the lines.
ImVec2 wrapped_text_size(const std::string& text, float width);
void text_wrapped(const std::string& text);  // ImGui::TextWrapped's place

// `text` in `colour`, wrapped at the window's right edge (over any wrap position pushed), or at
// `wrap_pos_x` (window-local, as ImGui::PushTextWrapPos) when given: for lines of figures or
// reasons that at 2x text do not fit on one.
void wrapped_text(const ImVec4& colour, const std::string& text, float wrap_pos_x = 0.0f);

// A button whose label is `text` on as many lines of whole words as the window's width needs (a
// panel's folded controls, which say what they are set to); `id` keeps it the same button
// whatever it shows. True when clicked.
bool wrapped_button(const std::string& text, const char* id);

}  // namespace ws::app
