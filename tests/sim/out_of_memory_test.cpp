// Memory that runs out (a `ulimit -v`, a laptop already full) must end a simulation with a reason
// the window can show, never the process. The limits are set in a child process, so that this
// one's allocator is left alone.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "warpscope/sim/presets.hpp"
#include "warpscope/sim/simulation.hpp"
#include "worker_pool.hpp"

using namespace ws::sim;

namespace {

// The sanitizers reserve terabytes of address space: an RLIMIT_AS stops them before the test.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// `body`'s return value, run in a child whose address space is limited to `bytes`; 128 + the
// signal when the child was killed (an abort is 134).
int in_child_limited_to(rlim_t bytes, const std::function<int()>& body) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const rlimit limit{bytes, bytes};
    if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(100);
    _exit(body());
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

constexpr rlim_t kMiB = 1024 * 1024;

}  // namespace

// Without the hand-off, the pool thread whose item threw ended the process (std::terminate).
TEST(SimOutOfMemory, APoolItemThatThrowsIsRethrownOnceEveryItemHasRun) {
  ws::sim::detail::WorkerPool pool(3);
  std::atomic<int> ran{0};
  EXPECT_THROW(pool.for_each(64,
                             [&](int i) {
                               ran.fetch_add(1);
                               if (i % 7 == 3) throw std::bad_alloc();
                             }),
               std::bad_alloc);
  EXPECT_EQ(ran.load(), 64);
  std::atomic<int> again{0};
  pool.for_each(64, [&](int) { again.fetch_add(1); });  // the next round runs as if nothing happened
  EXPECT_EQ(again.load(), 64);
}

// The default checkpoint budget is an eighth of what the process may use: under `ulimit -v` that
// is the limit, not the machine's memory (which gave a 3 GiB budget in a 3 GiB address space).
TEST(SimOutOfMemory, TheDefaultBudgetFollowsAnAddressSpaceLimit) {
  if (kSanitized) GTEST_SKIP() << "the sanitizers' shadow memory does not fit under an address-space limit";
  const int code = in_child_limited_to(3072 * kMiB, [] { return default_checkpoint_budget_bytes() <= 384 * kMiB ? 0 : 1; });
  EXPECT_EQ(code, 0) << "budget above an eighth of the 3 GiB limit";
  // Where an eighth is under the 256 MiB floor, the floor yields to a quarter of the limit.
  const int tight = in_child_limited_to(512 * kMiB, [] { return default_checkpoint_budget_bytes() <= 128 * kMiB ? 0 : 1; });
  EXPECT_EQ(tight, 0) << "budget above a quarter of the 512 MiB limit";
}

// A run whose checkpoints cannot fit stops with "ran out of memory at cycle N; try a smaller
// size", and what it simulated before that can still be shown.
TEST(SimOutOfMemory, ARunThatRunsOutOfMemoryStopsWithAReason) {
  if (kSanitized) GTEST_SKIP() << "the sanitizers' shadow memory does not fit under an address-space limit";
  const int code = in_child_limited_to(320 * kMiB, [] {
    SimConfig cfg;
    cfg.kernel = Kernel::tiled;
    cfg.shape = {1024, 1024, 1024};
    cfg.block = 16;
    cfg.progressive = true;
    cfg.threads = 2;
    cfg.checkpoint_budget_bytes = std::size_t{4} << 30;  // far past the limit: it must run out
    try {
      Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), cfg);
      try {
        s.wait_until_complete();
        return 10;  // finished: the limit proved nothing
      } catch (const std::runtime_error& e) {
        if (std::string(e.what()).find("ran out of memory at cycle ") == std::string::npos) return 11;
      }
      if (s.background_error().rfind("ran out of memory at cycle ", 0) != 0) return 12;
      if (s.complete()) return 13;
      s.seek(s.simulated_cycles() / 2);  // the part simulated before is still there to show
      return s.cycle() == s.simulated_cycles() / 2 ? 0 : 14;
    } catch (const std::bad_alloc&) {
      return 15;  // the launch itself did not fit: the limit is too tight for this test
    } catch (const std::exception&) {
      return 16;  // refused
    }
  });
  EXPECT_EQ(code, 0) << "10 finished, 11-13 no reason, 14 no seek, 15 no room to start, 16 refused, 134 aborted";
}
