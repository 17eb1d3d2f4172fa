// Files dropped on the window: a `warpscope bench --json` file from a GPU server is shown beside
// this machine's runs, a lesson is opened at its first step. What the Measured runs and Lesson
// menus' path fields do, without typing a path in front of the class.
#pragma once

#include <string>
#include <vector>

#include "lesson/i18n.hpp"

struct GLFWwindow;

namespace ws::app {

class LessonPlayer;
struct Presentation;
struct RealRunView;
struct SimulationPanel;

void install_drop_handler(GLFWwindow* window);
// GLFW's drop callback; --keys drop:PATH calls it as a drop would.
void deliver_dropped_paths(GLFWwindow* window, int count, const char** paths);
// The paths dropped since the last call, in order.
std::vector<std::string> take_dropped_paths();

enum class DroppedKind { measured_run, lesson, unknown };
DroppedKind dropped_kind(const std::string& path);  // by extension: .json, .toml

// Opens one dropped file and returns the line the window shows for it (its errors also go where
// the menus put them: the real-run panel, the lesson's error window). A lesson switches the window
// to its language, as the Lesson menu does.
std::string open_dropped(const std::string& path, LessonPlayer& player, RealRunView& real, SimulationPanel& sim,
                         Presentation& pres);

}  // namespace ws::app
