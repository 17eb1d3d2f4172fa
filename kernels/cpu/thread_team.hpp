// The threads of one cpu-parallel run, kept for the process's life instead of started per run,
// and the barrier they meet at. At 256^3 a whole 2-thread run takes ~0.3 ms; starting a thread,
// and waking one that sleeps in the kernel at each of the run's barriers, cost a large share of
// that on the project's VMs (docs/PERFORMANCE.md, "cpu-parallel at small sizes"). So members
// spin for a short, bounded time before they sleep: long enough to bridge the gap between two
// runs in a row or between two threads reaching a barrier, short enough not to hold a core that
// another process (the window's software renderer) needs.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace ws::kernels::cpu {

// How long a waiting thread polls before it sleeps on a futex, where every thread of the run has
// a core. With more threads than cores a polling thread holds the core the one it waits for needs
// (512^3 on 8 threads and 2 cores took 9.9 ms instead of 2.3), so there they sleep at once.
constexpr std::chrono::microseconds kBarrierSpin{200};
constexpr std::chrono::microseconds kIdleSpin{2000};
// kBarrierSpin or kIdleSpin for a run of `threads`, or none if the process has fewer cores.
std::chrono::microseconds spin_for(int threads, std::chrono::microseconds spin);

// Waits until `word` no longer holds `old`: polls for `spin`, then sleeps (std::atomic wait).
void wait_for_change(const std::atomic<std::uint32_t>& word, std::uint32_t old, std::chrono::microseconds spin);

// std::barrier's arrive_and_wait for a fixed team, with a bounded spin before it sleeps
// (libstdc++'s barrier sleeps almost at once, and a sleeping thread takes tens of microseconds to
// wake on a VM).
class SpinBarrier {
 public:
  explicit SpinBarrier(int threads) : threads_(threads), spin_(spin_for(threads, kBarrierSpin)) {}
  SpinBarrier(const SpinBarrier&) = delete;
  SpinBarrier& operator=(const SpinBarrier&) = delete;
  // Returns once every thread has arrived; what each wrote before is visible to all after.
  void arrive_and_wait();

 private:
  const int threads_;
  const std::chrono::microseconds spin_;
  std::atomic<int> arrived_{0};
  std::atomic<std::uint32_t> phase_{0};
};

// A team member's body, borrowed for one run: run_as_team returns only when every member has, so
// the callable outlives its use. std::function copied a lambda of more than two captures to the
// heap on every run, a few percent of a 32^3 product.
class TeamMember {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, TeamMember>)
  TeamMember(F&& body)  // implicit: the call sites pass lambdas
      : body_(const_cast<void*>(static_cast<const void*>(std::addressof(body)))),
        call_([](void* b, int id) { (*static_cast<std::remove_reference_t<F>*>(b))(id); }) {}
  void operator()(int id) const { call_(body_, id); }

 private:
  void* body_;
  void (*call_)(void*, int);
};

// Calls member(id) for every id in [0, threads) at the same time, one thread each, the caller
// being id 0, and returns when all have returned. The other members are threads kept from earlier
// runs (started the first time so many are needed). If another run holds those threads (two
// callers at once), this run starts threads of its own, as before the team existed.
void run_as_team(int threads, const TeamMember& member);

}  // namespace ws::kernels::cpu
