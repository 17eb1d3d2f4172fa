// Which simulated kernel animates each real one, and when the panel must say it is only the nearest.
#include "core/kernel_models.hpp"

#include <gtest/gtest.h>

namespace {

using ws::app::model_for_real_kernel;
using ws::app::model_note;
using ws::app::ModelNote;
using ws::app::real_kernel_for_model;
using ws::sim::Kernel;

TEST(KernelModels, RealKernelsMapToTheirModels) {
  struct Case {
    const char* real;
    Kernel model;
    bool nearest;
  };
  for (const Case c : {Case{"cuda-naive", Kernel::naive, false}, Case{"gl-naive", Kernel::naive, false},
                       Case{"cuda-tiled", Kernel::tiled, false}, Case{"gl-tiled", Kernel::tiled, false},
                       Case{"gl-regblock", Kernel::regblock, false}, Case{"cuda-regblock", Kernel::regblock, false},
                       Case{"cublas", Kernel::regblock, true}, Case{"cublas-bf16", Kernel::tensor, true},
                       Case{"cublas-tf32", Kernel::tensor, true}, Case{"cuda-tensor", Kernel::tensor, false},
                       Case{"cuda-warptiled", Kernel::regblock, true},
                       Case{"", Kernel::tiled, false}}) {
    SCOPED_TRACE(c.real);
    EXPECT_EQ(model_for_real_kernel(c.real).kernel, c.model);
    EXPECT_EQ(model_for_real_kernel(c.real).nearest, c.nearest);
  }
}

TEST(KernelModels, ChoosingAModelSwitchesTheRealKernelWithinItsApi) {
  EXPECT_EQ(real_kernel_for_model("cuda-tiled", Kernel::naive), "cuda-naive");
  EXPECT_EQ(real_kernel_for_model("gl-naive", Kernel::regblock), "gl-regblock");
  EXPECT_EQ(real_kernel_for_model("gl-tiled", Kernel::tensor), "");   // OpenGL has no tensor-core kernel
  EXPECT_EQ(real_kernel_for_model("cublas", Kernel::tiled), "");       // no API prefix to keep
  EXPECT_EQ(real_kernel_for_model("", Kernel::tiled), "");
  EXPECT_EQ(real_kernel_for_model("cuda-naive", Kernel::regblock), "cuda-regblock");
  EXPECT_EQ(real_kernel_for_model("cuda-naive", Kernel::tensor), "cuda-tensor");
}

TEST(KernelModels, TheNoteSaysWhatIsAnimatedAndWhy) {
  EXPECT_EQ(model_note("cuda-tiled", Kernel::tiled), ModelNote::none);
  EXPECT_EQ(model_note("", Kernel::tensor), ModelNote::none);
  EXPECT_EQ(model_note("cublas", Kernel::regblock), ModelNote::nearest);
  EXPECT_EQ(model_note("cublas-bf16", Kernel::tensor), ModelNote::nearest);
  EXPECT_EQ(model_note("gl-tiled", Kernel::tensor), ModelNote::other);
  EXPECT_EQ(model_note("cublas", Kernel::tiled), ModelNote::other);
  // A kernel that cannot run here is not called "the real run"; one that is the animated model
  // or has a nearest model needs no such word.
  EXPECT_EQ(model_note("cuda-tiled", Kernel::tensor, false), ModelNote::other_not_here);
  EXPECT_EQ(model_note("cuda-tiled", Kernel::tiled, false), ModelNote::none);
  EXPECT_EQ(model_note("cublas", Kernel::regblock, false), ModelNote::nearest);
}

}  // namespace
