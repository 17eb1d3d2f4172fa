// Lesson captions drawn with ImGui: paragraphs and list items, word-wrapped, with **bold** spans
// in the bold face. ImGui has no rich text, so words are placed one by one.
#pragma once

#include <vector>

#include "lesson/lesson.hpp"

struct ImFont;

namespace ws::app {

void draw_caption_blocks(const std::vector<lesson::CaptionBlock>& blocks, ImFont* regular, ImFont* bold,
                         float wrap_width);

}  // namespace ws::app
