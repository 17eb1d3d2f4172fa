// Files the app reads that are not what they should be: a FIFO, a device, a directory, a file
// over the limit. The settings give the defaults with one warning, a measured run gives one
// error line; neither waits on a FIFO nor reads a device.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "../lesson/input_deadline.hpp"
#include "core/measured_elsewhere.hpp"
#include "core/settings.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using ws::app::Settings;

namespace {

class AppInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("warpscope-app-input-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path fifo(const std::string& name) {
    const fs::path p = dir_ / name;
    EXPECT_EQ(::mkfifo(p.c_str(), 0600), 0);
    return p;
  }
  fs::path dir_;
};

bool is_default(const Settings& s) {
  const Settings d;
  return s.theme == d.theme && s.ui_scale == d.ui_scale && s.language == d.language && s.last_lesson == d.last_lesson &&
         s.last_step == d.last_step;
}

}  // namespace

TEST_F(AppInput, SettingsThatAreAFifoGiveTheDefaultsWithoutWaiting) {
  const fs::path p = fifo("settings.toml");
  ASSERT_TRUE(ws::test::returns_within(5s, [&] { (void)ws::app::load_settings_from(p); })) << "blocked on a FIFO";
  const Settings s = ws::app::load_settings_from(p);
  EXPECT_TRUE(is_default(s));
  EXPECT_EQ(s.warning, p.string() + ": is a FIFO, not a settings file; using defaults");
}

TEST_F(AppInput, SettingsThatAreADeviceOrDirectoryGiveTheDefaults) {
  ASSERT_TRUE(ws::test::returns_within(5s, [] { (void)ws::app::load_settings_from("/dev/urandom"); }));
  Settings s = ws::app::load_settings_from("/dev/urandom");
  EXPECT_TRUE(is_default(s));
  EXPECT_EQ(s.warning, "/dev/urandom: is a character device, not a settings file; using defaults");
  s = ws::app::load_settings_from(dir_);
  EXPECT_TRUE(is_default(s));
  EXPECT_EQ(s.warning, dir_.string() + ": is a directory, not a settings file; using defaults");
}

TEST_F(AppInput, SettingsOverTheLimitAreNotRead) {
  // Valid settings padded with a comment: only the size can be the reason.
  std::string text = "theme = \"light\"\n";
  text += "#" + std::string(ws::app::kMaxSettingsBytes - text.size() - 2, 'x') + "\n";
  const fs::path at_limit = dir_ / "at-limit.toml";
  std::ofstream(at_limit, std::ios::binary) << text;
  Settings s = ws::app::load_settings_from(at_limit);
  EXPECT_EQ(s.theme, "light");
  EXPECT_EQ(s.warning, "");

  const fs::path over = dir_ / "over.toml";
  std::ofstream(over, std::ios::binary) << text << "\n";
  s = ws::app::load_settings_from(over);
  EXPECT_TRUE(is_default(s));
  EXPECT_EQ(s.warning, over.string() + ": is too large for a settings file (" +
                           std::to_string(ws::app::kMaxSettingsBytes + 1) + " bytes; the limit is 64 KiB); using defaults");
}

TEST_F(AppInput, SettingsTextParsesLikeTheFile) {
  const Settings s = ws::app::parse_settings("theme = \"light\"\nui_scale = 9.0\nlanguage = \"fr\"\n", "cfg.toml");
  EXPECT_EQ(s.theme, "light");
  EXPECT_FLOAT_EQ(s.ui_scale, ws::app::kMaxUiScale);
  EXPECT_EQ(s.language, "") << "not a choice: the desktop's language decides";
  EXPECT_EQ(s.warning, "cfg.toml: unknown language 'fr' (valid: en, ko)");
}

TEST_F(AppInput, MeasuredRunThatIsAFifoIsOneErrorLine) {
  const fs::path p = fifo("h200.json");
  ASSERT_TRUE(ws::test::returns_within(5s, [&] { (void)ws::app::load_measured_file(p.string()); }));
  const auto load = ws::app::load_measured_file(p.string());
  EXPECT_FALSE(load.run.has_value());
  EXPECT_EQ(load.error, "h200.json: is a FIFO, not a bench JSON file (" + p.string() + ")");
}

TEST_F(AppInput, MeasuredRunThatIsADeviceOrTooLargeIsRefused) {
  ASSERT_TRUE(ws::test::returns_within(5s, [] { (void)ws::app::load_measured_file("/dev/zero"); }));
  auto load = ws::app::load_measured_file("/dev/zero");
  EXPECT_FALSE(load.run.has_value());
  EXPECT_EQ(load.error, "zero: is a character device, not a bench JSON file (/dev/zero)");

  const fs::path big = dir_ / "big.json";
  {
    std::ofstream out(big, std::ios::binary);
    out << std::string(ws::app::kMaxMeasuredBytes + 1, ' ');
  }
  load = ws::app::load_measured_file(big.string());
  EXPECT_FALSE(load.run.has_value());
  EXPECT_EQ(load.error, "big.json: is too large for a bench JSON file (" + std::to_string(ws::app::kMaxMeasuredBytes + 1) +
                            " bytes; the limit is 16 MiB) (" + big.string() + ")");

  // The folder loader only takes regular files, and one bad file does not hide the others.
  ASSERT_EQ(::mkfifo((dir_ / "fifo.json").c_str(), 0600), 0);
  const auto loads = ws::app::load_measured_dir(dir_.string());
  ASSERT_EQ(loads.size(), 1u);  // big.json; fifo.json is skipped, not waited on
  EXPECT_FALSE(loads[0].run.has_value());
}
