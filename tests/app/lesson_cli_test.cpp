// `warpscope lesson ...` run the way a lecturer runs it: exit codes and FILE:LINE:COLUMN output.
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

#include "../support/run_binary.hpp"

namespace fs = std::filesystem;

namespace {

const std::string bin = WARPSCOPE_BIN;
const fs::path lessons = fs::path(WARPSCOPE_ASSETS_DIR) / "lessons";

class LessonCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("warpscope-lesson-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_F(LessonCli, BuiltInLessonsCheckClean) {
  const std::string en = (lessons / "gpu-story.en.toml").string();
  const std::string ko = (lessons / "gpu-story.ko.toml").string();
  const auto r = run_command(bin + " lesson check " + en + " " + ko);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, en + ": ok, ")) << r.output;
  EXPECT_TRUE(contains(r.output, ko + ": ok, ")) << r.output;
  EXPECT_FALSE(contains(r.output, "error:")) << r.output;
  EXPECT_FALSE(contains(r.output, "warning:")) << r.output;
}

TEST_F(LessonCli, SyntaxErrorPointsAtItsLine) {
  const std::string file = write("broken.toml",
                                 "title = \"Broken\"\n"
                                 "\n"
                                 "[[step]]\n"
                                 "title = \"one\"\n"
                                 "m = = 64\n");
  const auto r = run_command(bin + " lesson check " + file);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, file + ":5:")) << r.output;
  EXPECT_TRUE(contains(r.output, ": error: ")) << r.output;
  EXPECT_FALSE(contains(r.output, ": ok,")) << r.output;
}

TEST_F(LessonCli, UnknownPresetListsTheValidNames) {
  const std::string file = write("preset.toml",
                                 "title = \"Presets\"\n"
                                 "[[step]]\n"
                                 "gpu_preset = \"h1000\"\n");
  const auto r = run_command(bin + " lesson check " + file);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, file + ":3:")) << r.output;
  EXPECT_TRUE(contains(r.output, "h1000")) << r.output;
  // Filled from the registries: real preset ids, and the live machine.
  EXPECT_TRUE(contains(r.output, "h100,")) << r.output;
  EXPECT_TRUE(contains(r.output, "c1060")) << r.output;
  EXPECT_TRUE(contains(r.output, "this-machine")) << r.output;
}

// Which presets have tensor cores comes from the preset files: a tensor figure on a step that
// shows a C1060 fails the check at the placeholder; the same step on a V100 passes.
TEST_F(LessonCli, TensorFigureOnAGpuWithoutTensorCoresFails) {
  const std::string bad = write("tensor.toml",
                                "title = \"Tensor\"\n"
                                "[[step]]\n"
                                "gpu_preset = \"c1060\"\n"
                                "caption = \"{preset.tensor_tflops} TFLOP/s\"\n");
  auto r = run_command(bin + " lesson check " + bad);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, bad + ":4:12: error: ")) << r.output;
  EXPECT_TRUE(contains(r.output, "needs a GPU preset with tensor cores")) << r.output;
  EXPECT_TRUE(contains(r.output, "'c1060'")) << r.output;
  const std::string good = write("tensor-ok.toml",
                                 "title = \"Tensor\"\n"
                                 "[[step]]\n"
                                 "gpu_preset = \"v100\"\n"
                                 "caption = \"{preset.tensor_tflops} TFLOP/s ({preset.tensor_format})\"\n");
  r = run_command(bin + " lesson check " + good);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, good + ": ok, 1 step")) << r.output;
}

TEST_F(LessonCli, RealKernelNamesComeFromTheKernelRegistry) {
  const std::string file = write("kernels.toml",
                                 "title = \"Kernels\"\n"
                                 "[[step]]\n"
                                 "cpu_kernel = \"cpu-parallel\"\n"
                                 "gpu_kernel = \"cublas\"\n"
                                 "kernel = \"tiled\"\n"
                                 "[[step]]\n"
                                 "cpu_kernel = \"cpu-magic\"\n");
  const auto r = run_command(bin + " lesson check " + file);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, file + ":7:")) << r.output;
  EXPECT_TRUE(contains(r.output, "cpu-magic")) << r.output;
  EXPECT_TRUE(contains(r.output, "cpu-naive")) << r.output;
}

TEST_F(LessonCli, MissingFileIsExitCode2) {
  const std::string file = (dir_ / "no-such-lesson.toml").string();
  const auto r = run_command(bin + " lesson check " + file);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, file + ": error:")) << r.output;
}

TEST_F(LessonCli, WarningsDoNotFailAndEveryFileIsChecked) {
  const std::string warn = write("warn.toml",
                                 "title = \"Warn\"\n"
                                 "[[step]]\n"
                                 "captoin = \"typo\"\n");
  const std::string bad = write("bad.toml", "title = \"Bad\"\n");  // no [[step]]
  auto r = run_command(bin + " lesson check " + warn);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, warn + ":3:")) << r.output;
  EXPECT_TRUE(contains(r.output, "warning:")) << r.output;
  EXPECT_TRUE(contains(r.output, warn + ": ok, 1 step, 1 warning")) << r.output;

  r = run_command(bin + " lesson check " + bad + " " + warn);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, bad + ":1:1: error:")) << r.output;
  EXPECT_TRUE(contains(r.output, warn + ": ok")) << r.output;
}

TEST_F(LessonCli, CheckWithoutFilesIsExitCode2) {
  EXPECT_EQ(run_command(bin + " lesson check").exit_code, 2);
  EXPECT_EQ(run_command(bin + " lesson").exit_code, 2);
}

TEST_F(LessonCli, ExportValidatesBeforeCreatingAnything) {
  const std::string file = write("broken.toml", "title = \"Broken\"\n[[step]]\nspeed = 0\n");
  const fs::path out = dir_ / "out";
  const auto r = run_command(bin + " lesson export " + file + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, file + ":3:")) << r.output;
  EXPECT_FALSE(fs::exists(out));

  EXPECT_EQ(run_command(bin + " lesson export " + file + " --out " + out.string() + " --lang fr").exit_code, 2);
  EXPECT_EQ(run_command(bin + " lesson export " + file).exit_code, 2) << "--out is required";
}

TEST_F(LessonCli, ExportWithLangUsesTheSiblingFile) {
  const std::string en = write("story.en.toml", "title = \"Story\"\n[[step]]\ntitle = \"one\"\n");
  const std::string ko = write("story.ko.toml", "title = \"이야기\"\nlanguage = \"ko\"\n[[step]]\ntitle = \"하나\"\n");
  // No display: the export stops at opening the window, after choosing the file.
  const auto r = run_command("env -u DISPLAY -u WAYLAND_DISPLAY " + bin + " lesson export " + en +
                             " --lang ko --out " + (dir_ / "out").string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "exporting " + ko)) << r.output;
  EXPECT_TRUE(fs::is_directory(dir_ / "out"));
}

TEST_F(LessonCli, ListShowsTheLessonsInTheAssetsDirectory) {
  auto r = run_command(bin + " lesson list");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "gpu-story.en.toml")) << r.output;
  EXPECT_TRUE(contains(r.output, "gpu-story.ko.toml")) << r.output;
  EXPECT_TRUE(contains(r.output, "Why AI runs on GPUs")) << r.output;

  // WARPSCOPE_ASSETS moves the whole assets tree, presets included.
  fs::create_directories(dir_ / "assets" / "lessons");
  fs::copy(fs::path(WARPSCOPE_ASSETS_DIR) / "presets", dir_ / "assets" / "presets", fs::copy_options::recursive);
  std::ofstream(dir_ / "assets" / "lessons" / "mine.toml") << "title = \"Mine\"\n[[step]]\n[[step]]\n";
  r = run_command("WARPSCOPE_ASSETS=" + (dir_ / "assets").string() + " " + bin + " lesson list");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "mine.toml  [en]  2 steps  Mine")) << r.output;
  EXPECT_FALSE(contains(r.output, "gpu-story")) << r.output;
}
