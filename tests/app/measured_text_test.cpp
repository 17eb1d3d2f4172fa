#include "core/measured_text.hpp"

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
  EXPECT_EQ(app::openblas_core_words(corrected, Language::ko), "OpenBLAS 코어: SkylakeX (OpenBLAS가 스스로 감지한 코어는 Prescott)");
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
