// Synthetic key presses for tests and scripted screenshots (--keys). Each press goes through
// the GLFW key callback ImGui installed, exactly like a key on the keyboard, one per frame.
// "resize:WxH" resizes the window through GLFW, as a user dragging its corner (or a projector
// switch) would, down to 1x1. "drop:PATH" drops a file on the window, as from a file manager.
#pragma once

#include <string>
#include <vector>

struct GLFWwindow;

namespace ws::app {

class KeyScript {
 public:
  // "Right,Shift+Right,Space,wait:5,PageDown,resize:40x30,drop:/tmp/h200.json"; returns an error
  // message or "".
  std::string parse(const std::string& text);
  // Releases the previous press, then presses the next key (or waits). Call once a frame.
  void feed_next(GLFWwindow* window);
  bool finished() const { return next_ >= events_.size() && !holding_; }

 private:
  struct Event {
    int key = 0;       // GLFW key code; 0 for a wait
    bool shift = false, ctrl = false;
    int wait_frames = 0;
    int resize_w = 0, resize_h = 0;  // a resize when both are set
    std::string drop_path;           // a drop when set
  };
  std::vector<Event> events_;
  std::size_t next_ = 0;
  int waiting_ = 0;
  bool holding_ = false;
  Event held_;
};

}  // namespace ws::app
