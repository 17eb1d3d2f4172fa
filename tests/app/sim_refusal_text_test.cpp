// Why the simulator refused a launch, as sim/ writes it (English) and as a Korean screen shows it:
// every text here comes from the simulator itself, so a change of its wording fails a test here
// instead of leaving English on the Korean screen.

#include <gtest/gtest.h>

#include <string>

#include "core/kernel_resources_text.hpp"
#include "core/sim_refusal_text.hpp"
#include "warpscope/sim/cluster.hpp"
#include "warpscope/sim/occupancy.hpp"
#include "warpscope/sim/presets.hpp"
#include "warpscope/sim/simulation.hpp"

namespace ws::app {
namespace {

constexpr auto en = lesson::Language::en;
constexpr auto ko = lesson::Language::ko;

std::string occupancy_reason(int cc_major, int cc_minor, int threads, int regs, int smem) {
  const auto r = sim::compute_occupancy(sim::cc_limits(cc_major, cc_minor), sim::OccupancyInput{threads, regs, smem});
  EXPECT_EQ(r.active_blocks_per_sm, 0) << "the launch was meant not to fit";
  return r.reason;
}

// What the simulator says when it refuses this launch ("" if it does not).
std::string refusal(const char* gpu, sim::Kernel kernel, int block, int size, double max_seconds = 180) {
  sim::SimConfig cfg;
  cfg.kernel = kernel;
  cfg.block = block;
  cfg.shape = {size, size, size};
  cfg.max_seconds = max_seconds;
  cfg.progressive = true;  // refused before anything is simulated, as the window builds it
  try {
    sim::Simulation s(sim::find_gpu(gpu), sim::find_cpu("this-machine"), cfg);
  } catch (const sim::SimRefused& e) {
    return e.what();
  }
  return "";
}

TEST(SimRefusalText, EveryOccupancyReasonIsWordedInKorean) {
  const struct {
    std::string reason;
    const char* korean;
  } cases[] = {
      {occupancy_reason(1, 3, 1024, 16, 0), "블록의 스레드 1024개가 블록당 최대 512개를 넘음"},
      // cuda_occupancy.h allows 256 from cc 7.0 on.
      {occupancy_reason(9, 0, 256, 300, 0), "스레드당 레지스터 300개가 최대 256개를 넘음"},
      {occupancy_reason(9, 0, 1024, 255, 0), "블록에 레지스터 262144개 필요 (할당 단위로 올림), 블록당 최대 65536개를 넘음"},
      {occupancy_reason(9, 0, 256, 32, 300000),
       "블록에 공유 메모리 301056바이트 필요 (올림과 드라이버 예약 포함), 블록당 최대 232448바이트를 넘음"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.reason);
    ASSERT_FALSE(c.reason.empty());
    EXPECT_EQ(occupancy_reason_words(c.reason, ko), c.korean);
    EXPECT_EQ(occupancy_reason_words(c.reason, en), c.reason);
  }
  EXPECT_EQ(occupancy_reason_words("no block fits", ko), "SM에 블록이 하나도 들어가지 않음");
  EXPECT_EQ(occupancy_reason_words("a reason of a form nobody knows", ko), "a reason of a form nobody knows");
}

TEST(SimRefusalText, ALaunchNoSmCanHoldIsRefusedInKorean) {
  // The C1060 (cc 1.3) takes 512 threads a block: the 32×32 block a lecturer may pick is refused.
  const std::string english = refusal("c1060", sim::Kernel::tiled, 32, 256);
  EXPECT_EQ(english, "the launch cannot run on Tesla C1060: block of 1024 threads exceeds the maximum of 512 per block");
  EXPECT_EQ(sim_refusal_words(english, en), english);
  EXPECT_EQ(sim_refusal_words(english, ko), "Tesla C1060에서 실행할 수 없음: 블록의 스레드 1024개가 블록당 최대 512개를 넘음");
}

TEST(SimRefusalText, TheTensorModelOnAChipWithoutTensorCoresIsRefusedInKorean) {
  const std::string english = refusal("gtx580", sim::Kernel::tensor, 16, 256);
  ASSERT_EQ(english.rfind("refused: the tensor model multiplies BF16 on tensor cores, and GeForce GTX 580 (the AlexNet GPU) "
                          "has no tensor cores; presets that have them: ",
                          0),
            0u)
      << english;
  const std::string presets = english.substr(english.rfind(": ") + 2);
  EXPECT_NE(presets.find("h100"), std::string::npos);
  EXPECT_EQ(sim_refusal_words(english, en), english);
  // The short name, as the panels name a chip in a Korean sentence.
  EXPECT_EQ(sim_refusal_words(english, ko),
            "시뮬레이션 거절: tensor 모델은 텐서 코어에서 BF16으로 곱함, GTX 580에는 텐서 코어가 없음. 텐서 코어가 있는 "
            "프리셋: " + presets);
}

TEST(SimRefusalText, ABlockTheProgramIsNotWrittenForIsRefusedInKorean) {
  std::string english;
  try {
    sim::SimConfig cfg;
    cfg.kernel = sim::Kernel::regblock;
    cfg.block = 32;
    sim::Simulation s(sim::find_gpu("a100-80gb"), sim::find_cpu("this-machine"), cfg);
  } catch (const std::invalid_argument& e) {
    english = e.what();
  }
  EXPECT_EQ(english, "regblock needs a block side of 16");
  EXPECT_EQ(sim_refusal_words(english, ko), "regblock 모델은 블록 한 변이 16이어야 함");
  EXPECT_EQ(sim_refusal_words(english, en), english);
}

TEST(SimRefusalText, ARunTooLongToSimulateIsRefusedInKorean) {
  const std::string english = refusal("h100", sim::Kernel::tiled, 16, 1024, 0.001);
  ASSERT_EQ(english.rfind("refused: about ", 0), 0u) << english;
  const std::string korean = sim_refusal_words(english, ko);
  EXPECT_EQ(korean.rfind("시뮬레이션 거절: 워프 명령 약 ", 0), 0u) << korean;
  EXPECT_NE(korean.find("분을 넘음. 더 작은 크기로 해 보세요"), std::string::npos) << korean;
  EXPECT_EQ(korean.find("warp"), std::string::npos) << korean;
}

TEST(SimRefusalText, ARunTooBigIsWordedInKorean) {
  sim::SimConfig cfg;
  cfg.kernel = sim::Kernel::tiled;
  cfg.shape = {16384, 16384, 16384};
  cfg.max_seconds = 1e12;
  const sim::Estimate e = sim::estimate(sim::find_gpu("h100"), cfg);
  ASSERT_FALSE(e.ok);
  ASSERT_EQ(e.reason.rfind("needs about ", 0), 0u) << e.reason;
  const std::string korean = sim_refusal_words("refused: " + e.reason, ko);
  EXPECT_EQ(korean.rfind("시뮬레이션 거절: 메모리 약 ", 0), 0u) << korean;
  EXPECT_NE(korean.find(" GB 필요 (한도 8 GB)"), std::string::npos) << korean;
}

// Memory or threads that ran out: the run's words are pinned where they are made
// (tests/sim/out_of_memory_test.cpp; the build's in core/sim_session.cpp).
TEST(SimRefusalText, RunningOutOfMemoryOrThreadsIsWordedInKorean) {
  EXPECT_EQ(sim_refusal_words("ran out of memory at cycle 1502976; try a smaller size", ko),
            "사이클 1502976에서 메모리가 부족해 멈춤. 더 작은 크기로 해 보세요");
  EXPECT_EQ(sim_refusal_words("ran out of memory building the launch; try a smaller size", ko),
            "시뮬레이션을 준비하다 메모리가 부족함. 더 작은 크기로 해 보세요");
  EXPECT_EQ(sim_refusal_words("could not start a thread for the simulation: Resource temporarily unavailable", ko),
            "시뮬레이션 스레드를 시작할 수 없음: Resource temporarily unavailable");
  EXPECT_EQ(sim_refusal_words("ran out of memory at cycle 7; try a smaller size", en),
            "ran out of memory at cycle 7; try a smaller size");
}

TEST(SimRefusalText, AnUnknownRefusalStaysAsItIs) {
  EXPECT_EQ(sim_refusal_words("refused: something new", ko), "refused: something new");
  EXPECT_EQ(sim_refusal_words("a message of no known form", ko), "a message of no known form");
}

// Why the cluster model refuses a split, as sim::validate_cluster says it.
std::string cluster_refusal(const sim::ClusterConfig& c) {
  try {
    sim::validate_cluster(c);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(SimRefusalText, EverySplitTheClusterModelRefusesIsWordedInKorean) {
  using sim::Strategy;
  auto config = [](Strategy s, int gpus, auto&& edit) {
    sim::ClusterConfig c;
    c.strategy = s;
    c.gpus = gpus;
    edit(c);
    return c;
  };
  auto mlp = [](int batch, int hidden, int layers) {
    return [=](sim::ClusterConfig& c) {
      c.mlp.batch = batch;
      c.mlp.hidden = hidden;
      c.mlp.layers = layers;
    };
  };
  auto gemm = [](int m, int k) {
    return [=](sim::ClusterConfig& c) {
      c.workload = sim::Workload::gemm;
      c.gemm.m = m;
      c.gemm.k = k;
    };
  };
  const struct {
    sim::ClusterConfig config;
    const char* korean;
  } cases[] = {
      // The cluster view's GPU count at 7, in each split it offers.
      {config(Strategy::data, 7, mlp(4096, 16384, 2)), "데이터 병렬: 배치(4096)가 GPU 7개로 나누어떨어져야 함"},
      {config(Strategy::tensor, 7, mlp(4096, 16384, 2)), "텐서 병렬: 은닉층 크기(16384)가 GPU 7개로 나누어떨어져야 함"},
      {config(Strategy::tensor, 2, mlp(4096, 16384, 3)), "텐서 병렬은 열로 나눈 층과 행으로 나눈 층을 짝지음: 층 수가 짝수여야 함"},
      {config(Strategy::pipeline, 3, mlp(4096, 16384, 2)),
       "파이프라인: 층 2개가 단계 3개로 나누어떨어져야 함 (GPU마다 단계 하나, --layers는 GPU 수의 배수로)"},
      {config(Strategy::pipeline, 2, [](sim::ClusterConfig& c) { c.micro_batches = 3; }),
       "파이프라인: 배치가 마이크로배치 3개로 나누어떨어져야 함"},
      {config(Strategy::pipeline, 2, [](sim::ClusterConfig& c) { c.micro_batches = 0; }), "마이크로배치는 1..1024개여야 함"},
      {config(Strategy::hybrid, 12, mlp(4096, 16383, 2)), "혼합 병렬: 은닉층 크기가 노드당 GPU 6개로 나누어떨어져야 함"},
      {config(Strategy::hybrid, 16, mlp(4095, 16384, 2)), "혼합 병렬: 배치가 노드 2개로 나누어떨어져야 함"},
      {config(Strategy::hybrid, 16, mlp(4096, 16384, 3)), "혼합 병렬은 노드 안에서 텐서 병렬을 씀: 층 수가 짝수여야 함"},
      {config(Strategy::data, 2, mlp(0, 16384, 2)), "배치, 폭, 은닉층 크기는 1 이상이어야 함"},
      {config(Strategy::data, 2, mlp(4096, 16384, 300)), "층 수는 1..256이어야 함"},
      {config(Strategy::data, 65, mlp(4096, 16384, 2)), "GPU 수는 1..64여야 함 (받은 값 65)"},
      {config(Strategy::data, 16, [](sim::ClusterConfig& c) { c.nodes = 3; }),
       "노드 수는 GPU 16개를 노드마다 8개 이하로 나누어야 함 (받은 값 3)"},
      {config(Strategy::data, 3, gemm(8192, 8192)), "데이터 병렬: m이 GPU 3개로 나누어떨어져야 함"},
      {config(Strategy::tensor, 3, gemm(8192, 8192)), "텐서 병렬: k가 GPU 3개로 나누어떨어져야 함"},
      {config(Strategy::hybrid, 16, gemm(8191, 8192)), "혼합 병렬: m은 노드 수로, k는 노드당 GPU 수로 나누어떨어져야 함"},
      {config(Strategy::data, 2, gemm(0, 8192)), "곱셈의 m, n, k는 1 이상이어야 함"},
  };
  for (const auto& c : cases) {
    const std::string english = cluster_refusal(c.config);
    SCOPED_TRACE(english);
    ASSERT_FALSE(english.empty()) << "the split was meant to be refused: " << c.korean;
    EXPECT_EQ(cluster_refusal_words(english, ko), c.korean);
    EXPECT_EQ(cluster_refusal_words(english, en), english);
  }
  EXPECT_EQ(cluster_refusal_words("preset 'c1060' has no [interconnect] table: no links to model", ko),
            "프리셋 'c1060'에는 [interconnect] 표가 없어 연결을 모델링할 수 없음");
}

TEST(SimRefusalText, ACudaKernelThatCannotLaunchSaysWhyInKorean) {
  kernels::KernelResourceUsage u;
  u.registers = 300;
  u.shared_bytes = 0;
  u.block_threads = 256;
  u.from_build = true;
  u.arch = "sm_90";
  u.cc_major = 9;
  u.cc_minor = 0;
  EXPECT_EQ(resource_sentence(u, ko),
            "레지스터 300개, 공유 메모리 없음, 스레드 256개: 스레드당 레지스터 300개가 최대 256개를 넘음 (빌드 기준, sm_90)");
  EXPECT_EQ(resource_sentence(u, en),
            "300 regs, no shared memory, 256 threads: 300 registers per thread exceed the maximum of 256 (from the build, sm_90)");
}

}  // namespace
}  // namespace ws::app
