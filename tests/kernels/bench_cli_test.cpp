// `warpscope bench` as a user runs it: the JSON shape and values, and the exit codes for bad input.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "warpscope/kernels/job.hpp"

namespace {

struct BenchRun {
  int exit_code = -1;
  std::string out, err;
};

// `prefix` goes before the binary, e.g. "env -u DISPLAY ".
BenchRun bench(const std::string& args, const std::string& prefix = "") {
  BenchRun r;
  const std::string err_path = ::testing::TempDir() + "bench_stderr_" + std::to_string(getpid()) + ".txt";
  const std::string command = prefix + std::string(WARPSCOPE_BIN) + " bench " + args + " 2>" + err_path;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) r.out += buffer.data();
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  r.err = text.str();
  std::remove(err_path.c_str());
  return r;
}

TEST(BenchCli, JsonHasTheDocumentedShapeAndRealValues) {
  const BenchRun r = bench("--size 64 --kernels cpu-naive,cpu-parallel --threads 2 --repeats 2 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);  // exactly one JSON object, nothing else
  ASSERT_TRUE(j.is_object());
  ASSERT_TRUE(j["cpu"].is_object());
  EXPECT_TRUE(j["cpu"]["name"].is_string());
  EXPECT_TRUE(j["cpu"]["cores"].is_number_integer());
  EXPECT_GE(j["cpu"]["cores"].get<int>(), 1);
  EXPECT_TRUE(j["cpu"]["simd"].is_string());
  // The OpenBLAS core in use, and what OpenBLAS detected by itself only when warpscope corrected it.
  ASSERT_TRUE(j["blas_core"].is_string());
  ASSERT_TRUE(j["blas_core_note"].is_string());
  ASSERT_TRUE(j.contains("blas_core_detected"));
  const std::string note = j["blas_core_note"];
  EXPECT_EQ(note.rfind(j["blas_core"].get<std::string>(), 0), 0u) << note;
  if (!j["blas_core_detected"].is_null()) {
    EXPECT_NE(note.find("detected " + j["blas_core_detected"].get<std::string>()), std::string::npos) << note;
  }
  ASSERT_TRUE(j.contains("gpu"));
  if (!j["gpu"].is_null()) {
    EXPECT_TRUE(j["gpu"]["name"].is_string());
    ASSERT_TRUE(j["gpu"]["api"].is_string());
    if (j["gpu"]["api"] == "cuda") {
      EXPECT_TRUE(j["gpu"]["cc"].is_string());
      EXPECT_TRUE(j["gpu"]["sm_count"].is_number_integer());
    } else {
      EXPECT_EQ(j["gpu"]["api"], "opengl");
      EXPECT_EQ(j["gpu"]["name"], j["gpu"]["renderer"]);
      EXPECT_TRUE(j["gpu"]["vendor"].is_string());
      EXPECT_TRUE(j["gpu"]["version"].is_string());
      EXPECT_TRUE(j["gpu"]["software"].is_boolean());
    }
  }
  // Where and when: a file carried to another machine must say so.
  EXPECT_TRUE(j["host"].is_string());
  EXPECT_FALSE(j["host"].get<std::string>().empty());
  ASSERT_TRUE(j["date"].is_string());
  EXPECT_EQ(j["date"].get<std::string>().size(), 20u) << j["date"];  // 2026-11-30T12:34:56Z
  EXPECT_EQ(j["date"].get<std::string>().back(), 'Z');
  EXPECT_TRUE(j["warpscope_version"].is_string());
  ASSERT_TRUE(j["results"].is_array());
  ASSERT_EQ(j["results"].size(), 2u);
  const char* expected[] = {"cpu-naive", "cpu-parallel"};
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& res = j["results"][i];
    EXPECT_EQ(res["kernel"], expected[i]);
    EXPECT_EQ(res["device"], "cpu");
    EXPECT_EQ(res["m"], 64);
    EXPECT_EQ(res["n"], 64);
    EXPECT_EQ(res["k"], 64);
    EXPECT_TRUE(res["threads"].is_number_integer());
    EXPECT_GE(res["threads"].get<int>(), 1);
    EXPECT_EQ(res["repeats"], 2);
    for (const char* key : {"ms_median", "ms_min", "gflops", "max_rel_error"}) {
      ASSERT_TRUE(res[key].is_number()) << key;
      EXPECT_GE(res[key].get<double>(), 0.0) << key;
    }
    EXPECT_GT(res["gflops"].get<double>(), 0.0);
    EXPECT_LE(res["ms_min"].get<double>(), res["ms_median"].get<double>());
    EXPECT_LT(res["max_rel_error"].get<double>(), 1e-5);
    EXPECT_TRUE(res["transfer_ms"].is_null());
    EXPECT_EQ(res["verified"], true);
    EXPECT_TRUE(res["skipped"].is_null());
  }
  EXPECT_EQ(j["results"][0]["threads"], 1);  // cpu-naive is one thread whatever --threads says
  EXPECT_EQ(r.err.find("running it anyway"), std::string::npos) << "a 64³ run is not long: " << r.err;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// cpu-naive 4096³, one repeat: 137.4 GFLOP at the built-in 0.4 GFLOP/s is 343.6 s, so bench says
// so before it starts. The run itself is not waited for: the test stops it as a user would, with
// Ctrl+C, as soon as the line is there.
TEST(BenchCli, ALongRunIsAnnouncedOnStderrNotOnStdout) {
  const std::string out_path = ::testing::TempDir() + "bench_long_out_" + std::to_string(getpid()) + ".txt";
  const std::string err_path = ::testing::TempDir() + "bench_long_err_" + std::to_string(getpid()) + ".txt";
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    // A test runner started in the background may ignore SIGINT, and exec keeps that: a terminal's
    // Ctrl+C is what is being imitated, so the default comes back.
    std::signal(SIGINT, SIG_DFL);
    execl(WARPSCOPE_BIN, WARPSCOPE_BIN, "bench", "--kernels", "cpu-naive", "--size", "4096", "--repeats", "1",
          "--json", static_cast<char*>(nullptr));
    _exit(127);
  }
  const std::string expected =
      "warpscope bench: cpu-naive at 4096³: about 5.73 min; running it anyway (Ctrl+C stops)\n";
  std::string err;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (err.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    err = read_all(err_path);
  }
  kill(pid, SIGINT);
  int status = 0;
  bool ended = false;
  for (int i = 0; i < 200 && !ended; ++i) {
    ended = waitpid(pid, &status, WNOHANG) == pid;
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!ended) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  const std::string out = read_all(out_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  EXPECT_TRUE(ended) << "Ctrl+C did not stop it within 2 s";
  EXPECT_EQ(err, expected);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status;
  EXPECT_EQ(out, "") << "the estimate went to stdout, or something was printed before the JSON";
}

// cuda-naive at 16384³ would be announced (17.6 s at the built-in 500 GFLOP/s) if it could run;
// a kernel skipped at once takes no time and gets no estimate.
TEST(BenchCli, AKernelThatCannotRunHereIsNotAnnounced) {
  const auto why = ws::kernels::unavailable_reason("cuda-naive");
  if (!why) GTEST_SKIP() << "a CUDA device is present: cuda-naive 16384³ would really run";
  const BenchRun r = bench("--size 16384 --kernels cuda-naive --repeats 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("running it anyway"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 1u);
  EXPECT_EQ(j["results"][0]["skipped"], *why);
}

TEST(BenchCli, NonSquareShape) {
  const BenchRun r = bench("--m 17 --n 33 --k 65 --kernels cpu-parallel --repeats 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto res = nlohmann::json::parse(r.out)["results"][0];
  EXPECT_EQ(res["m"], 17);
  EXPECT_EQ(res["n"], 33);
  EXPECT_EQ(res["k"], 65);
  EXPECT_EQ(res["verified"], true);
}

TEST(BenchCli, GpuKernelsAreSkippedWithTheReasonWhenTheyCannotRun) {
  const auto why = ws::kernels::unavailable_reason("cuda-tiled");
  if (!why) GTEST_SKIP() << "a CUDA device is present";
  const BenchRun r = bench("--size 32 --kernels cuda-tiled,cublas --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  // No CUDA: the gpu object is OpenGL's renderer where GL works, else null; never a CUDA device.
  EXPECT_TRUE(j["gpu"].is_null() || j["gpu"]["api"] == "opengl") << j["gpu"];
  for (const auto& res : j["results"]) {
    EXPECT_EQ(res["device"], "gpu");
    EXPECT_EQ(res["skipped"], *why);
    EXPECT_EQ(res["verified"], false);
  }
}

TEST(BenchCli, UnknownKernelListsTheValidNames) {
  const BenchRun r = bench("--kernels nope");
  EXPECT_EQ(r.exit_code, 2);
  for (const auto& k : ws::kernels::all_kernels()) EXPECT_NE(r.err.find(k.name), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nope"), std::string::npos);
}

TEST(BenchCli, InvalidSizesAreRejected) {
  EXPECT_EQ(bench("--size 0").exit_code, 2);
  EXPECT_EQ(bench("--size 16385").exit_code, 2);
  const BenchRun r = bench("--m -3 --kernels cpu-naive");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--m"), std::string::npos) << r.err;
}

TEST(BenchCli, TableWithoutJson) {
  const BenchRun r = bench("--size 16 --kernels cpu-naive --repeats 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cpu-naive"), std::string::npos);
  EXPECT_NE(r.out.find("GFLOP/s"), std::string::npos);
  EXPECT_NE(r.out.find("yes"), std::string::npos);
  // A count is worded for its number: "1 repeat", never "1 repeats".
  EXPECT_NE(r.out.find(", 1 repeat\n"), std::string::npos) << r.out;
  const BenchRun three = bench("--size 16 --kernels cpu-naive --repeats 3");
  ASSERT_EQ(three.exit_code, 0) << three.err;
  EXPECT_NE(three.out.find(", 3 repeats\n"), std::string::npos) << three.out;
}

}  // namespace

// The GL kernels need no display: bench makes its own display-less EGL context.
TEST(BenchCli, GlKernelsRunWithDisplayUnsetAndSayWhatRanThem) {
  const auto why = ws::kernels::unavailable_reason("gl-regblock");
  if (why) {
    if (std::getenv("WARPSCOPE_EXPECT_GL") != nullptr) FAIL() << "WARPSCOPE_EXPECT_GL is set but: " << *why;
    GTEST_SKIP() << "no OpenGL context here: " << *why;
  }
  const BenchRun r = bench("--size 40 --kernels gl-naive,gl-regblock --repeats 1 --json", "env -u DISPLAY -u WAYLAND_DISPLAY ");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["gpu"].is_object()) << j.dump();
  if (j["gpu"]["api"] == "opengl") {
    EXPECT_FALSE(j["gpu"]["renderer"].get<std::string>().empty());
    EXPECT_TRUE(j["gpu"]["software"].is_boolean());
  }
  ASSERT_EQ(j["results"].size(), 2u);
  for (const auto& res : j["results"]) {
    EXPECT_EQ(res["skipped"], nullptr) << res.dump();
    EXPECT_EQ(res["verified"], true) << res.dump();
    EXPECT_EQ(res["api"], "opengl");
    EXPECT_FALSE(res["device_name"].get<std::string>().empty());
    const bool software = res["software_renderer"].get<bool>();
    // A software renderer says so in the note, in plain words.
    EXPECT_EQ(res["detail"].get<std::string>().find("software renderer: runs on this CPU") != std::string::npos, software)
        << res["detail"];
    if (j["gpu"]["api"] == "opengl") {
      EXPECT_EQ(software, j["gpu"]["software"].get<bool>());
    }
  }
}
