// The kernel registry and the machine facts printed next to every measured figure.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "warpscope/kernels/job.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::kernels {
namespace {

TEST(Registry, ListsEveryKernelCpuFirst) {
  std::vector<std::string> names;
  for (const auto& k : all_kernels()) names.push_back(k.name);
  EXPECT_EQ(names, (std::vector<std::string>{"cpu-naive", "cpu-parallel", "cpu-blas", "cuda-naive", "cuda-tiled",
                                             "cuda-regblock", "cuda-warptiled", "cuda-tensor", "cublas", "cublas-tf32",
                                             "cublas-bf16", "cuda-multi", "gl-naive", "gl-tiled", "gl-regblock"}));
  EXPECT_TRUE(is_gl_kernel("gl-tiled"));
  EXPECT_FALSE(is_gl_kernel("cuda-tiled"));
  EXPECT_EQ(find_kernel("gl-regblock")->device, Device::gpu);
  for (const auto& k : all_kernels()) EXPECT_FALSE(k.description.empty());
  EXPECT_TRUE(find_kernel("cpu-parallel")->uses_threads);
  EXPECT_FALSE(find_kernel("cpu-naive")->uses_threads);
  EXPECT_EQ(find_kernel("nope"), nullptr);
  EXPECT_STREQ(to_string(Device::gpu), "gpu");
}

TEST(Registry, CpuKernelsRunHere) {
  EXPECT_FALSE(unavailable_reason("cpu-naive").has_value());
  EXPECT_FALSE(unavailable_reason("cpu-parallel").has_value());
#ifdef WARPSCOPE_HAVE_OPENBLAS
  EXPECT_FALSE(unavailable_reason("cpu-blas").has_value());
  EXPECT_NE(blas_core_name(), "none");
#else
  EXPECT_EQ(unavailable_reason("cpu-blas").value_or(""), "built without OpenBLAS");
#endif
  EXPECT_TRUE(unavailable_reason("nope").has_value());
}

TEST(SystemInfo, DescribesTheCpu) {
  const CpuInfo& cpu = cpu_info();
  EXPECT_FALSE(cpu.name.empty());
  EXPECT_GE(cpu.cores, 1);
  const std::set<std::string> levels{"avx512", "avx2+fma", "avx", "sse4.2", "sse2"};
  EXPECT_TRUE(levels.count(cpu.simd)) << cpu.simd;
  // The lanes agree with the level the OS lets this process use.
  EXPECT_EQ(cpu.fp32_lanes, cpu.simd == "avx512" ? 16 : (cpu.simd == "avx2+fma" || cpu.simd == "avx") ? 8 : 4);
  EXPECT_GE(cpu.fma_units, 1);
  EXPECT_LE(cpu.fma_units, 2);
  EXPECT_FALSE(cpu.simd_name.empty());
}

}  // namespace
}  // namespace ws::kernels
