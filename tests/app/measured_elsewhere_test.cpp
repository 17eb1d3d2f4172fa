// Runs measured on another machine: reading bench JSON, refusing broken or foreign files with one
// line, and choosing which GPU the speed sentence may compare with.
#include "core/measured_elsewhere.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/assets.hpp"
#include "core/measured_text.hpp"
#include "core/real_run_session.hpp"

using namespace ws;

namespace {

// The shape `warpscope bench --json` writes (cli_bench.cpp); test data, not a real measurement.
const char* kServerJson = R"({
  "cpu": {"name": "Server CPU", "cores": 64, "simd": "avx512"},
  "gpu": {"api": "cuda", "name": "Test GPU", "cc": "9.0", "sm_count": 132, "memory_bytes": 1},
  "host": "gpu-server", "date": "2026-11-30T10:11:12Z", "warpscope_version": "0.1.0",
  "results": [
    {"kernel": "cpu-parallel", "device": "cpu", "m": 256, "n": 256, "k": 256, "threads": 64, "repeats": 3,
     "ms_median": 0.5, "ms_min": 0.4, "gflops": 67.1, "transfer_ms": null, "verified": true,
     "max_rel_error": 1e-7, "checked_elements": 65536, "skipped": null, "detail": "", "api": null,
     "device_name": null, "software_renderer": false},
    {"kernel": "cuda-naive", "device": "gpu", "m": 256, "n": 256, "k": 256, "threads": 0, "repeats": 3,
     "ms_median": 0.02, "ms_min": 0.02, "gflops": 1677.7, "transfer_ms": 0.1, "verified": true,
     "max_rel_error": 1e-7, "checked_elements": 65536, "skipped": null, "detail": "", "api": "cuda",
     "device_name": "Test GPU", "software_renderer": false},
    {"kernel": "cublas", "device": "gpu", "m": 256, "n": 256, "k": 256, "threads": 0, "repeats": 3,
     "ms_median": 0.01, "ms_min": 0.01, "gflops": 3355.4, "transfer_ms": 0.1, "verified": true,
     "max_rel_error": 1e-7, "checked_elements": 65536, "skipped": null, "detail": "", "api": "cuda",
     "device_name": "Test GPU", "software_renderer": false},
    {"kernel": "cublas-bf16", "device": "gpu", "m": 256, "n": 256, "k": 256, "threads": 0, "repeats": 3,
     "ms_median": 0.002, "ms_min": 0.002, "gflops": 16777.2, "transfer_ms": 0.1, "verified": true,
     "max_rel_error": 1e-7, "checked_elements": 65536, "skipped": null, "detail": "", "api": "cuda",
     "device_name": "Test GPU", "software_renderer": false, "input_format": "bf16"},
    {"kernel": "gl-naive", "device": "gpu", "m": 256, "n": 256, "k": 256, "skipped": "no EGL display"}
  ]
})";

kernels::JobResult cpu_here(int size, double ms) {
  kernels::JobResult r;
  r.kernel = "cpu-parallel";
  r.device = kernels::Device::cpu;
  r.shape = {size, size, size};
  r.threads = 2;
  r.ms_median = ms;
  r.gflops = r.shape.flops() / (ms * 1e6);
  r.verified = true;
  return r;
}

}  // namespace

TEST(MeasuredElsewhere, ReadsABenchFileWithWhereAndWhen) {
  const auto load = app::parse_measured_json(kServerJson, "/some/dir/h200.json");
  ASSERT_TRUE(load.run.has_value()) << load.error;
  const auto& run = *load.run;
  EXPECT_EQ(run.host, "gpu-server");
  EXPECT_EQ(run.short_date(), "2026-11-30");
  EXPECT_EQ(run.gpu_name, "Test GPU");
  ASSERT_EQ(run.results.size(), 4u);  // the skipped gl-naive is left out
  EXPECT_EQ(run.results[2].kernel, "cublas");
  EXPECT_DOUBLE_EQ(run.results[2].gflops, 3355.4);
  EXPECT_TRUE(run.results[2].transfer_ms.has_value());
  EXPECT_EQ(run.label(run.results[2], lesson::Language::en), "measured on Test GPU (gpu-server, 2026-11-30)");
  EXPECT_EQ(run.label(run.results[0], lesson::Language::en), "measured on Server CPU (gpu-server, 2026-11-30)");
  // In the Korean UI (the history's legend, the roofline's points) the where and when are Korean.
  EXPECT_EQ(run.label(run.results[2], lesson::Language::ko), "Test GPU에서 측정 (gpu-server, 2026-11-30)");
}

TEST(MeasuredElsewhere, BrokenForeignAndOldFilesGiveOneLineNamingTheFile) {
  const auto broken = app::parse_measured_json("{\"results\": [1, 2", "/tmp/broken.json");
  EXPECT_FALSE(broken.run.has_value());
  EXPECT_EQ(broken.error.rfind("broken.json: not valid JSON: ", 0), 0u) << broken.error;
  EXPECT_NE(broken.error.find("line 1"), std::string::npos) << broken.error;
  EXPECT_EQ(broken.error.find('\n'), std::string::npos);

  const auto foreign = app::parse_measured_json(R"({"name": "package", "version": "1.0"})", "package.json");
  EXPECT_FALSE(foreign.run.has_value());
  EXPECT_EQ(foreign.error.rfind("package.json: not a warpscope bench file", 0), 0u) << foreign.error;

  std::string old = kServerJson;
  old.replace(old.find("\"host\""), std::string("\"host\"").size(), "\"hostname\"");
  const auto without_host = app::parse_measured_json(old, "old.json");
  EXPECT_FALSE(without_host.run.has_value());
  EXPECT_NE(without_host.error.find("neither where nor when"), std::string::npos) << without_host.error;

  std::string bad_value = kServerJson;
  bad_value.replace(bad_value.find("\"ms_median\": 0.02"), std::string("\"ms_median\": 0.02").size(),
                    "\"ms_median\": \"fast\"");
  const auto bad = app::parse_measured_json(bad_value, "bad.json");
  EXPECT_FALSE(bad.run.has_value());
  EXPECT_EQ(bad.error, "bad.json: results[1]: \"ms_median\" is missing or not a number");

  const auto missing = app::load_measured_file("/nonexistent/warpscope/h100.json");
  EXPECT_FALSE(missing.run.has_value());
  EXPECT_EQ(missing.error.rfind("h100.json: cannot be read", 0), 0u) << missing.error;
}

TEST(MeasuredElsewhere, DirectoryLoadsEveryJsonFileInNameOrder) {
  const std::string dir = ::testing::TempDir() + "measured_dir_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/b.json") << kServerJson;
  std::ofstream(dir + "/a.json") << "not json";
  std::ofstream(dir + "/README.md") << "# not a run";
  const auto loads = app::load_measured_dir(dir);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_FALSE(loads[0].run.has_value());
  EXPECT_EQ(loads[0].error.rfind("a.json:", 0), 0u);
  EXPECT_TRUE(loads[1].run.has_value());
  EXPECT_TRUE(app::load_measured_dir(dir + "/does-not-exist").empty());
  std::filesystem::remove_all(dir);
}

TEST(MeasuredElsewhere, ElsewhereGpuStandsInOnlyWithoutAHardwareGpuAndForTheSameShape) {
  std::vector<app::MeasuredElsewhere> elsewhere{*app::parse_measured_json(kServerJson, "h200.json").run};
  const auto cpu = cpu_here(256, 33.5);

  // No GPU here: the fastest verified fp32 GPU run of the same shape, named with where and when;
  // the five times faster cublas-bf16 run multiplies BF16 inputs, which the CPU does not.
  ASSERT_EQ(elsewhere[0].results[3].kernel, "cublas-bf16");
  EXPECT_EQ(elsewhere[0].results[3].input_format, "bf16");
  auto side = app::comparison_gpu(nullptr, &cpu, false, elsewhere);
  ASSERT_TRUE(side.has_value());
  EXPECT_TRUE(side->elsewhere);
  EXPECT_EQ(side->result->kernel, "cublas");
  EXPECT_EQ(app::comparison_gpu_name(*side, lesson::Language::en), "Test GPU (measured on gpu-server, 2026-11-30)");
  EXPECT_EQ(elsewhere[0].file_label(lesson::Language::en), "measured on Test GPU (gpu-server, 2026-11-30)");
  EXPECT_EQ(elsewhere[0].file_label(lesson::Language::ko), "Test GPU에서 측정 (gpu-server, 2026-11-30)");
  EXPECT_EQ(app::elsewhere_speedup_sentence(*side, cpu, lesson::Language::en).value(),
            "Test GPU (measured on gpu-server, 2026-11-30) is 3350× faster than 2 CPU threads here at 256³");
  // In Korean the where and when are Korean too, not "measured on".
  const std::string ko = app::elsewhere_speedup_sentence(*side, cpu, lesson::Language::ko).value();
  // The particle agrees with the device's name ("GPU" ends on 유: 가), never the undecided "이(가)".
  EXPECT_NE(ko.find("Test GPU (gpu-server에서 측정, 2026-11-30)가 이 컴퓨터의"), std::string::npos) << ko;
  EXPECT_EQ(ko.find("measured"), std::string::npos) << ko;
  EXPECT_EQ(app::comparison_speedup_sentence(*side, cpu, lesson::Language::ko), ko) << "the panel's sentence";
  auto h200 = *side;
  h200.device = "NVIDIA H200";  // 이백: a final consonant
  const std::string ko_h200 = app::elsewhere_speedup_sentence(h200, cpu, lesson::Language::ko).value();
  EXPECT_NE(ko_h200.find("NVIDIA H200 (gpu-server에서 측정, 2026-11-30)이 이 컴퓨터의"), std::string::npos) << ko_h200;

  // Another shape: nothing compares.
  const auto other = cpu_here(512, 100);
  EXPECT_FALSE(app::comparison_gpu(nullptr, &other, false, elsewhere).has_value());

  // A hardware GPU here is never replaced by one measured elsewhere.
  EXPECT_FALSE(app::comparison_gpu(nullptr, &cpu, true, elsewhere).has_value());
  kernels::JobResult here = cpu_here(256, 1.0);
  here.kernel = "gl-regblock";
  here.device = kernels::Device::gpu;
  here.device_name = "AMD Radeon 780M";
  side = app::comparison_gpu(&here, &cpu, true, elsewhere);
  ASSERT_TRUE(side.has_value());
  EXPECT_FALSE(side->elsewhere);
  EXPECT_EQ(side->result, &here);

  // A software renderer is not a GPU: the run measured elsewhere stands in for it.
  here.software_renderer = true;
  side = app::comparison_gpu(&here, &cpu, false, elsewhere);
  ASSERT_TRUE(side.has_value());
  EXPECT_TRUE(side->elsewhere);

  // An unverified run elsewhere never stands in.
  elsewhere[0].results[1].verified = false;
  elsewhere[0].results[2].verified = false;
  EXPECT_FALSE(app::comparison_gpu(nullptr, &cpu, false, elsewhere).has_value());
}

TEST(MeasuredElsewhere, SoftwareRendererNeverEntersTheSpeedSentence) {
  auto gpu = cpu_here(256, 1.0);
  gpu.kernel = "gl-regblock";
  gpu.device = kernels::Device::gpu;
  const auto cpu = cpu_here(256, 10.0);
  EXPECT_TRUE(app::speedup_sentence(gpu, cpu, lesson::Language::en).has_value());
  gpu.software_renderer = true;
  EXPECT_FALSE(app::speedup_sentence(gpu, cpu, lesson::Language::en).has_value());
}

TEST(DefaultGpuKernel, CublasThenHardwareGlThenNoneWithTheReason) {
  EXPECT_EQ(app::choose_default_gpu_kernel(std::nullopt, std::nullopt, false, "NVIDIA H200").kernel, "cublas");
  EXPECT_EQ(app::choose_default_gpu_kernel(std::string("no CUDA driver"), std::nullopt, false, "AMD Radeon 780M").kernel,
            "gl-regblock");
  const auto software = app::choose_default_gpu_kernel(std::string("no CUDA driver"), std::nullopt, true, "llvmpipe");
  EXPECT_EQ(software.kernel, "");
  const std::string software_why = app::why_no_gpu_words(software, lesson::Language::en);
  EXPECT_NE(software_why.find("no CUDA driver"), std::string::npos);
  EXPECT_NE(software_why.find("llvmpipe is a software renderer"), std::string::npos);
  const auto nothing = app::choose_default_gpu_kernel(std::string("built without the CUDA toolkit"),
                                                      std::string("no EGL display"), false, "");
  EXPECT_EQ(nothing.kernel, "");
  EXPECT_NE(app::why_no_gpu_words(nothing, lesson::Language::en).find("no EGL display"), std::string::npos);

  // The tooltip in Korean: the parts kernels/ wrote are worded where their form is known.
  const auto here = app::choose_default_gpu_kernel(std::string("no CUDA driver: cudaErrorInsufficientDriver"),
                                                   std::nullopt, true, "llvmpipe (LLVM 15.0.6, 256 bits)");
  EXPECT_EQ(app::why_no_gpu_words(here, lesson::Language::ko),
            "여기서는 GPU 커널이 돌지 않습니다. CUDA: CUDA 드라이버 없음: cudaErrorInsufficientDriver. "
            "OpenGL: llvmpipe (LLVM 15.0.6, 256 bits): 소프트웨어 렌더러, 이 CPU에서 계산.");
  EXPECT_EQ(app::why_no_gpu_words(here, lesson::Language::en),
            "no GPU kernel runs here. CUDA: no CUDA driver: cudaErrorInsufficientDriver. OpenGL: llvmpipe (LLVM "
            "15.0.6, 256 bits) is a software renderer: it computes on this CPU.");
  EXPECT_EQ(app::why_no_gpu_words(nothing, lesson::Language::ko),
            "여기서는 GPU 커널이 돌지 않습니다. CUDA: CUDA 툴킷 없이 빌드됨. OpenGL: no EGL display.");
  EXPECT_EQ(app::why_no_gpu_words(app::choose_default_gpu_kernel(std::nullopt, std::nullopt, false, "H200"),
                                  lesson::Language::ko),
            "");
}

TEST(DefaultGpuKernel, LessonCudaKernelsGetTheirGlTwinOnlyWhereCudaCannotRunAndGlRunsOnAGpu) {
  const app::DefaultGpuKernel gl_gpu{"gl-regblock", "", "", ""};
  EXPECT_EQ(app::stand_in_gpu_kernel("cublas", false, gl_gpu), "gl-regblock");
  EXPECT_EQ(app::stand_in_gpu_kernel("cuda-naive", false, gl_gpu), "gl-naive");
  EXPECT_EQ(app::stand_in_gpu_kernel("cuda-tiled", false, gl_gpu), "gl-tiled");
  EXPECT_EQ(app::stand_in_gpu_kernel("cuda-regblock", false, gl_gpu), "gl-regblock");
  EXPECT_EQ(app::stand_in_gpu_kernel("cublas", true, gl_gpu), "cublas");  // CUDA works: keep it
  const app::DefaultGpuKernel none{"", "no GPU kernel runs here", "", ""};
  EXPECT_EQ(app::stand_in_gpu_kernel("cublas", false, none), "cublas");  // skipped, with its reason
  EXPECT_EQ(app::stand_in_gpu_kernel("cuda-tiled", false, {"cublas", "", "", ""}), "cuda-tiled");
}

TEST(DefaultCpuKernel, LessonCpuBlasRunsAsCpuParallelOnlyWhereOpenBlasIsMissing) {
  EXPECT_EQ(app::stand_in_cpu_kernel("cpu-blas", false), "cpu-parallel");
  EXPECT_EQ(app::stand_in_cpu_kernel("cpu-blas", true), "cpu-blas");
  EXPECT_EQ(app::stand_in_cpu_kernel("cpu-naive", false), "cpu-naive");  // never skipped; kept as named
  EXPECT_EQ(app::stand_in_cpu_kernel("cpu-parallel", true), "cpu-parallel");
}

TEST(MeasuredElsewhere, AbsurdCountsAreClampedNotCastOutOfRange) {
  std::string text = kServerJson;
  text.replace(text.find("\"threads\": 64"), std::string("\"threads\": 64").size(), "\"threads\": 1e300");
  text.replace(text.find("\"checked_elements\": 65536"), std::string("\"checked_elements\": 65536").size(),
               "\"checked_elements\": -5");
  const auto load = app::parse_measured_json(text, "absurd.json");
  ASSERT_TRUE(load.run.has_value()) << load.error;
  EXPECT_EQ(load.run->results[0].threads, 1000000);
  EXPECT_EQ(load.run->results[0].checked_elements, 0u);
}

TEST(MeasuredElsewhere, ShippedRunsAreOfferedFromSubfoldersOnly) {
  const std::string dir = ::testing::TempDir() + "shipped_dir_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/b");
  std::filesystem::create_directories(dir + "/a");
  std::ofstream(dir + "/top.json") << kServerJson;  // shown unasked, not offered
  std::ofstream(dir + "/b/x.json") << kServerJson;
  std::ofstream(dir + "/a/y.json") << kServerJson;
  std::ofstream(dir + "/a/README.md") << "# not a run";
  const auto files = app::shipped_measured_files(dir);
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(std::filesystem::path(files[0]).filename(), "y.json");
  EXPECT_EQ(std::filesystem::path(files[1]).filename(), "x.json");
  EXPECT_TRUE(app::shipped_measured_files(dir + "/missing").empty());
  std::filesystem::remove_all(dir);
}

// The runs warpscope ships are real H200 runs (docs/PERFORMANCE.md): every one readable, every
// GPU result verified, and the fp32 rule holds on them: at 1024³ cuBLAS fp32 stands in for the
// GPU, though cublas-bf16 and cuda-tensor in the same file are faster.
TEST(MeasuredElsewhere, TheShippedH200RunsAreVerifiedAndCompareLikeForLike) {
  const auto files = app::shipped_measured_files(app::assets_dir() + "/measured");
  ASSERT_GE(files.size(), 2u);
  std::vector<app::MeasuredElsewhere> runs;
  for (const auto& f : files) {
    auto load = app::load_measured_file(f);
    ASSERT_TRUE(load.run.has_value()) << load.error;
    EXPECT_EQ(load.run->gpu_name, "NVIDIA H200") << f;
    EXPECT_FALSE(load.run->host.empty());
    for (const auto& r : load.run->results) {
      if (r.device == kernels::Device::gpu) {
        EXPECT_TRUE(r.verified) << f << " " << r.kernel;
      }
    }
    runs.push_back(std::move(*load.run));
  }
  EXPECT_EQ(app::shipped_run_title(runs[0]), "NVIDIA H200, 1024³ (vm, 2026-12-04)");
  const auto cpu = cpu_here(1024, 20.0);
  const auto side = app::comparison_gpu(nullptr, &cpu, false, runs);
  ASSERT_TRUE(side.has_value());
  EXPECT_EQ(side->result->kernel, "cublas");
  EXPECT_EQ(side->result->input_format, "fp32");
  double fastest = 0;
  for (const auto& r : runs[0].results) fastest = std::max(fastest, r.gflops);
  EXPECT_GT(fastest, 2 * side->result->gflops) << "the file holds faster BF16/TF32 runs the CPU is not compared with";
}

