// The roofline's maths from known inputs: traffic, intensity, roofs and ridges of real presets,
// the decades of the axes and the pixel of a point.
#include <cmath>

#include <gtest/gtest.h>

#include "core/roofline.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::app::roofline {
namespace {

TEST(Roofline, MinimumTrafficOfASquareProductIsThreeMatricesOfFourBytes) {
  // 4096³: 2·4096³ FLOP over 4·3·4096² bytes = 4096 / 6 FLOP per byte.
  EXPECT_DOUBLE_EQ(flops(4096, 4096, 4096), 2.0 * 4096.0 * 4096.0 * 4096.0);
  EXPECT_DOUBLE_EQ(min_traffic_bytes(4096, 4096, 4096), 12.0 * 4096.0 * 4096.0);
  EXPECT_NEAR(min_traffic_intensity(4096, 4096, 4096), 4096.0 / 6.0, 1e-9);
  EXPECT_NEAR(min_traffic_intensity(1, 1, 1), 2.0 / 12.0, 1e-12);
}

TEST(Roofline, MinimumTrafficOfARectangularProductCountsEachMatrixOnce) {
  // M=2, N=3, K=5: A 2×5, B 5×3, C 2×3 = 10 + 15 + 6 = 31 elements, 124 bytes; 60 FLOP.
  EXPECT_DOUBLE_EQ(flops(2, 3, 5), 60.0);
  EXPECT_DOUBLE_EQ(min_traffic_bytes(2, 3, 5), 124.0);
  EXPECT_DOUBLE_EQ(min_traffic_intensity(2, 3, 5), 60.0 / 124.0);
  // A matrix-vector product (N = 1) stays near 0.5 FLOP per byte however large it is.
  EXPECT_NEAR(min_traffic_intensity(16384, 1, 16384), 0.5, 1e-3);
}

TEST(Roofline, AttainableIsTheLowerOfTheTwoRoofs) {
  EXPECT_DOUBLE_EQ(attainable_gflops(1000, 100, 2), 200);
  EXPECT_DOUBLE_EQ(attainable_gflops(1000, 100, 10), 1000);
  EXPECT_DOUBLE_EQ(attainable_gflops(1000, 100, 50), 1000);
  EXPECT_DOUBLE_EQ(attainable_gflops(1000, 0, 0.01), 1000);  // no memory roof
  EXPECT_DOUBLE_EQ(ridge_intensity(1000, 100), 10);
  EXPECT_DOUBLE_EQ(ridge_intensity(1000, 0), 0);
}

TEST(Roofline, H100RoofsComeFromItsPreset) {
  const auto& h100 = sim::find_gpu("h100");
  // The preset: 132 SMs × 128 lanes × 2 × 1980 MHz; 528 tensor cores × 1024 FLOP × 1830 MHz; 3350 GB/s.
  const Roof roof = gpu_roof(h100, lesson::Language::en);
  EXPECT_EQ(roof.machine, "gpu");
  EXPECT_EQ(roof.name, "H100");
  ASSERT_EQ(roof.compute.size(), 2u);
  EXPECT_NEAR(roof.fp32_gflops(), 132 * 128 * 2 * 1.980, 1e-6);  // 66,908 GFLOP/s (1.98 GHz)
  EXPECT_NEAR(roof.top_gflops(), 132 * 4 * 1024 * 1.830, 1e-6);  // 989,430 GFLOP/s (1.83 GHz)
  EXPECT_FALSE(roof.compute[0].tensor);
  EXPECT_TRUE(roof.compute[1].tensor);
  EXPECT_EQ(roof.compute[0].label, "H100 FP32 66.9 TFLOP/s");
  EXPECT_EQ(roof.compute[1].label, "H100 BF16 tensor 989 TFLOP/s");
  EXPECT_DOUBLE_EQ(roof.bandwidth_gbs, 3350);
  EXPECT_EQ(roof.bandwidth_label, "H100 DRAM 3.35 TB/s");
  EXPECT_FALSE(roof.bandwidth_assumed);
  // The ridge: about 20 FLOP per byte for FP32, about 295 on the tensor cores.
  EXPECT_NEAR(ridge_intensity(roof.fp32_gflops(), roof.bandwidth_gbs), 19.97, 0.01);
  EXPECT_NEAR(ridge_intensity(roof.top_gflops(), roof.bandwidth_gbs), 295.4, 0.1);
}

TEST(Roofline, AGpuWithoutTensorCoresHasOneComputeRoof) {
  const Roof roof = gpu_roof(sim::find_gpu("gtx580"), lesson::Language::en);
  ASSERT_EQ(roof.compute.size(), 1u);
  EXPECT_EQ(roof.name, "GeForce GTX 580");
  EXPECT_NEAR(roof.bandwidth_gbs, 192.4, 1e-9);
  EXPECT_EQ(roof.bandwidth_label, "GeForce GTX 580 DRAM 192 GB/s");
}

TEST(Roofline, ThisMachineCpuRoofSaysItsBandwidthIsAssumed) {
  const auto& cpu = sim::this_machine_cpu();
  const Roof roof = cpu_roof(cpu, lesson::Language::en);
  EXPECT_EQ(roof.name, "this CPU");
  ASSERT_EQ(roof.compute.size(), 1u);
  EXPECT_DOUBLE_EQ(roof.fp32_gflops(), cpu.cores * cpu.fp32_lanes * cpu.fma_units * 2.0 * cpu.base_clock_ghz);
  // The preset's 50 GB/s is a generic default, listed as uncertain ("not measured"): the label says so.
  EXPECT_DOUBLE_EQ(roof.bandwidth_gbs, cpu.memory_bandwidth_gbs);
  EXPECT_TRUE(roof.bandwidth_assumed);
  EXPECT_NE(roof.bandwidth_label.find("(assumed)"), std::string::npos) << roof.bandwidth_label;
  EXPECT_NE(roof.assumption.find("assumption, not measured"), std::string::npos) << roof.assumption;

  // The Korean panel draws the same roof in Korean (it once drew these three in English).
  const Roof ko = cpu_roof(cpu, lesson::Language::ko);
  EXPECT_EQ(ko.name, "이 CPU");
  EXPECT_EQ(ko.compute[0].label.rfind("이 CPU FP32 ", 0), 0u) << ko.compute[0].label;
  EXPECT_EQ(ko.bandwidth_label, "이 CPU DRAM 50 GB/s (가정값)");
  EXPECT_EQ(ko.assumption, "점선: 이 CPU의 DRAM 대역폭(50 GB/s)은 프리셋의 가정값이며 측정값이 아님");
  EXPECT_EQ(gpu_roof(sim::find_gpu("h100"), lesson::Language::ko).compute[1].label, "H100 BF16 텐서 989 TFLOP/s");
}

TEST(Roofline, ACpuWithoutBandwidthHasNoMemoryRoofAndSaysSo) {
  sim::CpuPreset cpu = sim::this_machine_cpu();
  cpu.memory_bandwidth_gbs = 0;
  const Roof roof = cpu_roof(cpu, lesson::Language::en);
  EXPECT_FALSE(roof.has_memory_roof());
  EXPECT_TRUE(roof.bandwidth_label.empty());
  EXPECT_NE(roof.note.find("no DRAM bandwidth"), std::string::npos);
  const Axes axes = choose_axes({roof}, {});
  EXPECT_FALSE(memory_segment(roof, axes));
  // Its compute roof spans the whole width.
  const auto flat = compute_segment(roof, roof.compute[0], axes);
  ASSERT_TRUE(flat);
  EXPECT_DOUBLE_EQ(flat->x0, std::pow(10.0, axes.x_lo));
  EXPECT_DOUBLE_EQ(flat->x1, std::pow(10.0, axes.x_hi));
}

TEST(Roofline, MeasuredPointUsesTheMinimumTraffic) {
  kernels::JobResult r;
  r.kernel = "cublas";
  r.shape = {4096, 4096, 4096};
  r.gflops = 40000;
  r.verified = true;
  const auto p = measured_point(r, Source::elsewhere, "measured on Test GPU (test-host, 2026-11-30)");
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->intensity, 4096.0 / 6.0, 1e-9);
  EXPECT_DOUBLE_EQ(p->gflops, 40000);
  EXPECT_EQ(p->intensity_basis, IntensityBasis::minimum_traffic);
  EXPECT_EQ(p->source, Source::elsewhere);
  EXPECT_TRUE(p->verified);

  r.verified = false;  // a wrong result stays on the plot, marked
  ASSERT_TRUE(measured_point(r, Source::here, "here"));
  EXPECT_FALSE(measured_point(r, Source::here, "here")->verified);
  r.skipped = "no CUDA driver";
  EXPECT_FALSE(measured_point(r, Source::here, "here"));
  r.skipped.reset();
  r.gflops = 0;
  EXPECT_FALSE(measured_point(r, Source::here, "here"));
}

TEST(Roofline, SimulatedPointUsesTheModelsBytesAndTime) {
  // 256³ = 33.55 MFLOP; 1 MB of DRAM traffic; 0.01 ms -> 33.55 FLOP/B at 3355 GFLOP/s.
  const auto p = simulated_point("simulated on H100 (SXM5, 80 GB)", "tiled", 256, 256, 256, 1e6, 0.01);
  ASSERT_TRUE(p);
  EXPECT_NEAR(p->intensity, 2.0 * 256 * 256 * 256 / 1e6, 1e-9);
  EXPECT_NEAR(p->gflops, 2.0 * 256 * 256 * 256 / 1e4, 1e-6);
  EXPECT_EQ(p->source, Source::simulated);
  EXPECT_EQ(p->where, "simulated on H100 (SXM5, 80 GB)");
  EXPECT_EQ(p->intensity_basis, IntensityBasis::model_dram_bytes);
  EXPECT_FALSE(simulated_point("H100", "tiled", 256, 256, 256, 0, 0.01));
  EXPECT_FALSE(simulated_point("H100", "tiled", 256, 256, 256, 1e6, 0));
}

TEST(Roofline, AxesHoldEveryRoofAndPointWithRoom) {
  const Roof gpu = gpu_roof(sim::find_gpu("h100"), lesson::Language::en);
  Point slow;
  slow.intensity = 0.5;  // 0.5 FLOP/B at 0.9 GFLOP/s
  slow.gflops = 0.9;
  const Axes a = choose_axes({gpu}, {slow});
  // x: 0.5 (log -0.30) -> -1; the tensor ridge 295 (log 2.47) -> 3.
  EXPECT_EQ(a.x_lo, -1);
  EXPECT_EQ(a.x_hi, 3);
  // y: 0.9 (log -0.05) -> -1; 989,430 (log 5.995) -> 7: the top roof's label needs room above it.
  EXPECT_EQ(a.y_lo, -1);
  EXPECT_EQ(a.y_hi, 7);
  // A value near a decade's edge gets the next decade: 10.5 FLOP/B is not drawn on the border.
  Point edge;
  edge.intensity = 10.5;
  edge.gflops = 100;
  const Axes b = choose_axes({}, {edge});
  EXPECT_EQ(b.x_lo, 0);
  EXPECT_EQ(b.x_hi, 2);
  EXPECT_EQ(b.y_lo, 1);
  EXPECT_EQ(b.y_hi, 3);
  // Nothing at all: a default frame of whole decades.
  const Axes none = choose_axes({}, {});
  EXPECT_LT(none.x_lo, none.x_hi);
  EXPECT_LT(none.y_lo, none.y_hi);
}

TEST(Roofline, PixelsFollowTheLogarithms) {
  const Rect plot{100, 50, 400, 300};
  const Axes a{-1, 3, 0, 6};  // 4 decades across 400 px, 6 decades over 300 px
  const Pixel lo = to_pixel(plot, a, 0.1, 1);
  EXPECT_FLOAT_EQ(lo.x, 100);
  EXPECT_FLOAT_EQ(lo.y, 350);
  const Pixel hi = to_pixel(plot, a, 1000, 1e6);
  EXPECT_FLOAT_EQ(hi.x, 500);
  EXPECT_FLOAT_EQ(hi.y, 50);
  const Pixel mid = to_pixel(plot, a, 10, 1000);  // 2 of 4 decades across, 3 of 6 up
  EXPECT_FLOAT_EQ(mid.x, 300);
  EXPECT_FLOAT_EQ(mid.y, 200);
  const Pixel h100_ridge = to_pixel(plot, a, 66908.16 / 3350, 66908.16);
  EXPECT_NEAR(h100_ridge.x, 100 + 100 * (std::log10(66908.16 / 3350) + 1), 1e-3);
  EXPECT_NEAR(h100_ridge.y, 350 - 50 * std::log10(66908.16), 1e-3);
}

TEST(Roofline, SegmentsMeetAtTheRidgeAndStayInsideTheAxes) {
  const Roof gpu = gpu_roof(sim::find_gpu("h100"), lesson::Language::en);
  const Axes a{-1, 3, -1, 7};
  const auto slope = memory_segment(gpu, a);
  ASSERT_TRUE(slope);
  // From the left edge (0.1 FLOP/B at 335 GFLOP/s) up to the tensor ridge.
  EXPECT_DOUBLE_EQ(slope->x0, 0.1);
  EXPECT_DOUBLE_EQ(slope->y0, 335);
  EXPECT_NEAR(slope->x1, gpu.top_gflops() / 3350, 1e-9);
  EXPECT_NEAR(slope->y1, gpu.top_gflops(), 1e-6);
  const auto fp32 = compute_segment(gpu, gpu.compute[0], a);
  ASSERT_TRUE(fp32);
  EXPECT_NEAR(fp32->x0, 66908.16 / 3350, 1e-6);
  EXPECT_DOUBLE_EQ(fp32->x1, 1000);
  // The slope starts at the bottom edge when the left edge would put it below the axes.
  const Axes high{-2, 3, 2, 7};
  const auto clipped = memory_segment(gpu, high);
  ASSERT_TRUE(clipped);
  EXPECT_NEAR(clipped->y0, 100, 1e-9);
  EXPECT_NEAR(clipped->x0, 100.0 / 3350, 1e-12);
  // A roof above the axes is not drawn.
  const Axes low{-1, 3, -1, 3};
  EXPECT_FALSE(compute_segment(gpu, gpu.compute[0], low));
}

TEST(Roofline, LabelsReadAsNumbers) {
  EXPECT_EQ(decade_label(-2), "0.01");
  EXPECT_EQ(decade_label(-1), "0.1");
  EXPECT_EQ(decade_label(0), "1");
  EXPECT_EQ(decade_label(2), "100");
  EXPECT_EQ(decade_label(3), "1k");
  EXPECT_EQ(decade_label(5), "100k");
  EXPECT_EQ(decade_label(6), "1M");
  EXPECT_EQ(format_gflops(66908.16), "66.9 TFLOP/s");
  EXPECT_EQ(format_gflops(989429.76), "989 TFLOP/s");
  EXPECT_EQ(format_gflops(2250000), "2.25 PFLOP/s");
  EXPECT_EQ(format_gflops(192), "192 GFLOP/s");
  EXPECT_EQ(format_gflops(0.5), "0.5 GFLOP/s");
  EXPECT_EQ(format_bandwidth(3350), "3.35 TB/s");
  EXPECT_EQ(format_bandwidth(50), "50 GB/s");
  EXPECT_EQ(short_name("H100 (SXM5, 80 GB)"), "H100");
  EXPECT_EQ(short_name("Tesla C1060"), "Tesla C1060");
}

}  // namespace
}  // namespace ws::app::roofline
