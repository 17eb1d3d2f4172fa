#include "core/settings.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

namespace fs = std::filesystem;
using ws::app::Settings;

namespace {

// Each test gets its own WARPSCOPE_CONFIG_DIR, so nothing touches the real user's settings.
class SettingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("warpscope-settings-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    ::setenv("WARPSCOPE_CONFIG_DIR", (dir_ / "cfg").c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("WARPSCOPE_CONFIG_DIR");
    fs::remove_all(dir_);
  }
  void write(const std::string& text) {
    fs::create_directories(dir_ / "cfg");
    std::ofstream(dir_ / "cfg" / "settings.toml") << text;
  }
  fs::path dir_;
};

}  // namespace

TEST_F(SettingsTest, PathFollowsTheEnvironment) {
  const char* home = std::getenv("HOME");
  const std::string saved_home = home != nullptr ? home : "";
  EXPECT_EQ(ws::app::settings_path(), dir_ / "cfg" / "settings.toml");
  ::unsetenv("WARPSCOPE_CONFIG_DIR");
  ::setenv("XDG_CONFIG_HOME", "/x/config", 1);
  EXPECT_EQ(ws::app::settings_path(), fs::path("/x/config/warpscope/settings.toml"));
  ::setenv("XDG_CONFIG_HOME", "relative/config", 1);  // the XDG spec says to ignore it
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(ws::app::settings_path(), fs::path("/home/someone/.config/warpscope/settings.toml"));
  ::unsetenv("XDG_CONFIG_HOME");
  if (home != nullptr) ::setenv("HOME", saved_home.c_str(), 1); else ::unsetenv("HOME");
}

TEST_F(SettingsTest, MissingFileGivesDefaultsWithoutWarning) {
  const Settings s = ws::app::load_settings();
  EXPECT_EQ(s.theme, "dark");
  EXPECT_FLOAT_EQ(s.ui_scale, 1.0f);
  EXPECT_EQ(s.language, "") << "not chosen yet: the desktop's language decides";
  EXPECT_EQ(s.last_lesson, "");
  EXPECT_EQ(s.last_step, 0);
  EXPECT_TRUE(s.projector) << "projector mode is on in lecture mode until the user turns it off";
  EXPECT_EQ(s.warning, "");
}

TEST_F(SettingsTest, SaveCreatesTheDirectoryAndRoundTrips) {
  Settings s;
  s.theme = "light";
  s.ui_scale = 1.5f;
  s.language = "ko";
  s.last_lesson = "/tmp/a \"quoted\" 레슨.toml";
  s.last_step = 7;
  s.projector = false;
  s.warning = "never written";
  std::string error;
  ASSERT_TRUE(ws::app::save_settings(s, &error)) << error;
  ASSERT_TRUE(fs::exists(dir_ / "cfg" / "settings.toml"));
  // Only the file itself is left: the temporary was renamed over it.
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_ / "cfg")) ++entries;
  EXPECT_EQ(entries, 1);

  const Settings back = ws::app::load_settings();
  EXPECT_EQ(back.theme, "light");
  EXPECT_FLOAT_EQ(back.ui_scale, 1.5f);
  EXPECT_EQ(back.language, "ko");
  EXPECT_EQ(back.last_lesson, s.last_lesson);
  EXPECT_EQ(back.last_step, 7);
  EXPECT_FALSE(back.projector);
  EXPECT_EQ(back.warning, "");

  // Saving again replaces the file rather than appending to it.
  s.theme = "dark";
  ASSERT_TRUE(ws::app::save_settings(s, &error)) << error;
  EXPECT_EQ(ws::app::load_settings().theme, "dark");
}

TEST_F(SettingsTest, BrokenFileGivesDefaultsAndAWarningWithTheLine) {
  write("theme = \"light\"\nui_scale = = 2\n");
  const Settings s = ws::app::load_settings();
  EXPECT_EQ(s.theme, "dark");  // nothing from a file that does not parse
  EXPECT_FLOAT_EQ(s.ui_scale, 1.0f);
  EXPECT_NE(s.warning.find("settings.toml:2:"), std::string::npos) << s.warning;
}

TEST_F(SettingsTest, OutOfRangeValuesAreClamped) {
  write("ui_scale = 9.0\nlast_step = -3\n");
  Settings s = ws::app::load_settings();
  EXPECT_FLOAT_EQ(s.ui_scale, ws::app::kMaxUiScale);
  EXPECT_EQ(s.last_step, 0);
  write("ui_scale = 0.1\n");
  EXPECT_FLOAT_EQ(ws::app::load_settings().ui_scale, ws::app::kMinUiScale);
  write("ui_scale = 2\n");  // an integer is a fine scale
  EXPECT_FLOAT_EQ(ws::app::load_settings().ui_scale, 2.0f);
  write("ui_scale = nan\n");
  s = ws::app::load_settings();
  EXPECT_FLOAT_EQ(s.ui_scale, 1.0f);
  EXPECT_NE(s.warning, "");
}

TEST_F(SettingsTest, WrongTypesAndUnknownNamesKeepTheDefaultForThatFieldOnly) {
  write("theme = \"purple\"\nlanguage = 3\nui_scale = \"big\"\nlast_lesson = \"x.toml\"\nlast_step = 4\n"
        "future_key = true\nprojector = \"off\"\n");
  const Settings s = ws::app::load_settings();
  EXPECT_EQ(s.theme, "dark");
  EXPECT_EQ(s.language, "");
  EXPECT_FLOAT_EQ(s.ui_scale, 1.0f);
  EXPECT_EQ(s.last_lesson, "x.toml");
  EXPECT_EQ(s.last_step, 4);
  EXPECT_NE(s.warning.find("purple"), std::string::npos) << s.warning;
  EXPECT_NE(s.warning.find("'language' must be a string"), std::string::npos) << s.warning;
  EXPECT_NE(s.warning.find("'ui_scale' must be a number"), std::string::npos) << s.warning;
  EXPECT_TRUE(s.projector);
  EXPECT_NE(s.warning.find("'projector' must be true or false"), std::string::npos) << s.warning;
  EXPECT_EQ(s.warning.find("future_key"), std::string::npos) << "unknown keys are for newer versions";
}

TEST_F(SettingsTest, SaveReportsAnErrorInsteadOfThrowing) {
  // A regular file where the directory should be.
  fs::create_directories(dir_);
  std::ofstream(dir_ / "cfg") << "not a directory";
  std::string error;
  EXPECT_FALSE(ws::app::save_settings(Settings{}, &error));
  EXPECT_NE(error, "");
  EXPECT_FALSE(ws::app::save_settings(Settings{}, nullptr));
}
