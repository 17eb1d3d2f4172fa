// What this binary is: the project version and the git commit it was built from, for --version,
// `bench --json` and bug reports.
#pragma once

#include <string>

namespace ws::app {

std::string version();     // project(VERSION) in CMakeLists.txt, e.g. 0.1.0
std::string git_commit();  // 12 hex digits, "-dirty" when built with uncommitted changes, or "unknown"
std::string version_line();  // "warpscope 0.1.0 (git 0123456789ab)"

}  // namespace ws::app
