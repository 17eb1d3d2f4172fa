// Files the app writes (settings, screenshots, a lesson's pictures) either arrive whole or the
// failure is said, and the file that was there stays as it was.
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/resource.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "core/file_write.hpp"

namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("warpscope-file-write-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

int entries(const fs::path& d) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d)) ++n;
  return n;
}

}  // namespace

TEST(WriteFileWhole, ReplacesTheFileAndLeavesNoTemporary) {
  const fs::path d = fresh_dir("replace");
  const fs::path f = d / "picture.png";
  std::string error;
  ASSERT_TRUE(ws::app::write_file_whole(f, "first", &error)) << error;
  ASSERT_TRUE(ws::app::write_file_whole(f, std::string(100000, 'x'), &error)) << error;
  EXPECT_EQ(read_all(f), std::string(100000, 'x'));
  EXPECT_EQ(entries(d), 1);
  fs::remove_all(d);
}

// A disk that fills up mid-write (here: a file-size limit, which fails write() the same way):
// the failure is said and the earlier file is still whole.
TEST(WriteFileWhole, AWriteThatFailsKeepsTheOldFileAndSaysWhy) {
  const fs::path d = fresh_dir("full");
  const fs::path f = d / "settings.toml";
  std::string error;
  ASSERT_TRUE(ws::app::write_file_whole(f, "theme = \"dark\"\n", &error)) << error;

  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  auto* const old_handler = std::signal(SIGXFSZ, SIG_IGN);  // else the limit kills the process
  rlimit tight = old;
  tight.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &tight), 0);
  const bool written = ws::app::write_file_whole(f, std::string(65536, 'y'), &error);
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);

  EXPECT_FALSE(written);
  EXPECT_NE(error.find("cannot write " + f.string() + ": "), std::string::npos) << error;
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
  EXPECT_EQ(read_all(f), "theme = \"dark\"\n");
  EXPECT_EQ(entries(d), 1) << "the temporary file was left behind";
  fs::remove_all(d);
}

// A device is written in place (nothing may be renamed over it), and its failure is said.
TEST(WriteFileWhole, ADeviceIsWrittenInPlaceAndAFullOneIsSaid) {
  std::string error;
  EXPECT_FALSE(ws::app::write_file_whole("/dev/full", "png bytes", &error));
  EXPECT_EQ(error, "cannot write /dev/full: No space left on device");
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_TRUE(ws::app::write_file_whole("/dev/null", "png bytes", &error)) << error;
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(WriteFileWhole, AFolderOrAMissingFolderIsSaid) {
  const fs::path d = fresh_dir("folder");
  std::string error;
  EXPECT_FALSE(ws::app::write_file_whole(d, "x", &error));
  EXPECT_EQ(error, "cannot write " + d.string() + ": Is a directory");
  EXPECT_FALSE(ws::app::write_file_whole(d / "no" / "such" / "x.png", "x", &error));
  EXPECT_EQ(error, "cannot write " + (d / "no" / "such" / "x.png").string() + ": No such file or directory");
  EXPECT_EQ(entries(d), 0);
  fs::remove_all(d);
}
