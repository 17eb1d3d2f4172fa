#include "core/caption_values.hpp"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/assets.hpp"
#include "core/lesson_vocabulary.hpp"
#include "core/measured_text.hpp"
#include "lesson.hpp"

using ws::app::CaptionContext;
using ws::app::caption_value;
namespace sim = ws::sim;
namespace kernels = ws::kernels;

namespace {

std::unique_ptr<sim::Simulation> make_sim(sim::Kernel kernel) {
  sim::SimConfig cfg;
  cfg.kernel = kernel;
  cfg.shape = {64, 64, 64};
  cfg.block = 16;
  // Outlives the simulations: Simulation's CPU model keeps a reference to the preset it was
  // given rather than to its own copy (reported; until fixed a temporary here would dangle).
  static const sim::CpuPreset cpu = sim::find_cpu("i7-3960x");
  return std::make_unique<sim::Simulation>(sim::find_gpu("h100"), cpu, cfg);
}

kernels::JobResult result(const char* kernel, kernels::Device device, double ms, int threads) {
  kernels::JobResult r;
  r.kernel = kernel;
  r.device = device;
  r.shape = {2048, 2048, 2048};
  r.threads = threads;
  r.repeats = 3;
  r.ms_median = ms;
  r.ms_min = ms;
  r.gflops = r.shape.flops() / (ms * 1e6);
  r.verified = true;
  return r;
}

// One small tiled launch, its naive twin and a fabricated pair of real runs: everything a
// caption can ask for.
class CaptionValues : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tiled_ = make_sim(sim::Kernel::tiled).release();
    naive_ = make_sim(sim::Kernel::naive).release();
  }
  static void TearDownTestSuite() {
    delete tiled_;
    delete naive_;
  }
  void SetUp() override {
    tiled_->seek(tiled_->total_cycles() / 2);
    gpu_preset_ = sim::find_gpu("h100");
    cpu_preset_ = sim::find_cpu("i7-3960x");
    cpu_run_ = result("cpu-blas", kernels::Device::cpu, 400.0, 12);
    gpu_run_ = result("cublas", kernels::Device::gpu, 4.0, 0);
    ctx_.sim = tiled_;
    ctx_.gpu = &gpu_preset_;
    ctx_.cpu = &cpu_preset_;
    ctx_.naive_summary = naive_->summary();
    ctx_.tiled_summary = tiled_->summary();
    ctx_.cpu_result = &cpu_run_;
    ctx_.gpu_result = &gpu_run_;
    ctx_.cpu_name = "Test CPU 9000";
    ctx_.gpu_name = "Test GPU X";
    ctx_.cpu_progress_at_finish = ws::app::cpu_progress_at_gpu_finish(*tiled_);
    // A pipeline split, so that the bubble keys have a value too.
    const ws::lesson::ClusterSetting split{"pipeline", 4, 0, 8, 256};
    cluster_ = ws::app::simulate_setting("h100", split);
    ctx_.cluster = &cluster_;
    ctx_.cluster_curve = ws::app::scaling_curve("h100", split);
  }
  std::string value(std::string_view key) const {
    auto v = caption_value(key, ctx_);
    EXPECT_TRUE(v.has_value()) << key;
    return v.value_or("<none>");
  }

  static sim::Simulation* tiled_;
  static sim::Simulation* naive_;
  sim::GpuPreset gpu_preset_;
  sim::CpuPreset cpu_preset_;
  kernels::JobResult cpu_run_, gpu_run_;
  sim::ClusterResult cluster_;
  CaptionContext ctx_;
};
sim::Simulation* CaptionValues::tiled_ = nullptr;
sim::Simulation* CaptionValues::naive_ = nullptr;

// A built-in lesson as the window loads it, with the app's vocabulary.
ws::lesson::ParseResult builtin_lesson(const std::string& file) {
  return ws::lesson::load_lesson_file(ws::app::assets_dir() + "/lessons/" + file, ws::app::registry_vocabulary());
}

}  // namespace

TEST(CaptionFormat, Numbers) {
  EXPECT_EQ(ws::app::group_digits(0), "0");
  EXPECT_EQ(ws::app::group_digits(999), "999");
  EXPECT_EQ(ws::app::group_digits(4096), "4,096");
  EXPECT_EQ(ws::app::group_digits(1234567), "1,234,567");
  EXPECT_EQ(ws::app::group_digits(-16896), "-16,896");
  EXPECT_EQ(ws::app::format_sig3(66.9), "66.9");
  EXPECT_EQ(ws::app::format_sig3(0.0412), "0.0412");
  EXPECT_EQ(ws::app::format_sig3(3350), "3,350");
  EXPECT_EQ(ws::app::format_sig3(0), "0");
  EXPECT_EQ(ws::app::format_percent(75.4), "75");
  EXPECT_EQ(ws::app::format_percent(3.26), "3.3");
  EXPECT_EQ(ws::app::format_percent(4.0), "4");
  EXPECT_EQ(ws::app::format_percent(0.04), "0.04");
  EXPECT_EQ(ws::app::format_percent(99.7), "99.7");  // not "100" before it is done
  EXPECT_EQ(ws::app::format_percent(100), "100");
  EXPECT_EQ(ws::app::format_bytes(512), "512 B");
  EXPECT_EQ(ws::app::format_bytes(8.4e6), "8.40 MB");
  EXPECT_EQ(ws::app::format_bytes(1.5e9), "1.50 GB");
}

TEST_F(CaptionValues, EveryKnownKeyIsAnsweredWhenEverythingIsAvailable) {
  for (const auto key : ws::lesson::known_caption_keys()) {
    const auto v = caption_value(key, ctx_);
    ASSERT_TRUE(v.has_value()) << "no value for {" << key << "}";
    EXPECT_FALSE(v->empty()) << key;
    EXPECT_EQ(v->find('?'), std::string::npos) << key << " = " << *v;
  }
  EXPECT_FALSE(caption_value("no.such_key", ctx_).has_value());
}

TEST_F(CaptionValues, PresetValuesComeFromThePreset) {
  const auto& g = gpu_preset_;
  // A sentence gets the short name, a table the full label.
  EXPECT_EQ(value("preset.gpu_name"), "H100");
  EXPECT_EQ(value("preset.gpu_label"), g.name);
  EXPECT_NE(g.name, "H100");
  // A Korean caption's label has no English words where the preset has a Korean one; H100's
  // label reads the same in both.
  ctx_.language = ws::lesson::Language::ko;
  EXPECT_EQ(value("preset.gpu_label"), g.name);
  const sim::GpuPreset gtx580 = sim::find_gpu("gtx580");
  ctx_.gpu = &gtx580;
  EXPECT_EQ(value("preset.gpu_label"), "GeForce GTX 580 (AlexNet의 GPU)");
  ctx_.language = ws::lesson::Language::en;
  EXPECT_EQ(value("preset.gpu_label"), "GeForce GTX 580 (the AlexNet GPU)");
  ctx_.gpu = &gpu_preset_;
  EXPECT_EQ(value("preset.gpu_year"), std::to_string(g.year));
  EXPECT_EQ(value("preset.sm_count"), ws::app::group_digits(g.sm_count));
  EXPECT_EQ(value("preset.gpu_cores"), ws::app::group_digits(static_cast<long long>(g.sm_count) * g.fp32_lanes_per_sm));
  EXPECT_EQ(value("preset.cores_per_sm"), std::to_string(g.fp32_lanes_per_sm));
  EXPECT_EQ(value("preset.max_warps_per_sm"), "64");  // every cc 9.0 SM holds 64 warps
  EXPECT_EQ(value("preset.clock_ghz"), "1.98");
  EXPECT_EQ(value("preset.fp32_tflops"), ws::app::format_sig3(g.peak_gflops() / 1000));
  EXPECT_EQ(value("preset.tensor_tflops"), "989");  // 132 SMs x 4 tensor cores x 1024 FLOP x 1.83 GHz
  EXPECT_EQ(value("preset.tensor_format"), "BF16");
  EXPECT_EQ(value("preset.mem_bandwidth_gbs"), ws::app::group_digits(std::llround(g.memory_bandwidth_gbs)));
  EXPECT_EQ(value("preset.cpu_name"), cpu_preset_.sentence_name());
  EXPECT_EQ(value("preset.cpu_label"), cpu_preset_.name);
  EXPECT_EQ(value("preset.cpu_cores"), std::to_string(cpu_preset_.cores));
  EXPECT_EQ(value("preset.cpu_threads"), std::to_string(cpu_preset_.threads));
  EXPECT_EQ(value("preset.cpu_gflops"), ws::app::format_sig3(cpu_preset_.peak_gflops()));
  const double ratio = static_cast<double>(g.sm_count) * g.fp32_lanes_per_sm / cpu_preset_.cores;
  EXPECT_EQ(value("preset.core_ratio"), ws::app::group_digits(std::llround(ratio)));

  // Without explicit presets the simulation's own are used.
  ctx_.gpu = nullptr;
  ctx_.cpu = nullptr;
  EXPECT_EQ(value("preset.gpu_name"), tiled_->gpu().sentence_name());
  EXPECT_EQ(value("preset.cpu_name"), tiled_->cpu().sentence_name());
}

// The tensor figure is computed from the preset's parts, formatted as preset.fp32_tflops is, and
// names its format; a GPU without tensor cores has no value (the caption shows a dash).
TEST_F(CaptionValues, TensorValuesComeFromThePresetsParts) {
  struct Want {
    const char* id;
    const char* tflops;
    const char* format;
  };
  for (const Want& w : {Want{"v100", "125", "FP16"}, Want{"a100-80gb", "312", "BF16"}, Want{"h200", "989", "BF16"},
                        Want{"b200", "2,255", "BF16"}, Want{"rtx4090", "165", "BF16"}}) {
    SCOPED_TRACE(w.id);
    const sim::GpuPreset& g = sim::find_gpu(w.id);
    ctx_.gpu = &g;
    EXPECT_EQ(value("preset.tensor_tflops"), w.tflops);
    EXPECT_EQ(value("preset.tensor_tflops"), ws::app::format_sig3(g.tensor_peak_gflops(*g.tensor_headline()) / 1000));
    EXPECT_EQ(value("preset.tensor_format"), w.format);
  }
  for (const char* id : {"c1060", "gtx580", "c2050", "k80", "p100"}) {
    SCOPED_TRACE(id);
    const sim::GpuPreset& g = sim::find_gpu(id);
    ctx_.gpu = &g;
    EXPECT_FALSE(caption_value("preset.tensor_tflops", ctx_).has_value());
    EXPECT_FALSE(caption_value("preset.tensor_format", ctx_).has_value());
    EXPECT_TRUE(caption_value("preset.fp32_tflops", ctx_).has_value());
  }
  // Without explicit presets the simulation's (an H100's) are used.
  ctx_.gpu = nullptr;
  EXPECT_EQ(value("preset.tensor_tflops"), "989");
}

// The built-in lessons' tensor-core steps, expanded as the window expands them for the preset each
// step shows: a number before "TFLOP/s", never the dash of a missing value.
TEST_F(CaptionValues, BuiltInTensorStepsShowTheFigure) {
  for (const char* file : {"gpu-story.en.toml", "gpu-story.ko.toml"}) {
    SCOPED_TRACE(file);
    const auto r = builtin_lesson(file);
    ASSERT_TRUE(r.ok());
    int tensor_steps = 0;
    for (std::size_t i = 0; i < r.lesson->steps.size(); ++i) {
      const auto st = ws::lesson::state_at(*r.lesson, i, ws::lesson::AppliedState{});
      if (st.caption.find("{preset.tensor_tflops}") == std::string::npos) continue;
      ++tensor_steps;
      const sim::GpuPreset& g = sim::find_gpu(st.gpu_preset);
      ctx_.gpu = &g;
      const std::string text =
          ws::lesson::expand_caption(st.caption, [&](std::string_view key) { return caption_value(key, ctx_); });
      const std::string figure = ws::app::format_sig3(g.tensor_peak_gflops(*g.tensor_headline()) / 1000);
      EXPECT_NE(text.find(figure + " TFLOP/s"), std::string::npos) << st.gpu_preset << ": " << text;
      EXPECT_EQ(text.find(std::string(ws::lesson::kMissingValue) + " TFLOP/s"), std::string::npos) << text;
      EXPECT_NE(text.find(g.tensor_headline_format()), std::string::npos) << text;
    }
    EXPECT_EQ(tensor_steps, 3) << "the tensor cores at work (H100), V100 and B200 steps";
  }
}

TEST_F(CaptionValues, SimValuesMatchTheSimulation) {
  const auto s = tiled_->summary();
  EXPECT_EQ(value("sim.m"), "64");
  EXPECT_EQ(value("sim.n"), "64");
  EXPECT_EQ(value("sim.k"), "64");
  EXPECT_EQ(value("sim.cells"), "4,096");
  EXPECT_EQ(value("sim.block_size"), "16");
  EXPECT_EQ(value("sim.threads_per_block"), "256");
  EXPECT_EQ(s.blocks, 16);
  EXPECT_EQ(value("sim.blocks"), "16");
  EXPECT_EQ(value("sim.warps"), "128");  // 16 blocks of 8 warps
  EXPECT_EQ(value("sim.blocks_per_sm"), std::to_string(s.occupancy.active_blocks_per_sm));
  EXPECT_EQ(value("sim.waves"), "1");  // 16 blocks on 132 SMs
  EXPECT_EQ(value("sim.wave_count"), "1 wave");
  // 16 blocks in a wave of 132 SMs x blocks per SM: that share of the chip is busy.
  EXPECT_EQ(value("sim.last_wave_pct"),
            ws::app::format_percent(100.0 * 16 / (132.0 * s.occupancy.active_blocks_per_sm)));
  EXPECT_EQ(value("sim.occupancy_pct"), ws::app::format_percent(s.achieved_occupancy * 100));
  ASSERT_GT(s.issue_slot_use, 0.0);
  ASSERT_LT(s.issue_slot_use, 1.0);
  EXPECT_EQ(value("sim.issue_slot_pct"), ws::app::format_percent(s.issue_slot_use * 100));
  EXPECT_EQ(value("sim.cycle"), ws::app::group_digits(tiled_->cycle()));
  EXPECT_EQ(value("sim.cycles"), ws::app::group_digits(tiled_->total_cycles()));
  EXPECT_EQ(value("sim.gpu_time_ms"), ws::app::format_sig3(s.time_ms));
  EXPECT_EQ(value("sim.dram_traffic"), ws::app::format_bytes(static_cast<double>(s.dram_bytes)));

  const double p = *ctx_.cpu_progress_at_finish;
  ASSERT_GT(p, 0.0);
  ASSERT_LT(p, 1.0) << "six CPU cores cannot finish 64³ before an H100";
  EXPECT_EQ(value("sim.cpu_progress_pct"), ws::app::format_percent(p * 100));
  EXPECT_EQ(value("sim.cpu_time_ms"), ws::app::format_sig3(s.time_ms / p));
  EXPECT_EQ(value("sim.speedup"), ws::app::format_sig3(1 / p));

  const double naive_ms = naive_->summary().time_ms;
  EXPECT_EQ(value("sim.naive_time_ms"), ws::app::format_sig3(naive_ms));
  EXPECT_EQ(value("sim.tiled_time_ms"), ws::app::format_sig3(s.time_ms));
  EXPECT_EQ(value("sim.tiled_speedup"), ws::app::format_sig3(naive_ms / s.time_ms));

  // The summaries may be left out for the kernel the simulation itself runs.
  ctx_.tiled_summary.reset();
  EXPECT_EQ(value("sim.tiled_time_ms"), ws::app::format_sig3(s.time_ms));
  ctx_.naive_summary.reset();
  EXPECT_FALSE(caption_value("sim.naive_time_ms", ctx_));
  EXPECT_FALSE(caption_value("sim.tiled_speedup", ctx_));
}

TEST_F(CaptionValues, WarpSharesCountTheCurrentCycle) {
  long long resident = 0, issuing = 0, memory = 0, barrier = 0;
  for (int sm = 0; sm < tiled_->sm_count(); ++sm)
    for (int slot = 0; slot < tiled_->warp_slots_per_sm(); ++slot) {
      const auto st = tiled_->warp_state(sm, slot);
      if (st == sim::WarpState::not_resident || st == sim::WarpState::done) continue;
      ++resident;
      issuing += st == sim::WarpState::issuing;
      memory += st == sim::WarpState::waiting_memory;
      barrier += st == sim::WarpState::waiting_barrier;
    }
  ASSERT_GT(resident, 0);
  auto pct = [&](long long n) { return ws::app::format_percent(100.0 * n / resident); };
  EXPECT_EQ(value("sim.issue_pct"), pct(issuing));
  EXPECT_EQ(value("sim.stall_memory_pct"), pct(memory));
  EXPECT_EQ(value("sim.stall_barrier_pct"), pct(barrier));

  // Once every warp is done there are no resident warps to share out.
  tiled_->seek(tiled_->total_cycles());
  EXPECT_FALSE(caption_value("sim.issue_pct", ctx_));
  EXPECT_FALSE(caption_value("sim.stall_memory_pct", ctx_));
}

TEST_F(CaptionValues, CpuProgressNeedsTheFinishOrTheSimulationAtItsEnd) {
  const double p = *ctx_.cpu_progress_at_finish;
  ctx_.cpu_progress_at_finish.reset();
  EXPECT_FALSE(caption_value("sim.cpu_progress_pct", ctx_));
  EXPECT_FALSE(caption_value("sim.cpu_time_ms", ctx_));
  EXPECT_FALSE(caption_value("sim.speedup", ctx_));
  tiled_->seek(tiled_->total_cycles());
  EXPECT_EQ(value("sim.cpu_progress_pct"), ws::app::format_percent(p * 100));

  ctx_.cpu_progress_at_finish = 0.0;  // no progress: no honest extrapolation
  EXPECT_FALSE(caption_value("sim.cpu_time_ms", ctx_));
  ctx_.cpu_progress_at_finish = 1.0;  // CPU finished first: we only know an upper bound
  EXPECT_FALSE(caption_value("sim.cpu_time_ms", ctx_));
  EXPECT_EQ(value("sim.cpu_progress_pct"), "100");
}

TEST_F(CaptionValues, ProgressAtFinishLeavesTheSimulationWhereItWas) {
  tiled_->seek(37);
  const auto digest = tiled_->digest();
  const double p = ws::app::cpu_progress_at_gpu_finish(*tiled_);
  EXPECT_EQ(tiled_->cycle(), 37);
  EXPECT_EQ(tiled_->digest(), digest);
  tiled_->seek(tiled_->total_cycles());
  EXPECT_DOUBLE_EQ(p, tiled_->cpu_progress());
}

TEST_F(CaptionValues, MeasuredValues) {
  EXPECT_EQ(value("measured.size"), ws::app::format_shape(cpu_run_.shape));
  EXPECT_EQ(value("measured.cpu_name"), "Test CPU 9000");
  EXPECT_EQ(value("measured.gpu_name"), "Test GPU X");
  EXPECT_EQ(value("measured.cpu_threads"), "12");
  EXPECT_EQ(value("measured.cpu_kernel"), "cpu-blas");
  EXPECT_EQ(value("measured.gpu_kernel"), "cublas");
  EXPECT_EQ(value("measured.cpu_ms"), "400");
  EXPECT_EQ(value("measured.gpu_ms"), "4.00");
  EXPECT_EQ(value("measured.cpu_gflops"), ws::app::format_sig3(cpu_run_.gflops));
  EXPECT_EQ(value("measured.gpu_gflops"), ws::app::format_sig3(gpu_run_.gflops));
  EXPECT_EQ(value("measured.ratio"), "100");
  EXPECT_EQ(value("measured.verified"), "verified");
  ctx_.language = ws::lesson::Language::ko;
  EXPECT_EQ(value("measured.verified"), ws::lesson::tr("label.verified", ws::lesson::Language::ko));
}

TEST_F(CaptionValues, FailedVerificationGivesNoSpeedOrRatio) {
  gpu_run_.verified = false;
  EXPECT_FALSE(caption_value("measured.ratio", ctx_));
  EXPECT_FALSE(caption_value("measured.gpu_ms", ctx_));
  EXPECT_FALSE(caption_value("measured.gpu_gflops", ctx_));
  EXPECT_EQ(value("measured.gpu_kernel"), "cublas");  // it did run: say what ran
  EXPECT_EQ(value("measured.cpu_gflops"), ws::app::format_sig3(cpu_run_.gflops));
  EXPECT_EQ(value("measured.verified"), "FAILED verification");
}

TEST_F(CaptionValues, SkippedOrMissingRuns) {
  gpu_run_.skipped = "no CUDA device";
  ctx_.gpu_name.clear();
  EXPECT_FALSE(caption_value("measured.ratio", ctx_));
  EXPECT_FALSE(caption_value("measured.gpu_ms", ctx_));
  EXPECT_FALSE(caption_value("measured.gpu_kernel", ctx_));
  EXPECT_EQ(value("measured.gpu_name"), "no GPU");
  EXPECT_EQ(value("measured.verified"), "verified");  // the CPU result is still checked
  cpu_run_.skipped = "too big";
  EXPECT_EQ(value("measured.verified"), "skipped");
  EXPECT_FALSE(caption_value("measured.size", ctx_));

  ctx_.cpu_result = nullptr;
  ctx_.gpu_result = nullptr;
  EXPECT_FALSE(caption_value("measured.verified", ctx_));
  EXPECT_FALSE(caption_value("measured.cpu_ms", ctx_));
}

TEST_F(CaptionValues, DifferentShapesDoNotCompare) {
  gpu_run_.shape = {1024, 1024, 1024};
  EXPECT_FALSE(caption_value("measured.ratio", ctx_));
}

TEST(CaptionValuesEmpty, NothingKnownMeansNoValues) {
  const CaptionContext empty;
  for (const auto key : ws::lesson::known_caption_keys()) {
    const auto v = caption_value(key, empty);
    // "" for gpu_name is how the app says this machine has no GPU, which is itself a fact.
    if (key == "measured.gpu_name") {
      EXPECT_EQ(v.value_or(""), "no GPU");
      continue;
    }
    EXPECT_FALSE(v.has_value()) << key << " = " << *v;
  }
}

TEST(CaptionValuesWaves, ManyWavesAreCountedInTheRightWordsBeforeTheRunEnds) {
  // 1024² of 16×16 blocks on an H100 at 8 blocks per SM: 4096 blocks over 1056 slots, 4 waves,
  // the last one 928 blocks. k = 16 keeps the run short; the wave count does not depend on it.
  sim::SimConfig cfg;
  cfg.kernel = sim::Kernel::tiled;
  cfg.shape = {1024, 1024, 16};
  cfg.block = 16;
  cfg.progressive = true;
  sim::Simulation s(sim::find_gpu("h100"), sim::find_cpu("i7-3960x"), cfg);
  CaptionContext ctx;
  ctx.sim = &s;
  EXPECT_EQ(caption_value("sim.waves", ctx), "4");
  EXPECT_EQ(caption_value("sim.wave_count", ctx), "4 waves");
  EXPECT_EQ(caption_value("sim.last_wave_pct", ctx), ws::app::format_percent(100.0 * 928 / 1056));
  ctx.language = ws::lesson::Language::ko;
  EXPECT_EQ(caption_value("sim.wave_count", ctx), "웨이브 4번");
}

TEST_F(CaptionValues, ClusterValuesAreTheModelsRoundedAsTheViewRoundsThem) {
  EXPECT_EQ(value("cluster.gpus"), "4");
  EXPECT_EQ(value("cluster.micro_batches"), "8");
  EXPECT_EQ(value("cluster.speedup"), fmt::format("{:.1f}", cluster_.speedup));
  EXPECT_EQ(value("cluster.bubble_pct"), fmt::format("{:.0f}", 100 * cluster_.idle_fraction));
  // (S-1)/(M+S-1) with 4 stages and 8 micro-batches: 3/11.
  EXPECT_EQ(value("cluster.bubble_formula_pct"), "27");
  EXPECT_EQ(value("cluster.bubble_formula"), "(S\xE2\x88\x92" "1)/(M+S\xE2\x88\x92" "1) = (4\xE2\x88\x92" "1)/(8+4\xE2\x88\x92" "1)");
  // The curve doubles from one GPU; a pipeline of one stage is no split, so it starts at 2 or 1.
  EXPECT_NE(value("cluster.curve").find("2 \xE2\x86\x92 "), std::string::npos) << value("cluster.curve");
  EXPECT_NE(value("cluster.curve").find("64 \xE2\x86\x92 "), std::string::npos) << value("cluster.curve");
  // Outside a pipeline there is no bubble to quote.
  const auto data = ws::app::simulate_setting("h100", {"data", 4, 0, 8, 256});
  ctx_.cluster = &data;
  EXPECT_FALSE(caption_value("cluster.bubble_pct", ctx_).has_value());
  EXPECT_FALSE(caption_value("cluster.bubble_formula", ctx_).has_value());
}

// The Korean lesson's captions as the window expands them: the particle after a value fits how
// the value is read ("H200은", "GPU 없음과"), never the fixed one the text had.
TEST_F(CaptionValues, KoreanCaptionsChooseTheParticleForTheValue) {
  const auto r = builtin_lesson("gpu-story.ko.toml");
  ASSERT_TRUE(r.ok());
  ctx_.language = ws::lesson::Language::ko;
  const auto expand = [&](const ws::lesson::AppliedState& st) {
    return ws::lesson::expand_caption(st.caption, [&](std::string_view key) { return caption_value(key, ctx_); });
  };
  int with_particles = 0;
  bool saw_h200 = false, saw_a100 = false, saw_measured = false;
  for (std::size_t i = 0; i < r.lesson->steps.size(); ++i) {
    const auto st = ws::lesson::state_at(*r.lesson, i, ws::lesson::AppliedState{});
    const sim::GpuPreset g = sim::find_gpu(st.gpu_preset);
    ctx_.gpu = &g;
    ctx_.gpu_name = "";  // no GPU on this machine: measured.gpu_name is "GPU 없음"
    const std::string text = expand(st);
    SCOPED_TRACE(text);
    for (const auto& use : ws::lesson::caption_placeholder_uses(st.caption)) with_particles += use.has_particle;
    // Every value is known here, so no particle falls back to both forms, and no '|' is left.
    for (const char* both : {"은(는)", "이(가)", "을(를)", "과(와)", "(으)로"})
      EXPECT_EQ(text.find(both), std::string::npos) << both;
    EXPECT_EQ(text.find('|'), std::string::npos);
    // A year in brackets is never glued to a name that has its own ("A100 (SXM4, 80 GB)(2020)").
    std::string plain = text;  // without the bold markers, as it is read
    for (std::size_t at; (at = plain.find("**")) != std::string::npos;) plain.erase(at, 2);
    EXPECT_EQ(plain.find(")("), std::string::npos);
    // Sentences name a part by its short name: no label detail is pasted into them.
    for (const char* label_detail : {"(the AlexNet GPU)", "(128 cores)", "(SXM", "(HGX", "80 GB)"})
      EXPECT_EQ(plain.find(label_detail), std::string::npos) << label_detail;
    if (st.gpu_preset == "h200") {
      saw_h200 = true;
      EXPECT_EQ(g.name, "H200 (SXM, 141 GB)");
      EXPECT_NE(text.find("**H200은**"), std::string::npos);  // 에이치이백 + 은
    }
    if (st.gpu_preset == "a100-80gb") {
      saw_a100 = true;
      EXPECT_NE(text.find("**A100은**"), std::string::npos);
    }
    if (st.caption.find("{measured.gpu_name|") != std::string::npos) {
      saw_measured = true;
      EXPECT_NE(text.find("GPU 없음과"), std::string::npos);
      EXPECT_EQ(text.find("GPU 없음와"), std::string::npos);
      ctx_.gpu_name = "NVIDIA GeForce RTX 4090";  // 사공구공 / 구십: 과
      EXPECT_NE(expand(st).find("NVIDIA GeForce RTX 4090과"), std::string::npos) << expand(st);
      ctx_.gpu_name = "NVIDIA A2";  // 이: 와
      EXPECT_NE(expand(st).find("NVIDIA A2와"), std::string::npos) << expand(st);
    }
  }
  EXPECT_TRUE(saw_h200 && saw_a100 && saw_measured);
  EXPECT_GE(with_particles, 5);
}

// The generations' steps compare one chip's time with the last one's, so they must all time the
// same launch: the A100 step once animated 128³ after the V100's 1024³, and the caption went
// from 0.383 ms to 0.0031 ms, a 120× "gain" that was only the smaller matrix.
TEST(BuiltInLessons, EveryGenerationTimesTheSameMatmul) {
  for (const char* file : {"gpu-story.en.toml", "gpu-story.ko.toml"}) {
    SCOPED_TRACE(file);
    const auto r = builtin_lesson(file);
    ASSERT_TRUE(r.ok());
    std::vector<ws::lesson::AppliedState> timed;
    for (std::size_t i = 0; i < r.lesson->steps.size(); ++i) {
      const auto st = ws::lesson::state_at(*r.lesson, i, ws::lesson::AppliedState{});
      const bool generation = st.gpu_preset != "h100" && st.gpu_preset != "this-machine";
      if (generation && st.caption.find("{sim.gpu_time_ms}") != std::string::npos) timed.push_back(st);
    }
    ASSERT_GE(timed.size(), 6u) << "C1060, GTX 580, V100, A100, H200, B200";
    for (const auto& st : timed) {
      SCOPED_TRACE(st.gpu_preset);
      EXPECT_EQ(st.m, timed.front().m);
      EXPECT_EQ(st.n, timed.front().n);
      EXPECT_EQ(st.k, timed.front().k);
      EXPECT_EQ(st.kernel, timed.front().kernel);
      EXPECT_EQ(st.block_size, timed.front().block_size);
    }
    // Large enough that every chip is busy: at 128³ the B200's one wave filled 5 % of it.
    EXPECT_GE(timed.front().m, 1024);
  }
}

// No hardware GPU here and nothing measured elsewhere: a GPU figure can never come, so the GPU
// measurements say so in words (in the UI language) instead of a dash; no number is made up.
TEST_F(CaptionValues, NoGpuHereIsSaidInWords) {
  ctx_.gpu_result = nullptr;
  ctx_.gpu_name = "";
  ctx_.no_gpu_here = true;
  for (const char* key : {"measured.gpu_ms", "measured.gpu_gflops", "measured.gpu_kernel", "measured.ratio"})
    EXPECT_EQ(value(key), "no GPU on this machine") << key;
  EXPECT_EQ(value("measured.gpu_name"), "no GPU");
  EXPECT_EQ(value("measured.cpu_ms"), "400");  // the CPU side is untouched
  ctx_.language = ws::lesson::Language::ko;
  EXPECT_EQ(value("measured.ratio"), ws::lesson::tr("label.no_gpu_here", ws::lesson::Language::ko));
  EXPECT_NE(value("measured.ratio"), "no GPU on this machine");
  // Without the flag a missing GPU run is only "not yet": a dash.
  ctx_.no_gpu_here = false;
  EXPECT_FALSE(caption_value("measured.gpu_ms", ctx_));
}
