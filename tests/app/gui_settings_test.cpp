// The user's settings belong to the user: `lesson export` and headless renders (--screenshot,
// --print-state) neither read nor write ~/.config/warpscope/settings.toml unless a config
// directory is named (--config-dir, $WARPSCOPE_CONFIG_DIR). Each test runs the binary with a
// fresh HOME and XDG_CONFIG_HOME unset, so the default place is HOME/.config/warpscope.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/run_binary.hpp"
#include "../support/window_run.hpp"

namespace fs = std::filesystem;

namespace {

const std::string bin = WARPSCOPE_BIN;
const std::string lessons = WARPSCOPE_ASSETS_DIR_FOR_TESTS "/lessons";

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every regular file under `dir`, relative to it.
std::vector<std::string> files_under(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (!it->is_directory()) out.push_back(fs::relative(it->path(), dir).string());
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

class GuiSettings : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_display()) GTEST_SKIP() << "no display: run under xvfb-run (scripts/test does)";
    root_ = fs::temp_directory_path() / ("warpscope-settings-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    home_ = root_ / "home";
    out_ = root_ / "out";
    fs::create_directories(home_);
    fs::create_directories(out_);
    // A short Korean lesson: what the user exported before finding the settings in Korean.
    lesson_ = root_ / "short.ko.toml";
    std::ofstream(lesson_) << "title = \"짧은 강의\"\nlanguage = \"ko\"\n"
                              "[[step]]\ntitle = \"하나\"\ncaption = \"SM {preset.sm_count}개\"\ngpu_preset = \"h100\"\n"
                              "m = 64\nn = 64\nk = 64\n"
                              "[[step]]\ntitle = \"둘\"\ncaption = \"{preset.gpu_name|은} 빠릅니다.\"\n";
  }
  void TearDown() override {
    if (!root_.empty()) fs::remove_all(root_);
  }

  // The binary with HOME = home_, XDG_CONFIG_HOME and WARPSCOPE_CONFIG_DIR unset. Caches
  // (Mesa's shader cache, fontconfig's) are not settings and go to a folder beside HOME, so
  // anything that does appear under HOME can only be the app's own doing.
  ProcessResult run(const std::string& args) {
    return run_command("env -u XDG_CONFIG_HOME -u WARPSCOPE_CONFIG_DIR HOME=" + home_.string() +
                       " XDG_CACHE_HOME=" + (root_ / "cache").string() + " " + bin + " " + args);
  }
  nlohmann::json state(const std::string& args) {
    const auto r = run("--screenshot " + (out_ / "state.png").string() + " --frames 3 --no-run --print-state " + args);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return ws::test_support::printed_state(r.output);
  }

  fs::path root_, home_, out_, lesson_;
};

}  // namespace

TEST_F(GuiSettings, LessonExportLeavesTheUsersSettingsAlone) {
  const auto r = run("lesson export " + lesson_.string() + " --out " + (out_ / "export").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(out_ / "export" / "step-02.png"));
  EXPECT_TRUE(files_under(home_).empty()) << "written under HOME:\n" << joined(files_under(home_));
}

TEST_F(GuiSettings, ScreenshotAndPrintStateLeaveTheUsersSettingsAlone) {
  // Step 3 simulates 64^3; step 2's 1024^3 chip would only make the render wait.
  const auto s = state("--lesson " + lessons + "/gpu-story.ko.toml --step 3 --keys T,Ctrl+Equal");
  ASSERT_FALSE(s.is_discarded());
  EXPECT_EQ(s["language"], "ko");
  EXPECT_EQ(s["theme"], "light");
  EXPECT_TRUE(files_under(home_).empty()) << "written under HOME:\n" << joined(files_under(home_));
}

TEST_F(GuiSettings, HeadlessRendersDoNotReadTheUsersSettings) {
  // What an earlier Korean session left behind must not change a render.
  const fs::path cfg = home_ / ".config" / "warpscope";
  fs::create_directories(cfg);
  std::ofstream(cfg / "settings.toml") << "theme = \"light\"\nlanguage = \"ko\"\nui_scale = 2.0\nlast_lesson = \""
                                      << lessons << "/gpu-story.ko.toml\"\nlast_step = 9\n";
  const std::string before = read_all(cfg / "settings.toml");
  const auto s = state("--size 64");
  ASSERT_FALSE(s.is_discarded());
  EXPECT_EQ(s["language"], "en");
  EXPECT_EQ(s["theme"], "dark");
  EXPECT_NEAR(s["ui_scale"].get<double>(), 1.0, 1e-3);
  EXPECT_EQ(s["lesson_step"], 0) << "the saved lesson is not reopened";
  EXPECT_EQ(read_all(cfg / "settings.toml"), before);
  EXPECT_EQ(files_under(home_), std::vector<std::string>{".config/warpscope/settings.toml"});
}

TEST_F(GuiSettings, AnExplicitConfigDirStillSavesAndRestores) {
  const fs::path cfg = root_ / "cfg";
  // The same run as above, now with --config-dir: the window saves what it ended with...
  auto s = state("--config-dir " + cfg.string() + " --lesson " + lessons + "/gpu-story.ko.toml --step 3 --keys T");
  ASSERT_FALSE(s.is_discarded());
  ASSERT_TRUE(fs::exists(cfg / "settings.toml")) << "files: " << joined(files_under(root_));
  const std::string saved = read_all(cfg / "settings.toml");
  EXPECT_NE(saved.find("language = 'ko'"), std::string::npos) << saved;
  EXPECT_NE(saved.find("theme = 'light'"), std::string::npos) << saved;
  EXPECT_NE(saved.find("gpu-story.ko.toml"), std::string::npos) << saved;
  EXPECT_NE(saved.find("last_step = 2"), std::string::npos) << saved;
  // ...and the next start in that directory resumes it: Korean, light, the lesson at step 3.
  s = state("--config-dir " + cfg.string());
  ASSERT_FALSE(s.is_discarded());
  EXPECT_EQ(s["language"], "ko");
  EXPECT_EQ(s["theme"], "light");
  EXPECT_EQ(s["lesson_step"], 3);
  // The export names the directory too when asked, and then records its lesson there.
  const fs::path cfg2 = root_ / "cfg2";
  const auto r = run("lesson export " + lesson_.string() + " --out " + (out_ / "export").string() +
                     " --config-dir " + cfg2.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(read_all(cfg2 / "settings.toml").find("language = 'ko'"), std::string::npos);
  EXPECT_TRUE(files_under(home_).empty()) << "written under HOME:\n" << joined(files_under(home_));
}

// A first run on a Korean desktop opens in Korean and remembers it; what the user saved wins over
// the locale; a headless render stays English whatever the locale.
TEST_F(GuiSettings, AFirstRunSpeaksTheDesktopsLanguage) {
  const fs::path cfg = root_ / "cfg";
  const auto first = ws::test_support::run_window("first_run_ko", "--frames 2 --no-run --print-state --size 64 --config-dir " + cfg.string(),
                                                  {.env = "LANG=ko_KR.UTF-8 LC_ALL= LC_MESSAGES= LANGUAGE=", .home = home_.string()});
  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(first.state["language"], "ko");
  EXPECT_NE(read_all(cfg / "settings.toml").find("language = 'ko'"), std::string::npos) << read_all(cfg / "settings.toml");

  std::ofstream(cfg / "settings.toml") << "language = \"en\"\n";
  const auto saved = ws::test_support::run_window("saved_en", "--frames 2 --no-run --print-state --size 64 --config-dir " + cfg.string(),
                                                  {.env = "LANG=ko_KR.UTF-8 LC_ALL= LC_MESSAGES= LANGUAGE=", .home = home_.string()});
  ASSERT_EQ(saved.exit_code, 0) << saved.output;
  EXPECT_EQ(saved.state["language"], "en");

  const auto headless = ws::test_support::run_window("headless_ko_locale", "--frames 2 --no-run --print-state --size 64",
                                                     {.env = "LANG=ko_KR.UTF-8 LC_ALL= LC_MESSAGES= LANGUAGE=", .home = home_.string()});
  ASSERT_EQ(headless.exit_code, 0) << headless.output;
  EXPECT_EQ(headless.state["language"], "en");
}
