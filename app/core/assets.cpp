#include "core/assets.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#ifndef WARPSCOPE_INSTALLED_ASSETS_RELATIVE
#define WARPSCOPE_INSTALLED_ASSETS_RELATIVE "../share/warpscope"
#endif

namespace ws::app {

namespace fs = std::filesystem;

AssetsChoice choose_assets_dir(const AssetsCandidates& c, const std::function<bool(const std::string&)>& is_directory) {
  std::string installed;
  if (!c.executable.empty() && !c.installed_relative.empty())
    installed = (fs::path(c.executable).parent_path() / c.installed_relative).lexically_normal().string();
  if (!installed.empty() && installed.back() == '/') installed.pop_back();

  if (!installed.empty() && is_directory(installed)) return {installed, AssetsOrigin::installed};
  // Taken even when it does not exist: the user named it, so the errors should name it too.
  if (!c.environment.empty()) return {c.environment, AssetsOrigin::environment};
  if (!c.source_tree.empty() && is_directory(c.source_tree)) return {c.source_tree, AssetsOrigin::source_tree};
  // Nothing found: an installed copy with its data removed hears where the data belongs.
  return {installed.empty() ? c.source_tree : installed, AssetsOrigin::missing};
}

namespace {

std::string running_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

AssetsChoice choose_for_this_process() {
  AssetsCandidates c;
  c.executable = running_executable();
  c.installed_relative = WARPSCOPE_INSTALLED_ASSETS_RELATIVE;
  if (const char* env = std::getenv("WARPSCOPE_ASSETS"); env != nullptr) c.environment = env;
  c.source_tree = WARPSCOPE_ASSETS_DIR;
  return choose_assets_dir(c, [](const std::string& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
  });
}

}  // namespace

const AssetsChoice& assets_choice() {
  static const AssetsChoice choice = choose_for_this_process();
  return choice;
}

std::string assets_dir() { return assets_choice().dir; }

const char* to_string(AssetsOrigin origin) {
  switch (origin) {
    case AssetsOrigin::installed: return "installed beside the binary";
    case AssetsOrigin::environment: return "from $WARPSCOPE_ASSETS";
    case AssetsOrigin::source_tree: return "the source tree of this build";
    case AssetsOrigin::missing: return "not found";
  }
  return "?";
}

void publish_assets_dir() { ::setenv("WARPSCOPE_ASSETS", assets_dir().c_str(), 1); }

}  // namespace ws::app
