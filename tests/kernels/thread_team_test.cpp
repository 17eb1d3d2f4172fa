// The team that runs cpu-parallel's threads, its barrier, and the packing buffers kept between
// runs (kernels/cpu/thread_team.hpp, buffer_cache.hpp).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cpu/buffer_cache.hpp"
#include "cpu/thread_team.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::kernels::cpu {
namespace {

TEST(ThreadTeam, EveryMemberRunsOnceOnItsOwnThread) {
  for (int threads : {1, 2, 3, 5, 2}) {  // the team grows, then a smaller run leaves some out
    std::vector<std::atomic<int>> calls(static_cast<std::size_t>(threads));
    std::vector<std::thread::id> ids(static_cast<std::size_t>(threads));
    run_as_team(threads, [&](int id) {
      calls[static_cast<std::size_t>(id)].fetch_add(1);
      ids[static_cast<std::size_t>(id)] = std::this_thread::get_id();
    });
    EXPECT_EQ(ids[0], std::this_thread::get_id()) << "the caller is member 0";
    for (int i = 0; i < threads; ++i) {
      EXPECT_EQ(calls[static_cast<std::size_t>(i)].load(), 1) << threads << " threads, member " << i;
      for (int j = 0; j < i; ++j)
        EXPECT_NE(ids[static_cast<std::size_t>(i)], ids[static_cast<std::size_t>(j)]) << "members " << i << ", " << j;
    }
  }
}

// Each member writes its slot, meets the others, and must then read every slot of this phase:
// a barrier that let anyone through early, or did not publish the writes, fails here (and under
// ThreadSanitizer). Many short runs in a row also exercise the team's hand-over between runs.
TEST(ThreadTeam, BarrierPublishesEveryMembersWrites) {
  constexpr int kThreads = 3, kRuns = 50, kPhases = 10;
  for (int run = 0; run < kRuns; ++run) {
    SpinBarrier barrier(kThreads);
    std::vector<int> slot(kThreads, -1);
    std::atomic<int> mismatches{0};
    run_as_team(kThreads, [&](int id) {
      for (int phase = 0; phase < kPhases; ++phase) {
        slot[static_cast<std::size_t>(id)] = phase;
        barrier.arrive_and_wait();
        for (int other = 0; other < kThreads; ++other)
          if (slot[static_cast<std::size_t>(other)] != phase) mismatches.fetch_add(1);
        barrier.arrive_and_wait();  // nobody writes the next phase while another still reads
      }
    });
    ASSERT_EQ(mismatches.load(), 0) << "run " << run;
  }
}

TEST(ThreadTeam, TwoCallersAtOnceBothFinish) {
  std::atomic<int> total{0};
  auto caller = [&] {
    for (int run = 0; run < 50; ++run) {
      SpinBarrier barrier(2);
      run_as_team(2, [&](int) {
        barrier.arrive_and_wait();
        total.fetch_add(1);
      });
    }
  };
  std::thread a(caller), b(caller);
  a.join();
  b.join();
  EXPECT_EQ(total.load(), 2 * 50 * 2);
}

TEST(ThreadTeam, AnExceptionInTheCallerWaitsForTheOthersThenPropagates) {
  std::atomic<int> finished{0};
  EXPECT_THROW(run_as_team(3,
                           [&](int id) {
                             if (id == 0) throw std::runtime_error("member 0 failed");
                             std::this_thread::sleep_for(std::chrono::milliseconds(20));
                             finished.fetch_add(1);
                           }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 2) << "run_as_team returned before the other members were done";
  // The team is free again afterwards.
  std::atomic<int> calls{0};
  run_as_team(3, [&](int) { calls.fetch_add(1); });
  EXPECT_EQ(calls.load(), 3);
}

// With more threads than cores a polling thread holds the core the thread it waits for needs.
TEST(ThreadTeam, ThreadsPollOnlyWhereEachHasACore) {
  const int cores = cpu_info().cores;
  EXPECT_EQ(spin_for(1, kBarrierSpin), kBarrierSpin);
  EXPECT_EQ(spin_for(cores, kIdleSpin), kIdleSpin);
  EXPECT_EQ(spin_for(cores + 1, kBarrierSpin).count(), 0);
  EXPECT_EQ(spin_for(cores + 1, kIdleSpin).count(), 0);
  // And a team larger than the machine still runs to the end.
  SpinBarrier barrier(cores + 3);
  std::atomic<int> passed{0};
  run_as_team(cores + 3, [&](int) {
    barrier.arrive_and_wait();
    passed.fetch_add(1);
  });
  EXPECT_EQ(passed.load(), cores + 3);
}

TEST(PackBuffers, AReleasedBufferIsReusedAndAligned) {
  // A size no other test or run in this process asks for (other runs leave buffers kept), and
  // under kKeptBufferBytes: the smallest kept buffer large enough for it is this one.
  constexpr std::size_t kFloats = 1'234'567;
  float* first = nullptr;
  {
    PackBuffer b(kFloats);
    first = b.get();
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % 64, 0u);
    first[kFloats - 1] = 1.0f;  // the whole size is usable
  }
  PackBuffer again(kFloats);
  EXPECT_EQ(again.get(), first) << "a kept buffer large enough should be taken";
  PackBuffer larger(kFloats + 1);
  EXPECT_NE(larger.get(), first);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(larger.get()) % 64, 0u);
}

// A large product's packed B panel is kept for its next run (a job's repeats), one at a time, and
// only a large request takes it. At kKeptLargeBytes, so that no buffer another test left is larger.
TEST(PackBuffers, OneLargeBufferIsKeptForTheNextLargeRun) {
  constexpr std::size_t kLarge = kKeptLargeBytes / sizeof(float);
  float* first = nullptr;
  {
    PackBuffer large(kLarge);
    first = large.get();
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % 64, 0u);
  }
  EXPECT_EQ(kept_large_pack_bytes(), kKeptLargeBytes);
  {
    PackBuffer small(1000);
    EXPECT_NE(small.get(), first) << "a small request must leave the large buffer for a large one";
  }
  {
    PackBuffer again(kLarge);
    EXPECT_EQ(again.get(), first) << "the kept large buffer should be taken";
    EXPECT_EQ(kept_large_pack_bytes(), 0u);
  }
  EXPECT_EQ(kept_large_pack_bytes(), kKeptLargeBytes);
  const std::size_t small_kept = kept_pack_bytes();
  { PackBuffer huge(kLarge + 1); }
  EXPECT_EQ(kept_large_pack_bytes(), kKeptLargeBytes) << "a buffer over kKeptLargeBytes is freed, the kept one stays";
  EXPECT_EQ(kept_pack_bytes(), small_kept);
  {
    PackBuffer held(kLarge);  // takes the kept one
    { PackBuffer mid(kKeptBufferBytes / sizeof(float) + 1); }
    EXPECT_EQ(kept_large_pack_bytes(), kKeptBufferBytes + sizeof(float));
  }
  EXPECT_EQ(kept_large_pack_bytes(), kKeptLargeBytes) << "the latest large buffer given back replaces the kept one";
}

TEST(PackBuffers, SmallBuffersStayFewAndWithinTheirTotal) {
  {
    const std::size_t kept = kept_pack_buffers();
    PackBuffer none(0);  // an order that packs nothing takes no kept buffer
    EXPECT_EQ(none.get(), nullptr);
    EXPECT_EQ(kept_pack_buffers(), kept);
  }
  {
    std::vector<PackBuffer> many;
    for (int i = 0; i < 40; ++i) many.emplace_back(1024 + static_cast<std::size_t>(i));
  }
  EXPECT_LE(kept_pack_buffers(), 16u);
  EXPECT_GE(kept_pack_buffers(), 1u);
  {
    std::vector<PackBuffer> big;  // 7 MiB each: three of them pass the total
    for (int i = 0; i < 3; ++i) big.emplace_back((std::size_t{7} << 20) / sizeof(float) + static_cast<std::size_t>(i));
  }
  EXPECT_LE(kept_pack_bytes(), kKeptTotalBytes);
  EXPECT_GE(kept_pack_bytes(), std::size_t{14} << 20) << "two of the 7 MiB buffers fit and should be kept";
}

}  // namespace
}  // namespace ws::kernels::cpu
