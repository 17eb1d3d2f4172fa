// Synthetic key presses for tests and scripted screenshots (--keys). Each press goes through
// the GLFW key callback ImGui installed, exactly like a key on the keyboard, one per frame.
#pragma once

#include <string>
#include <vector>

struct GLFWwindow;

namespace ws::app {

class KeyScript {
 public:
  // "Right,Shift+Right,Space,wait:5,PageDown"; returns an error message or "".
  std::string parse(const std::string& text);
  // Releases the previous press, then presses the next key (or waits). Call once a frame.
  void feed_next(GLFWwindow* window);
  bool finished() const { return next_ >= events_.size() && !holding_; }

 private:
  struct Event {
    int key = 0;       // GLFW key code; 0 for a wait
    bool shift = false, ctrl = false;
    int wait_frames = 0;
  };
  std::vector<Event> events_;
  std::size_t next_ = 0;
  int waiting_ = 0;
  bool holding_ = false;
  Event held_;
};

}  // namespace ws::app
