#include "gui/key_script.hpp"

#include <map>
#include <stdexcept>
#include <sstream>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>

#include "gui/dropped_files.hpp"

namespace ws::app {

namespace {

const std::map<std::string, int>& key_names() {
  static const std::map<std::string, int> names = {
      {"Right", GLFW_KEY_RIGHT}, {"Left", GLFW_KEY_LEFT},     {"Up", GLFW_KEY_UP},
      {"Down", GLFW_KEY_DOWN},   {"Space", GLFW_KEY_SPACE},   {"Home", GLFW_KEY_HOME},
      {"End", GLFW_KEY_END},     {"PageDown", GLFW_KEY_PAGE_DOWN}, {"PageUp", GLFW_KEY_PAGE_UP},
      {"F11", GLFW_KEY_F11},     {"F12", GLFW_KEY_F12},       {"Escape", GLFW_KEY_ESCAPE},
      {"Period", GLFW_KEY_PERIOD}, {"Comma", GLFW_KEY_COMMA}, {"Equal", GLFW_KEY_EQUAL},
      {"Minus", GLFW_KEY_MINUS}, {"0", GLFW_KEY_0},           {"C", GLFW_KEY_C},
      {"L", GLFW_KEY_L},         {"R", GLFW_KEY_R},           {"T", GLFW_KEY_T},
      {"G", GLFW_KEY_G},        {"P", GLFW_KEY_P},           {"B", GLFW_KEY_B},
      {"F5", GLFW_KEY_F5},      {"LeftBracket", GLFW_KEY_LEFT_BRACKET}, {"RightBracket", GLFW_KEY_RIGHT_BRACKET}};
  return names;
}

void send(GLFWwindow* window, int key, int action) {
  ImGui_ImplGlfw_KeyCallback(window, key, glfwGetKeyScancode(key), action, 0);
}

}  // namespace

std::string KeyScript::parse(const std::string& text) {
  events_.clear();
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    Event e;
    if (item.rfind("resize:", 0) == 0) {
      const auto x = item.find('x', 7);
      try {
        if (x == std::string::npos) throw std::invalid_argument("no x");
        std::size_t used_w = 0, used_h = 0;
        e.resize_w = std::stoi(item.substr(7, x - 7), &used_w);
        e.resize_h = std::stoi(item.substr(x + 1), &used_h);
        if (used_w != x - 7 || used_h != item.size() - x - 1) throw std::invalid_argument("trailing text");
      } catch (...) {
        return "bad resize '" + item + "': want resize:WxH";
      }
      if (e.resize_w < 1 || e.resize_h < 1 || e.resize_w > 7680 || e.resize_h > 4320)
        return "bad resize '" + item + "': each side 1..7680x4320";
      events_.push_back(e);
      continue;
    }
    if (item.rfind("drop:", 0) == 0) {
      e.drop_path = item.substr(5);
      if (e.drop_path.empty()) return "bad drop '" + item + "': want drop:PATH";
      events_.push_back(e);
      continue;
    }
    if (item.rfind("wait:", 0) == 0) {
      try {
        e.wait_frames = std::stoi(item.substr(5));
      } catch (...) {
        return "bad wait '" + item + "'";
      }
      events_.push_back(e);
      continue;
    }
    std::string name = item;
    for (;;) {
      if (name.rfind("Shift+", 0) == 0) e.shift = true, name = name.substr(6);
      else if (name.rfind("Ctrl+", 0) == 0) e.ctrl = true, name = name.substr(5);
      else break;
    }
    const auto it = key_names().find(name);
    if (it == key_names().end()) {
      std::string valid;
      for (const auto& [k, v] : key_names()) valid += (valid.empty() ? "" : ", ") + k;
      return "unknown key '" + name + "'; valid: " + valid + ", with Shift+ or Ctrl+, or wait:N, resize:WxH or drop:PATH";
    }
    e.key = it->second;
    events_.push_back(e);
  }
  return {};
}

void KeyScript::feed_next(GLFWwindow* window) {
  if (holding_) {
    send(window, held_.key, GLFW_RELEASE);
    if (held_.shift) send(window, GLFW_KEY_LEFT_SHIFT, GLFW_RELEASE);
    if (held_.ctrl) send(window, GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE);
    holding_ = false;
    return;  // a frame with the key up, so the next press counts as a new one
  }
  if (waiting_ > 0) {
    --waiting_;
    return;
  }
  if (next_ >= events_.size()) return;
  const Event e = events_[next_++];
  if (e.resize_w > 0) {
    glfwSetWindowSize(window, e.resize_w, e.resize_h);
    return;
  }
  if (!e.drop_path.empty()) {
    const char* paths[] = {e.drop_path.c_str()};
    deliver_dropped_paths(window, 1, paths);
    return;
  }
  if (e.key == 0) {
    waiting_ = e.wait_frames;
    return;
  }
  if (e.shift) send(window, GLFW_KEY_LEFT_SHIFT, GLFW_PRESS);
  if (e.ctrl) send(window, GLFW_KEY_LEFT_CONTROL, GLFW_PRESS);
  send(window, e.key, GLFW_PRESS);
  held_ = e;
  holding_ = true;
}

}  // namespace ws::app
