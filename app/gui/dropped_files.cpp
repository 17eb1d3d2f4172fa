#include "gui/dropped_files.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include <GLFW/glfw3.h>

#include "core/measured_elsewhere.hpp"
#include "gui/lesson_ui.hpp"

namespace ws::app {

namespace {

// GLFW calls back only from glfwPollEvents/glfwWaitEvents, on the frame's thread: no lock.
std::vector<std::string>& dropped_queue() {
  static std::vector<std::string> q;
  return q;
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

}  // namespace

void install_drop_handler(GLFWwindow* window) { glfwSetDropCallback(window, deliver_dropped_paths); }

void deliver_dropped_paths(GLFWwindow*, int count, const char** paths) {
  // GLFW's strings live only for the callback: copied now.
  for (int i = 0; i < count; ++i)
    if (paths[i] != nullptr && *paths[i] != '\0') dropped_queue().emplace_back(paths[i]);
}

std::vector<std::string> take_dropped_paths() {
  std::vector<std::string> out;
  out.swap(dropped_queue());
  return out;
}

DroppedKind dropped_kind(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".json") return DroppedKind::measured_run;
  if (ext == ".toml") return DroppedKind::lesson;
  return DroppedKind::unknown;
}

std::string open_dropped(const std::string& path, LessonPlayer& player, RealRunView& real, SimulationPanel& sim,
                         Presentation& pres) {
  const lesson::Language lang = pres.effective_language();
  switch (dropped_kind(path)) {
    case DroppedKind::measured_run: {
      if (real.shows_file(path)) return lesson::trf("drop.already_shown", lang, file_name(path));
      MeasuredLoad load = load_measured_file(path);
      const std::string said =
          load.run ? lesson::trf("drop.measured_shown", lang, file_name(path), load.run->file_label(lang)) : load.error;
      real.add_measured(std::move(load));
      return said;
    }
    case DroppedKind::lesson:
      if (!start_lesson(path, player, real, sim, pres))
        return lesson::trf("drop.lesson_not_opened", lang, file_name(path));
      return lesson::trf("drop.lesson_opened", pres.language, player.lesson().title);
    case DroppedKind::unknown: break;
  }
  return lesson::trf("drop.unknown", lang, file_name(path));
}

}  // namespace ws::app
