// Where the app looks for lessons and presets: beside an installed binary first, then
// $WARPSCOPE_ASSETS, then the source tree of a build folder. The file system is described per test.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "core/assets.hpp"

namespace ws::app {
namespace {

struct Layout {
  std::set<std::string> dirs;
  bool operator()(const std::string& p) const { return dirs.count(p) > 0; }
};

AssetsCandidates installed_under(const std::string& prefix) {
  AssetsCandidates c;
  c.executable = prefix + "/bin/warpscope";
  c.installed_relative = "../share/warpscope";
  c.source_tree = "/home/dev/warpscope/assets";
  return c;
}

TEST(Assets, AnInstalledCopyReadsItsShareFolderEvenWhenTheSourceTreeExists) {
  const Layout fs{{"/opt/ws/share/warpscope", "/home/dev/warpscope/assets"}};
  const auto r = choose_assets_dir(installed_under("/opt/ws"), fs);
  EXPECT_EQ(r.dir, "/opt/ws/share/warpscope");
  EXPECT_EQ(r.origin, AssetsOrigin::installed);
}

TEST(Assets, TheInstalledFolderWinsOverTheEnvironment) {
  auto c = installed_under("/usr");
  c.environment = "/srv/lessons";
  const Layout fs{{"/usr/share/warpscope", "/srv/lessons"}};
  EXPECT_EQ(choose_assets_dir(c, fs).dir, "/usr/share/warpscope");
}

TEST(Assets, ACopyMovedElsewhereFollowsItsBinary) {
  const Layout fs{{"/tmp/x/moved/share/warpscope"}};
  const auto r = choose_assets_dir(installed_under("/tmp/x/moved"), fs);
  EXPECT_EQ(r.dir, "/tmp/x/moved/share/warpscope");
}

TEST(Assets, ACustomDataDirRelativePathIsNormalised) {
  auto c = installed_under("/opt/ws");
  c.installed_relative = "../../data/ws/";
  const Layout fs{{"/opt/data/ws"}};
  EXPECT_EQ(choose_assets_dir(c, fs).dir, "/opt/data/ws");
}

TEST(Assets, ABuildFolderBinaryUsesTheEnvironmentBeforeTheSourceTree) {
  AssetsCandidates c;
  c.executable = "/home/dev/warpscope/build/release/app/warpscope";
  c.installed_relative = "../share/warpscope";
  c.environment = "/srv/lessons";
  c.source_tree = "/home/dev/warpscope/assets";
  const Layout fs{{"/home/dev/warpscope/assets", "/srv/lessons"}};
  const auto r = choose_assets_dir(c, fs);
  EXPECT_EQ(r.dir, "/srv/lessons");
  EXPECT_EQ(r.origin, AssetsOrigin::environment);
}

TEST(Assets, AnEnvironmentFolderThatDoesNotExistIsStillTheAnswerSoErrorsNameIt) {
  AssetsCandidates c;
  c.executable = "/b/app/warpscope";
  c.installed_relative = "../share/warpscope";
  c.environment = "/no/such/dir";
  c.source_tree = "/src/assets";
  const auto r = choose_assets_dir(c, Layout{{"/src/assets"}});
  EXPECT_EQ(r.dir, "/no/such/dir");
  EXPECT_EQ(r.origin, AssetsOrigin::environment);
}

TEST(Assets, ABuildFolderBinaryFallsBackToTheSourceTree) {
  AssetsCandidates c;
  c.executable = "/home/dev/warpscope/build/release/app/warpscope";
  c.installed_relative = "../share/warpscope";
  c.source_tree = "/home/dev/warpscope/assets";
  const auto r = choose_assets_dir(c, Layout{{"/home/dev/warpscope/assets"}});
  EXPECT_EQ(r.dir, "/home/dev/warpscope/assets");
  EXPECT_EQ(r.origin, AssetsOrigin::source_tree);
}

TEST(Assets, WithNothingFoundTheAnswerIsWhereAnInstallWouldHaveIt) {
  const auto r = choose_assets_dir(installed_under("/opt/ws"), Layout{});
  EXPECT_EQ(r.dir, "/opt/ws/share/warpscope");
  EXPECT_EQ(r.origin, AssetsOrigin::missing);
}

TEST(Assets, AnUnknownExecutablePathSkipsTheInstalledLookup) {
  AssetsCandidates c;
  c.installed_relative = "../share/warpscope";
  c.source_tree = "/src/assets";
  // "share/warpscope" relative to the working directory must not be taken for an install.
  const auto r = choose_assets_dir(c, Layout{{"/src/assets", "../share/warpscope", "share/warpscope"}});
  EXPECT_EQ(r.dir, "/src/assets");
  EXPECT_EQ(r.origin, AssetsOrigin::source_tree);
}

TEST(Assets, ThisTestBinaryInTheBuildFolderFindsTheSourceTreeOrTheEnvironment) {
  // A real lookup: no share/warpscope lies beside a test binary in a build folder.
  const auto& r = assets_choice();
  EXPECT_TRUE(r.origin == AssetsOrigin::source_tree || r.origin == AssetsOrigin::environment) << r.dir;
  EXPECT_EQ(assets_dir(), r.dir);
}

}  // namespace
}  // namespace ws::app
