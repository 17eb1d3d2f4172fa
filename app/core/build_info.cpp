#include "core/build_info.hpp"

#include "generated/git_commit.hpp"

namespace ws::app {

std::string version() { return WARPSCOPE_VERSION; }
std::string git_commit() { return WARPSCOPE_GIT_COMMIT; }
std::string version_line() { return "warpscope " + version() + " (git " + git_commit() + ")"; }

}  // namespace ws::app
