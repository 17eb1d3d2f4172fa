// Where the app's data lives (lessons, presets, measured runs). An installed copy finds it next to
// its binary (../share/warpscope), so it runs with the checkout gone; $WARPSCOPE_ASSETS comes
// next, then the source tree a build folder was configured from. sim/ cannot see app/, so main()
// publishes the choice through $WARPSCOPE_ASSETS before anything reads a preset.
#pragma once

#include <functional>
#include <string>

namespace ws::app {

enum class AssetsOrigin { installed, environment, source_tree, missing };

struct AssetsChoice {
  std::string dir;
  AssetsOrigin origin = AssetsOrigin::missing;
};

struct AssetsCandidates {
  std::string executable;           // absolute path of the running binary; empty if unknown
  std::string installed_relative;   // from the binary's folder to the installed data, e.g. ../share/warpscope
  std::string environment;          // $WARPSCOPE_ASSETS; empty when unset
  std::string source_tree;          // the assets/ folder the build was configured with
};

// Pure: the file system is only asked through is_directory, so tests can describe any layout.
AssetsChoice choose_assets_dir(const AssetsCandidates& c, const std::function<bool(const std::string&)>& is_directory);

// The choice for this process, made once (the binary's path does not change while it runs).
const AssetsChoice& assets_choice();
std::string assets_dir();
const char* to_string(AssetsOrigin origin);

// Sets $WARPSCOPE_ASSETS to assets_dir() so that sim's presets_dir() reads the same folder. Call
// before any thread starts: setenv is not thread-safe.
void publish_assets_dir();

}  // namespace ws::app
