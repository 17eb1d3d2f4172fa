// What CUDA's answers mean, without a GPU: the availability reasons (the architecture limit before
// the driver), which errors need a device reset, a launch that must not inherit an earlier failure,
// cuBLAS as a run-time library, and the build's ptxas report.

#include <gtest/gtest.h>

#include <string>

#include "cuda/build_resources.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_status.hpp"
#include "cuda/error_latch.hpp"
#include "cuda/shared_library.hpp"
#include "cuda/tile_layout.hpp"

namespace ws::kernels::cuda {
namespace {

bool names_its_cause(const std::string& reason) {
  return reason.find("cudaError") != std::string::npos || reason.find("sm_75") != std::string::npos;
}

TEST(CudaAvailability, OlderThanTheBuildIsSaidBeforeAnOldDriver) {
  ProbeFacts pascal;  // GTX 1080 with a driver too old for CUDA 13
  pascal.driver_library = true;
  pascal.driver_cuda_version = 12020;
  pascal.runtime_cuda_version = 13000;
  pascal.device_count = 1;
  pascal.cc_major = 6, pascal.cc_minor = 1;
  pascal.device_name = "NVIDIA GeForce GTX 1080";
  pascal.runtime_error = "cudaErrorInsufficientDriver";
  const auto why = availability_reason(pascal);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("older than the oldest architecture built (sm_75)"), std::string::npos) << *why;
  EXPECT_EQ(why->find("driver"), std::string::npos) << "must not send the user to update the driver: " << *why;
  EXPECT_TRUE(names_its_cause(*why));
}

TEST(CudaAvailability, AnOldDriverOnASupportedGpuNamesBothVersions) {
  ProbeFacts ampere;
  ampere.driver_library = true;
  ampere.driver_cuda_version = 12020;
  ampere.runtime_cuda_version = 13000;
  ampere.device_count = 1;
  ampere.cc_major = 8, ampere.cc_minor = 6;
  ampere.runtime_error = "cudaErrorInsufficientDriver";
  const auto why = availability_reason(ampere);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("cudaErrorInsufficientDriver"), std::string::npos) << *why;
  EXPECT_NE(why->find("CUDA 12.2"), std::string::npos) << *why;
  EXPECT_NE(why->find("CUDA 13.0"), std::string::npos) << *why;
}

TEST(CudaAvailability, EveryReasonNamesItsCause) {
  ProbeFacts none;  // no libcuda at all
  ProbeFacts no_device;
  no_device.driver_library = true;
  no_device.device_count = 0;
  ProbeFacts other;
  other.driver_library = true;
  other.device_count = 1;
  other.cc_major = 9;
  other.runtime_error = "cudaErrorDevicesUnavailable";
  ProbeFacts volta;
  volta.driver_library = true;
  volta.device_count = 1;
  volta.cc_major = 7, volta.cc_minor = 0;
  volta.device_name = "Tesla V100";
  for (const ProbeFacts& f : {none, no_device, other, volta}) {
    const auto why = availability_reason(f);
    ASSERT_TRUE(why.has_value());
    EXPECT_TRUE(names_its_cause(*why)) << *why;
  }
  EXPECT_EQ(*availability_reason(none), "no CUDA driver: cudaErrorInsufficientDriver");
  EXPECT_EQ(*availability_reason(no_device), "no CUDA device: cudaErrorNoDevice");
  ProbeFacts fine;
  fine.driver_library = true;
  fine.device_count = 1;
  fine.cc_major = 9;
  EXPECT_FALSE(availability_reason(fine).has_value());
  fine.cc_major = 7, fine.cc_minor = 5;  // Turing: the oldest built
  EXPECT_FALSE(availability_reason(fine).has_value());
}

TEST(CudaErrors, StickyErrorsAskForAReset) {
  EXPECT_EQ(classify_error("cudaErrorLaunchTimeout"), ErrorKind::sticky);
  EXPECT_EQ(classify_error("cudaErrorIllegalAddress"), ErrorKind::sticky);
  EXPECT_EQ(classify_error("cudaErrorLaunchFailure"), ErrorKind::sticky);
  EXPECT_EQ(classify_error("cudaErrorMemoryAllocation"), ErrorKind::transient);
  EXPECT_EQ(classify_error("cudaErrorLaunchOutOfResources"), ErrorKind::transient);
  EXPECT_EQ(classify_error("cudaErrorInvalidConfiguration"), ErrorKind::transient);
  EXPECT_EQ(classify_error("cudaErrorECCUncorrectable"), ErrorKind::device_lost);
}

// The runtime's per-thread error slot, as CUDA keeps it: set by a failure, cleared when read.
struct FakeRuntime {
  int pending = 0;
  int launches = 0;
  void discard_pending() { pending = 0; }
  int last_error() {
    const int e = pending;
    pending = 0;
    return e;
  }
};

TEST(CudaErrors, AHealthyLaunchDoesNotInheritAnEarlierFailure) {
  FakeRuntime rt;
  rt.pending = 2;  // cudaErrorMemoryAllocation from an earlier job on this thread, never read
  const int e = launch_checked(rt, [&] { ++rt.launches; });
  EXPECT_EQ(rt.launches, 1);
  EXPECT_EQ(e, 0);
  const int failed = launch_checked(rt, [&] { rt.pending = 9; });  // this launch's own failure
  EXPECT_EQ(failed, 9);
  EXPECT_EQ(rt.pending, 0);
}

TEST(CublasLoading, SaysWhatWasTriedWhenMissing) {
  const LoadedLibrary lib = load_first_of({"libwarpscope-no-such-blas.so.1", "libwarpscope-no-such-blas.so"});
  EXPECT_EQ(lib.handle, nullptr);
  EXPECT_NE(lib.error.find("libwarpscope-no-such-blas.so.1"), std::string::npos) << lib.error;
  EXPECT_NE(lib.error.find("; libwarpscope-no-such-blas.so:"), std::string::npos) << lib.error;
  const LoadedLibrary libc = load_first_of({"libwarpscope-no-such-blas.so", "libc.so.6"});
  EXPECT_NE(libc.handle, nullptr);
  EXPECT_EQ(libc.name, "libc.so.6");
  const auto names = cublas_library_names(13);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[0], "libcublas.so.13");
  EXPECT_EQ(names[1], "libcublas.so");
}

TEST(BuildResources, ParsesPtxasReports) {
  const std::string report =
      "ptxas info    : Compiling entry function '_ZN2ws7kernels4cuda40_GLOBAL__N__c2a97e67_8_tiled_cu_58b5a8a012tiled_"
      "kernelEiiiPKfS4_Pf' for 'sm_90'\n"
      "ptxas info    : Used 32 registers, used 1 barriers, 8192 bytes smem\n"
      "ptxas info    : Compiling entry function '_ZN2ws7kernels4cuda45_GLOBAL__N__45919df2_12_warptiled_cu_1a2ef44916"
      "warptiled_kernelILb1EEEviiiPKfS5_Pf' for 'sm_90'\n"
      "ptxas info    : Used 127 registers, used 1 barriers, 16384 bytes smem\n"
      "ptxas info    : Compiling entry function '_ZN2ws7kernels4cuda12naive_kernelEiiiPKfS4_Pf' for 'sm_80'\n"
      "ptxas info    : Used 30 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function '_ZN2ws7kernels4cuda12naive_kernelEiiiPKfS4_Pf' for 'sm_90'\n"
      "ptxas info    : Used 32 registers, used 0 barriers\n";
  const auto rows = parse_ptxas_report(report);
  ASSERT_EQ(rows.size(), 3u);  // the sm_80 entry is not the build's reported architecture
  EXPECT_EQ(rows[0].kernel, "cuda-tiled");
  EXPECT_EQ(rows[0].vector_loads, -1);
  EXPECT_EQ(rows[0].registers, 32);
  EXPECT_EQ(rows[0].shared_bytes, 8192);
  EXPECT_EQ(rows[1].kernel, "cuda-warptiled");
  EXPECT_EQ(rows[1].vector_loads, 1);
  EXPECT_EQ(rows[1].registers, 127);
  EXPECT_EQ(rows[2].kernel, "cuda-naive");
  EXPECT_EQ(rows[2].shared_bytes, 0);
}

TEST(BuildResources, TheBuildsKernelsFitTheirLaunches) {
#ifdef WARPSCOPE_HAVE_CUDA
  const auto& rows = build_resources();
  for (const char* k : {"cuda-naive", "cuda-tiled", "cuda-regblock", "cuda-warptiled", "cuda-tensor"}) {
    bool found = false;
    for (const auto& r : rows)
      if (r.kernel == k) found = true;
    EXPECT_TRUE(found) << k << " missing from the build's ptxas report";
  }
  for (const auto& r : rows) {
    EXPECT_GT(r.registers, 0) << r.kernel;
    // cuda-tiled launches 1024 threads: 64 registers each is all an SM's 65536 allow.
    if (r.kernel == "cuda-tiled") {
      EXPECT_LE(r.registers, 64);
    }
    EXPECT_LE(r.shared_bytes, 48 * 1024) << r.kernel << ": static shared memory above 48 KiB cannot launch";
  }
  // cuda-tensor's stages are dynamic shared memory, which ptxas does not count: the resource line
  // must add them, and they must fit the 99 KiB a block may ask for on cc 8.6 and 8.9.
  const auto tensor = kernel_resources(Kernel::tensor, 4096, 4096, 4096);
  ASSERT_TRUE(tensor.has_value());
  EXPECT_GE(tensor->shared_bytes, dynamic_shared_bytes(Kernel::tensor));
  EXPECT_EQ(dynamic_shared_bytes(Kernel::tensor), TensorLayout::kSharedBytes);
  EXPECT_LE(tensor->shared_bytes, 99 * 1024);
  EXPECT_LE(tensor->registers * tensor->block_threads, 65536) << "one block must fit an SM's registers";
  EXPECT_EQ(dynamic_shared_bytes(Kernel::warptiled), 0);
#else
  EXPECT_TRUE(build_resources().empty());
#endif
}

}  // namespace
}  // namespace ws::kernels::cuda
