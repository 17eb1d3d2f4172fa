#include "cpu/thread_team.hpp"

#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "warpscope/kernels/system_info.hpp"

namespace ws::kernels::cpu {

namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();  // lets the core's other hyper-thread run, and eases the memory bus
#endif
}

// A job's number and how many threads take part travel in one word, so a member that wakes late
// can never pair one job's number with another's size. 8 bits of size: larger teams start threads.
constexpr std::uint32_t kMaxTeam = 255;
constexpr std::uint32_t job_word(std::uint32_t number, std::uint32_t threads) { return number << 8 | threads; }

class Team {
 public:
  // False when another run holds the team.
  bool try_run(int threads, const TeamMember& member) {
    std::unique_lock lock(busy_, std::try_to_lock);
    if (!lock.owns_lock()) return false;
    const std::uint32_t current = job_.load(std::memory_order_relaxed);
    for (; started_ < threads - 1; ++started_) {
      // Kept for the process's life (the team is never destroyed): a member asleep at exit costs
      // nothing, and joining at static destruction could wait on a run another thread still makes.
      std::thread(&Team::serve, this, started_ + 1, current).detach();
    }
    member_ = &member;
    idle_spin_us_.store(spin_for(threads, kIdleSpin).count(), std::memory_order_relaxed);
    const auto wait_spin = spin_for(threads, kBarrierSpin);
    remaining_.store(static_cast<std::uint32_t>(threads - 1), std::memory_order_relaxed);
    job_.store(job_word((current >> 8) + 1, static_cast<std::uint32_t>(threads)), std::memory_order_release);
    job_.notify_all();
    std::exception_ptr failed;
    try {
      member(0);
    } catch (...) {
      failed = std::current_exception();  // the others still use the caller's data: wait for them
    }
    for (auto r = remaining_.load(std::memory_order_acquire); r != 0; r = remaining_.load(std::memory_order_acquire))
      wait_for_change(remaining_, r, wait_spin);
    if (failed) std::rethrow_exception(failed);
    return true;
  }

 private:
  void serve(int id, std::uint32_t seen) {
    for (;;) {
      wait_for_change(job_, seen, std::chrono::microseconds(idle_spin_us_.load(std::memory_order_relaxed)));
      seen = job_.load(std::memory_order_acquire);
      if (static_cast<std::uint32_t>(id) >= (seen & kMaxTeam)) continue;  // not in this run
      // member_ cannot change before this member is counted done.
      (*member_)(id);
      if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) remaining_.notify_one();
    }
  }

  std::mutex busy_;
  int started_ = 0;  // members other than the caller's thread, ids 1..started_
  std::atomic<std::uint32_t> job_{0};
  std::atomic<std::uint32_t> remaining_{0};
  std::atomic<long long> idle_spin_us_{0};  // after the last run, as spin_for gave it for its size
  const TeamMember* member_ = nullptr;  // written before job_'s release
};

Team& team() {
  static Team* const t = new Team;  // never destroyed: see try_run
  return *t;
}

}  // namespace

std::chrono::microseconds spin_for(int threads, std::chrono::microseconds spin) {
  return threads <= cpu_info().cores ? spin : std::chrono::microseconds(0);
}

void wait_for_change(const std::atomic<std::uint32_t>& word, std::uint32_t old, std::chrono::microseconds spin) {
  const auto deadline = std::chrono::steady_clock::now() + spin;
  for (unsigned polls = 1; word.load(std::memory_order_acquire) == old; ++polls) {
    if ((spin.count() <= 0 || polls % 64 == 0) && std::chrono::steady_clock::now() >= deadline) {
      while (word.load(std::memory_order_acquire) == old) word.wait(old, std::memory_order_acquire);
      return;
    }
    cpu_relax();
  }
}

void SpinBarrier::arrive_and_wait() {
  const std::uint32_t phase = phase_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
    arrived_.store(0, std::memory_order_relaxed);
    phase_.store(phase + 1, std::memory_order_release);
    phase_.notify_all();
    return;
  }
  wait_for_change(phase_, phase, spin_);
}

void run_as_team(int threads, const TeamMember& member) {
  if (threads <= 1) {
    member(0);
    return;
  }
  if (static_cast<std::uint32_t>(threads) <= kMaxTeam && team().try_run(threads, member)) return;
  std::vector<std::thread> others;
  others.reserve(static_cast<std::size_t>(threads - 1));
  for (int id = 1; id < threads; ++id) others.emplace_back(member, id);
  member(0);
  for (auto& t : others) t.join();
}

}  // namespace ws::kernels::cpu
