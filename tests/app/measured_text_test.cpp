#include "core/measured_text.hpp"
#include "warpscope/kernels/system_info.hpp"

#include <gtest/gtest.h>

using namespace ws;

namespace {
kernels::JobResult result(const char* kernel, kernels::Device d, double ms, int threads = 2) {
  kernels::JobResult r;
  r.kernel = kernel;
  r.device = d;
  r.shape = {2048, 2048, 2048};
  r.ms_median = ms;
  r.threads = threads;
  r.verified = true;
  return r;
}
}  // namespace

TEST(MeasuredText, ShapesAndRatios) {
  EXPECT_EQ(app::format_shape({2048, 2048, 2048}), "2048³");
  EXPECT_EQ(app::format_shape({1000, 777, 333}), "1000×777×333");
  EXPECT_EQ(app::format_ratio(143.4), "143");
  EXPECT_EQ(app::format_ratio(18.46), "18.5");
  EXPECT_EQ(app::format_ratio(2.314), "2.31");
}

TEST(MeasuredText, SpeedupSentenceFromMeasuredTimes) {
  const auto gpu = result("cublas", kernels::Device::gpu, 1.0);
  const auto cpu = result("cpu-parallel", kernels::Device::cpu, 143.0);
  EXPECT_EQ(app::speedup_sentence(gpu, cpu, lesson::Language::en).value(), "GPU is 143× faster than 2 CPU threads at 2048³");
  const auto slow_gpu = result("cuda-naive", kernels::Device::gpu, 300.0);
  EXPECT_EQ(app::speedup_sentence(slow_gpu, cpu, lesson::Language::en).value(), "2 CPU threads are 2.10× faster than the GPU at 2048³");
}

TEST(MeasuredText, NoRatioFromAWrongSkippedOrMismatchedResult) {
  auto gpu = result("cublas", kernels::Device::gpu, 1.0);
  auto cpu = result("cpu-naive", kernels::Device::cpu, 100.0, 1);
  EXPECT_TRUE(app::speedup_sentence(gpu, cpu, lesson::Language::en).has_value());
  gpu.verified = false;
  EXPECT_FALSE(app::speedup_sentence(gpu, cpu, lesson::Language::en).has_value());
  gpu.verified = true;
  gpu.skipped = "no CUDA driver";
  EXPECT_FALSE(app::speedup_sentence(gpu, cpu, lesson::Language::en).has_value());
  gpu.skipped.reset();
  gpu.shape.k = 1024;
  EXPECT_FALSE(app::speedup_sentence(gpu, cpu, lesson::Language::en).has_value());
}

// The detail of a cpu-blas run carries kernels::blas_core_note() in English; the panel words it
// again in the interface's language from the same state, in each of the four cases.
TEST(MeasuredText, OpenBlasCoreWordedInEitherLanguage) {
  using ws::lesson::Language;
  kernels::BlasCoreState plain{"Zen", "OpenBLAS 0.3.21", "", "", false, false, "", ""};
  kernels::BlasCoreState user{"Haswell", "OpenBLAS 0.3.21", "", "Haswell", true, false, "", ""};
  kernels::BlasCoreState corrected{"SkylakeX", "OpenBLAS 0.3.21", "Prescott", "SkylakeX", false, false, "", ""};
  kernels::BlasCoreState ignored{"Prescott", "OpenBLAS 0.3.21", "Prescott", "SkylakeX", false, true, "", ""};
  EXPECT_EQ(app::openblas_core_words(plain, Language::en), "OpenBLAS core: Zen");
  EXPECT_EQ(app::openblas_core_words(user, Language::en), "OpenBLAS core: Haswell (OPENBLAS_CORETYPE=Haswell set by the user)");
  EXPECT_EQ(app::openblas_core_words(user, Language::ko), "OpenBLAS 코어: Haswell (사용자 설정: OPENBLAS_CORETYPE=Haswell)");
  EXPECT_EQ(app::openblas_core_words(corrected, Language::ko), "OpenBLAS 코어: SkylakeX (OpenBLAS의 추정은 Prescott)");
  EXPECT_EQ(app::openblas_core_words(corrected, Language::en), "OpenBLAS core: SkylakeX (OpenBLAS guessed Prescott)");
  EXPECT_EQ(app::openblas_core_words(ignored, Language::ko),
            "OpenBLAS 코어: Prescott (OpenBLAS가 따르지 않은 설정: OPENBLAS_CORETYPE=SkylakeX)");

  const std::string detail = "2 threads; OpenBLAS core Haswell (OPENBLAS_CORETYPE=Haswell set by the user); packed";
  EXPECT_EQ(app::detail_words(detail, user, Language::ko),
            "2 threads; OpenBLAS 코어: Haswell (사용자 설정: OPENBLAS_CORETYPE=Haswell); packed");
  EXPECT_EQ(app::detail_words("OpenBLAS core Zen", plain, Language::en), "OpenBLAS core: Zen");
  EXPECT_EQ(app::detail_words("no core named here", plain, Language::ko), "no core named here");

  // A user's core older than the CPU says so: that is why cpu-blas runs at half speed.
  kernels::BlasCoreState older = user;
  older.core_isa = "AVX2+FMA";
  older.cpu_isa = "AVX-512";
  EXPECT_EQ(app::openblas_core_words(older, Language::en),
            "OpenBLAS core: Haswell (OPENBLAS_CORETYPE=Haswell set by the user: AVX2+FMA on a CPU with AVX-512)");
  EXPECT_EQ(app::openblas_core_words(older, Language::ko),
            "OpenBLAS 코어: Haswell (사용자 설정: OPENBLAS_CORETYPE=Haswell, AVX2+FMA 사용, 이 CPU는 AVX-512 지원)");
}

// Every kernel of the registry has a Korean line for the picker, and the table's English is the
// registry's own, so the two cannot drift apart.
TEST(MeasuredText, EveryKernelIsDescribedInBothLanguages) {
  for (const auto& k : kernels::all_kernels()) {
    SCOPED_TRACE(k.name);
    EXPECT_EQ(app::kernel_description(k, lesson::Language::en), k.description);
    EXPECT_STREQ(lesson::tr("kernel_desc." + k.name, lesson::Language::en), k.description.c_str());
    const std::string ko = app::kernel_description(k, lesson::Language::ko);
    EXPECT_NE(ko.find_first_of("\xea\xeb\xec\xed"), std::string::npos) << "no Hangul: " << ko;
  }
  const kernels::KernelInfo unknown{"cpu-future", kernels::Device::cpu, "not in the tables yet", false};
  EXPECT_EQ(app::kernel_description(unknown, lesson::Language::ko), "not in the tables yet");
}

// Every note the kernels write into `detail` (in English: kernels/ has no UI language), as they
// write it, is worded in Korean on the Korean screen; English keeps them as they are.
TEST(MeasuredText, EveryDetailNoteIsWordedInKorean) {
  using ws::lesson::Language;
  const kernels::BlasCoreState zen{"Zen", "OpenBLAS 0.3.21", "", "", false, false, "", ""};
  const std::pair<const char*, const char*> notes[] = {
      {"no warm-up run (one run estimated at 43 s)", "워밍업 실행 없음 (한 번에 약 43 s 예상)"},
      {"AVX2+FMA 6x16 micro-kernel, KC 1024 MC 510 NC 4096 from the cache sizes",
       "AVX2+FMA 6x16 마이크로커널, 캐시 크기로 정한 KC 1024 MC 510 NC 4096"},
      {"A packed once, B packed by column chunks", "A는 한 번만 패킹, B는 열 묶음마다 패킹"},
      {"AVX-512 row dots: few columns of B, A read in place, no packing",
       "AVX-512 행 내적: B의 열이 적어 A를 패킹 없이 제자리에서 읽음"},
      {"AVX2+FMA row broadcasts: few columns of B, A read in place, no packing",
       "AVX2+FMA 행 브로드캐스트: B의 열이 적어 A를 패킹 없이 제자리에서 읽음"},
      {"llvmpipe (LLVM 15.0.6, 256 bits), a software renderer: runs on this CPU",
       "llvmpipe (LLVM 15.0.6, 256 bits), 소프트웨어 렌더러: 이 CPU에서 실행"},
      {"timed by GL timer queries", "GL 타이머 쿼리로 측정"},
      {"timed by glFinish + steady clock (GL timer not meaningful on this renderer)",
       "glFinish + steady clock으로 측정 (이 렌더러에서는 GL 타이머가 의미 없음)"},
      {"12 NaN/Inf values in C", "C에 NaN/Inf 값 12개"},
      {"bf16 inputs: max relative error 3.91e-03 against the fp32 inputs' product",
       "bf16 입력: fp32 입력의 곱 대비 최대 상대 오차 3.91e-03"},
      {"libcublas.so.13 (loaded at run time)", "libcublas.so.13 (실행 중에 불러옴)"},
      {"copies from pinned host memory (cudaHostRegister)", "고정(pinned) 호스트 메모리에서 복사 (cudaHostRegister)"},
      {"copies from pageable host memory (cudaHostRegister refused)",
       "페이지 가능 호스트 메모리에서 복사 (cudaHostRegister 거부됨)"},
      {"4 launches of 4096 rows each, so that a cancel waits for at most two",
       "4096행씩 4번 실행 (취소가 최대 두 번만 기다리도록)"},
      {"column split over 2 GPUs, no peer copies", "GPU 2개에 열을 나눔, GPU 간 복사 없음"},
      {"GPU 1 NVIDIA H200: columns 2048..4095, last multiply 1.234000 ms (CUDA events)",
       "GPU 1 NVIDIA H200: 열 2048..4095, 마지막 곱셈 1.234000 ms (CUDA 이벤트)"},
      {"scalar loads: k = 1025 is not a multiple of 4 (float4)", "스칼라 로드: k = 1025, 4의 배수가 아님 (float4)"},
      {"scalar loads: n = 1000 is not a multiple of 8 (8 bf16 per 16-byte load)",
       "스칼라 로드: n = 1000, 8의 배수가 아님 (16바이트 로드마다 bf16 8개)"},
      {"vector loads (float4)", "벡터 로드 (float4)"},
      {"vector loads (8 bf16 per 16-byte load)", "벡터 로드 (16바이트 로드마다 bf16 8개)"},
  };
  for (const auto& [en, ko] : notes) {
    EXPECT_EQ(app::detail_words(en, zen, Language::ko), ko);
    EXPECT_EQ(app::detail_words(en, zen, Language::en), en);
  }
  // Why CUDA or OpenGL cannot run, as kernels/ says it.
  const std::pair<const char*, const char*> statuses[] = {
      {"no CUDA driver: cudaErrorInsufficientDriver", "CUDA 드라이버 없음: cudaErrorInsufficientDriver"},
      {"no CUDA device: cudaErrorNoDevice", "CUDA 장치 없음: cudaErrorNoDevice"},
      {"no CUDA device", "CUDA 장치 없음"},
      {"CUDA driver too old for this build: cudaErrorInsufficientDriver (the driver supports CUDA 12.4, the build "
       "needs CUDA 13.0)",
       "이 빌드에는 CUDA 드라이버가 너무 오래됨: cudaErrorInsufficientDriver (드라이버는 CUDA 12.4까지, 빌드는 CUDA 13.0 필요)"},
      {"CUDA driver too old for this build: cudaErrorInsufficientDriver",
       "이 빌드에는 CUDA 드라이버가 너무 오래됨: cudaErrorInsufficientDriver"},
      {"CUDA unavailable: cudaErrorOperatingSystem", "CUDA를 쓸 수 없음: cudaErrorOperatingSystem"},
      {"CUDA device Tesla K80 (cc 3.7) is older than the oldest architecture built (sm_75)",
       "CUDA 장치 Tesla K80 (cc 3.7): 빌드된 가장 오래된 아키텍처(sm_75)보다 오래됨"},
      {"built without the CUDA toolkit", "CUDA 툴킷 없이 빌드됨"},
      {"no OpenGL device", "OpenGL 장치 없음"},
      {"OpenGL ES 3.2 Mesa 22.3.6 is OpenGL ES; the compute kernels need desktop OpenGL 4.3",
       "OpenGL ES 3.2 Mesa 22.3.6: OpenGL ES라서 안 됨, 컴퓨트 커널에는 데스크톱 OpenGL 4.3이 필요"},
      {"built without OpenBLAS", "OpenBLAS 없이 빌드됨"},
      {"needs 2 CUDA GPUs; this machine has 1", "CUDA GPU 2개 필요, 이 컴퓨터에는 1개"},
      {"needs 2 CUDA GPUs; this machine has 0 (built without the CUDA toolkit)",
       "CUDA GPU 2개 필요, 이 컴퓨터에는 0개 (CUDA 툴킷 없이 빌드됨)"},
      {"cuda-tensor needs tensor cores with BF16 (cc 8.0 or newer); Tesla V100 is cc 7.0",
       "cuda-tensor에는 BF16 텐서 코어가 필요 (cc 8.0 이상), Tesla V100: cc 7.0"},
      {"needs 3.0 GiB of host memory, 1.2 GiB available", "호스트 메모리 3.0 GiB 필요, 사용 가능 1.2 GiB"},
      {"needs 48.0 MiB of GPU memory, 12.5 MiB available", "GPU 메모리 48.0 MiB 필요, 사용 가능 12.5 MiB"},
      {"could not allocate 3.0 GiB of host memory", "호스트 메모리 3.0 GiB 할당 실패"},
      {"could not run: not enough memory", "실행할 수 없음: 메모리 부족"},
  };
  for (const auto& [en, ko] : statuses) {
    EXPECT_EQ(app::kernels_words(en, Language::ko), ko);
    EXPECT_EQ(app::kernels_words(en, Language::en), en);
  }
  // This machine's own status, whatever it is, never comes back empty.
  EXPECT_FALSE(app::kernels_words(kernels::gpu_status(), Language::ko).empty());

  // Several notes in one line, each worded on its own; the OpenBLAS core among them.
  EXPECT_EQ(app::detail_words("NVIDIA H200; vector loads (float4); OpenBLAS core Zen", zen, Language::ko),
            "NVIDIA H200; 벡터 로드 (float4); OpenBLAS 코어: Zen");
}

// The real cpu-parallel job's detail, as this machine's kernel writes it, comes out in Korean:
// the micro-kernel's where it runs, else the row broadcasts of a wide B (AVX-512; AVX2 in small products).
TEST(MeasuredText, TheParallelKernelsRealDetailIsWordedInKorean) {
  kernels::JobRequest request;
  request.kernel = "cpu-parallel";
  request.shape = {16, 97, 16};  // wider than the narrow-B orders take
  request.threads = 1;
  request.repeats = 1;
  kernels::JobControl control;
  const kernels::JobResult r = kernels::run_job(request, control);
  ASSERT_TRUE(r.verified) << r.detail;
  const bool micro = r.detail.find("micro-kernel") != std::string::npos;
  ASSERT_TRUE(micro || r.detail.find("row broadcasts: A and B read in place") != std::string::npos) << r.detail;
  const std::string ko = app::detail_words(r.detail, kernels::blas_core_state(), lesson::Language::ko);
  EXPECT_NE(ko.find(micro ? "마이크로커널, 캐시 크기로 정한 KC " : "행 브로드캐스트: A와 B를 패킹 없이"), std::string::npos)
      << ko;
  for (const char* english : {"micro-kernel", "row broadcasts", "packing"}) EXPECT_EQ(ko.find(english), std::string::npos) << ko;
  EXPECT_EQ(app::detail_words("AVX-512 row broadcasts: A and B read in place, B by column blocks, no packing",
                              kernels::blas_core_state(), lesson::Language::ko),
            "AVX-512 행 브로드캐스트: A와 B를 패킹 없이 제자리에서 읽음, B는 열 블록 단위");
}
