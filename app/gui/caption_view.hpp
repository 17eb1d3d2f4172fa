// Lesson captions drawn with ImGui: paragraphs and list items, word-wrapped, with **bold** spans
// in the bold face. ImGui has no rich text, so words are placed one by one.
#pragma once

#include <string>
#include <vector>

#include "lesson/lesson.hpp"

struct ImFont;

namespace ws::app {

// Draws at the cursor at `font_px` (the faces may be rasterised at another size) and advances the
// cursor past the text; `lines`, where given, gets each block's lines as drawn.
using CaptionLines = std::vector<std::vector<std::string>>;
void draw_caption_blocks(const std::vector<lesson::CaptionBlock>& blocks, ImFont* regular, ImFont* bold,
                         float font_px, float wrap_width, CaptionLines* lines = nullptr);
// The height draw_caption_blocks would take, without drawing: the caption panel is sized from it.
float caption_blocks_height(const std::vector<lesson::CaptionBlock>& blocks, ImFont* regular, ImFont* bold,
                            float font_px, float wrap_width);

}  // namespace ws::app
