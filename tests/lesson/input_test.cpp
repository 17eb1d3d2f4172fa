// Files that are not lessons: a FIFO, a device, a directory, a file over the size limit. Each is
// refused before it is read, with one error line, and the read never blocks or grows without
// bound. Also the shared reader itself (read_text_file), which the settings and the measured-run
// loader use too.
#include "input_deadline.hpp"
#include "lesson.hpp"
#include "test_vocab.hpp"
#include "text_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace ws::lesson;
using namespace std::chrono_literals;

namespace {

class LessonInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("warpscope-lesson-input-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path file(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  fs::path fifo(const std::string& name) {
    const fs::path p = dir_ / name;
    EXPECT_EQ(::mkfifo(p.c_str(), 0600), 0);
    return p;
  }
  fs::path dir_;
};

std::string only_error(const ParseResult& r) {
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.size(), 1u);
  if (r.diagnostics.size() != 1) return "";
  EXPECT_EQ(r.diagnostics[0].line, 0);
  return format(r.diagnostics[0]);
}

constexpr const char* kValid = "title = \"T\"\n[[step]]\nm = 64\n";

}  // namespace

TEST_F(LessonInput, AFifoWithoutAWriterIsRefusedNotWaitedOn) {
  const fs::path p = fifo("lesson.toml");
  ASSERT_TRUE(ws::test::returns_within(5s, [&] { (void)load_lesson_file(p, test::vocab()); }))
      << "loading a FIFO blocked";
  EXPECT_EQ(only_error(load_lesson_file(p, test::vocab())), p.string() + ": error: is a FIFO, not a lesson file");
}

TEST_F(LessonInput, ADeviceIsRefusedBeforeItIsRead) {
  ASSERT_TRUE(ws::test::returns_within(5s, [] { (void)load_lesson_file("/dev/urandom", test::vocab()); }))
      << "loading /dev/urandom did not return";
  EXPECT_EQ(only_error(load_lesson_file("/dev/urandom", test::vocab())),
            "/dev/urandom: error: is a character device, not a lesson file");
  EXPECT_EQ(only_error(load_lesson_file("/dev/null", test::vocab())),
            "/dev/null: error: is a character device, not a lesson file");
}

TEST_F(LessonInput, ADirectoryIsRefused) {
  EXPECT_EQ(only_error(load_lesson_file(dir_, test::vocab())), dir_.string() + ": error: is a directory, not a lesson file");
}

TEST_F(LessonInput, AFileOverTheLimitIsRefusedWithItsSize) {
  // Valid TOML padded with a comment, so only the size can be the reason.
  std::string text = kValid;
  text += "#" + std::string(kMaxLessonBytes - text.size() - 2, 'x') + "\n";
  ASSERT_EQ(text.size(), kMaxLessonBytes);
  const fs::path at_limit = file("at-limit.toml", text);
  EXPECT_TRUE(load_lesson_file(at_limit, test::vocab()).ok()) << "a file of exactly the limit must load";

  const fs::path over = file("over.toml", text + "\n");
  EXPECT_EQ(only_error(load_lesson_file(over, test::vocab())),
            over.string() + ": error: is too large for a lesson file (1048577 bytes; the limit is 1 MiB)");

  const fs::path huge = file("huge.toml", std::string(3 * kMaxLessonBytes, '#'));
  EXPECT_EQ(only_error(load_lesson_file(huge, test::vocab())),
            huge.string() + ": error: is too large for a lesson file (3145728 bytes; the limit is 1 MiB)");
}

TEST_F(LessonInput, ASymlinkToALessonLoadsAndOneToADeviceDoesNot) {
  const fs::path real = file("real.toml", kValid);
  fs::create_symlink(real, dir_ / "link.toml");
  EXPECT_TRUE(load_lesson_file(dir_ / "link.toml", test::vocab()).ok());
  fs::create_symlink("/dev/zero", dir_ / "zero.toml");
  ASSERT_TRUE(ws::test::returns_within(5s, [&] { (void)load_lesson_file(dir_ / "zero.toml", test::vocab()); }));
  EXPECT_NE(only_error(load_lesson_file(dir_ / "zero.toml", test::vocab())).find("is a character device"),
            std::string::npos);
}

TEST_F(LessonInput, MissingFileKeepsItsMessage) {
  EXPECT_EQ(only_error(load_lesson_file(dir_ / "nope.toml", test::vocab())),
            (dir_ / "nope.toml").string() + ": error: cannot open the lesson file");
}

TEST_F(LessonInput, ReadTextFileReadsExactlyTheFile) {
  const std::string text("a\0b\xff\n", 5);
  const auto r = ws::read_text_file(file("t.txt", text), 5, "test file");
  ASSERT_TRUE(r.text.has_value()) << r.error;
  EXPECT_EQ(*r.text, text);
  EXPECT_EQ(r.problem, ws::TextFile::Problem::none);
  EXPECT_TRUE(r.error.empty());

  const auto empty = ws::read_text_file(file("e.txt", ""), 5, "test file");
  ASSERT_TRUE(empty.text.has_value());
  EXPECT_EQ(*empty.text, "");

  const auto over = ws::read_text_file(file("o.txt", "123456"), 5, "test file");
  EXPECT_FALSE(over.text.has_value());
  EXPECT_EQ(over.problem, ws::TextFile::Problem::too_large);
  EXPECT_EQ(over.error, "is too large for a test file (6 bytes; the limit is 5 bytes)");
}

TEST_F(LessonInput, ReadTextFileEnforcesTheLimitOnWhatIsReadNotOnStat) {
  // /proc files are regular with st_size 0 whatever they hold: the limit must still hold.
  const auto small = ws::read_text_file("/proc/self/status", 16, "test file");
  EXPECT_FALSE(small.text.has_value());
  EXPECT_EQ(small.problem, ws::TextFile::Problem::too_large);
  EXPECT_EQ(small.error, "is too large for a test file (more than 16 bytes; the limit is 16 bytes)");
  const auto whole = ws::read_text_file("/proc/self/status", 1 << 20, "test file");
  ASSERT_TRUE(whole.text.has_value()) << whole.error;
  EXPECT_NE(whole.text->find("Pid:"), std::string::npos);
}

TEST(ByteSizes, AreWordedAsInTheDocs) {
  EXPECT_EQ(ws::format_byte_size(1024 * 1024), "1 MiB");
  EXPECT_EQ(ws::format_byte_size(16 * 1024 * 1024), "16 MiB");
  EXPECT_EQ(ws::format_byte_size(64 * 1024), "64 KiB");
  EXPECT_EQ(ws::format_byte_size(1536 * 1024), "1.5 MiB");
  EXPECT_EQ(ws::format_byte_size(300), "300 bytes");
}
