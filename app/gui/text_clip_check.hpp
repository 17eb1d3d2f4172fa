// Finds text that its container cuts off. Every string ImGui draws (widgets and our own views
// alike) goes through ImDrawList::AddText; the warpscope binary links that function wrapped
// (-Wl,--wrap, see app/CMakeLists.txt), so each text's extent is compared with the clip rectangle
// it is drawn into, and the panel it belongs to is recorded. `--print-state` reports the result,
// and every text drawn (`drawn`), which the Korean UI test reads for strings left in English.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ws::app {

struct ClippedText {
  std::string panel;  // the top-level window's name, as its title bar shows it
  std::string text;   // what was cut
};

struct ClipReport {
  std::vector<ClippedText> texts;
  // Every non-blank text a panel drew in the frame, clipped or not, once per panel and text.
  std::vector<ClippedText> drawn;
  // Regions (panels and their child regions) whose content was taller than their room, so that
  // they scrolled: fine under a user's mouse, but on a projected picture part of them is out of
  // sight, a line may show half, and the text check above lets that pass. `text` says by how much.
  std::vector<ClippedText> scrolling;
  std::map<std::string, int> by_panel() const;
};

// Brackets one frame: the report of the last finished frame stays readable until the next end.
void clip_check_begin_frame();
void clip_check_end_frame();
const ClipReport& clip_check_last_frame();

// False when the binary was linked without the wrap (the check then sees nothing, and says so).
bool clip_check_linked();

}  // namespace ws::app
