// Bad input on the command line, as a user gives it: paths that are not lesson files and
// compute capabilities the occupancy tables do not list. Each is one message on stderr and exit
// 2, promptly, and nothing is created.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "cli_input_run.hpp"

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

class CliInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("warpscope-cli-input-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "cfg");
  }
  void TearDown() override { fs::remove_all(dir_); }
  ws::test::CliRun run(const std::vector<std::string>& args) {
    return ws::test::run_cli(WARPSCOPE_BIN, args, (dir_ / "cfg").string(), 20s);
  }
  fs::path dir_;
};

// Exit 2, exactly this one line on stderr, nothing on stdout, and in time.
void expect_refused(const ws::test::CliRun& r, const std::string& line) {
  EXPECT_FALSE(r.timed_out) << "did not return within the deadline";
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, line + "\n");
  EXPECT_EQ(r.out, "");
}

}  // namespace

TEST_F(CliInput, LessonCheckOfADeviceExits2) {
  expect_refused(run({"lesson", "check", "/dev/urandom"}), "/dev/urandom: error: is a character device, not a lesson file");
}

TEST_F(CliInput, LessonExportOfADeviceExits2AndCreatesNothing) {
  const fs::path out = dir_ / "frames";
  expect_refused(run({"lesson", "export", "/dev/urandom", "--out", out.string()}),
                 "/dev/urandom: error: is a character device, not a lesson file");
  EXPECT_FALSE(fs::exists(out)) << "the output folder was created for a lesson that was refused";
}

TEST_F(CliInput, LessonCheckOfAFifoADirectoryOrAHugeFileExits2) {
  const fs::path fifo = dir_ / "fifo.toml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(run({"lesson", "check", fifo.string()}), fifo.string() + ": error: is a FIFO, not a lesson file");
  expect_refused(run({"lesson", "export", fifo.string(), "--out", (dir_ / "x").string()}),
                 fifo.string() + ": error: is a FIFO, not a lesson file");
  expect_refused(run({"lesson", "check", dir_.string()}), dir_.string() + ": error: is a directory, not a lesson file");
  const fs::path huge = dir_ / "huge.toml";
  std::ofstream(huge, std::ios::binary) << std::string(2 * 1024 * 1024, '#');
  expect_refused(run({"lesson", "check", huge.string()}),
                 huge.string() + ": error: is too large for a lesson file (2097152 bytes; the limit is 1 MiB)");
}

TEST_F(CliInput, UnknownComputeCapabilityExits2WithTheSupportedList) {
  for (const std::string cc : {"1.0", "1.2", "8.5", "4.0", "13.0"}) {
    const auto r = run({"occupancy", "--cc", cc, "--block-size", "256", "--regs", "32", "--smem", "0"});
    EXPECT_EQ(r.exit_code, 2) << cc << ": " << r.out;
    EXPECT_EQ(r.out, "") << cc;
    EXPECT_EQ(r.err.rfind("warpscope: unknown compute capability " + cc + "; supported: 1.3, 2.0, 2.1, 3.0, ", 0), 0u)
        << r.err;
    EXPECT_NE(r.err.find(", 8.6, 8.7, 8.9, 9.0, "), std::string::npos) << r.err;
  }
  const auto known = run({"occupancy", "--cc", "1.3", "--block-size", "256", "--regs", "16", "--smem", "0"});
  EXPECT_EQ(known.exit_code, 0) << known.err;
  EXPECT_NE(known.out.find("cc 1.3"), std::string::npos) << known.out;
}

TEST_F(CliInput, MalformedComputeCapabilityExits2) {
  for (const std::string cc : {"", "8", "8.", ".6", "+8.6", " 8.6", "8.6 ", "8.6.1", "-8.6", "8.-6", "99999999999.0",
                               "8.99999999999", "0x8.6", "8,6"}) {
    const auto r = run({"occupancy", "--cc", cc, "--block-size", "256", "--regs", "32", "--smem", "0"});
    EXPECT_EQ(r.exit_code, 2) << "'" << cc << "': " << r.out;
    EXPECT_FALSE(r.err.empty()) << cc;
    EXPECT_EQ(r.out, "") << cc;
  }
}

TEST_F(CliInput, TheLargestLaunchTheCliAcceptsIsAnswered) {
  // 2^20 threads x 100000 registers overflowed int in the calculator.
  const auto r = run({"occupancy", "--cc", "8.6", "--block-size", "1048576", "--regs", "100000", "--smem", "1073741824",
                      "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"active_blocks_per_sm\": 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exceeds the maximum of 1024 per block"), std::string::npos) << r.out;
}
