// A fixed team of threads that share out the items of one job and wait for all of them: the
// engine's rounds are short (a few milliseconds) and many (thousands a run), so the threads stay
// alive between jobs and sleep on a futex (std::atomic wait) instead of being started per round.
// Items are taken one at a time as threads come free, so a thread that the OS has set aside (the
// machine is busy) delays the job by one item, not by a fixed share of them.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace ws::sim::detail {

class WorkerPool {
 public:
  // `threads` includes the calling thread; 1 starts no thread at all.
  explicit WorkerPool(int threads) : threads_(std::max(1, threads)) {
    for (int i = 1; i < threads_; ++i) workers_.emplace_back([this] { work(); });
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool() {
    stop_.store(true, std::memory_order_release);
    round_.fetch_add(1, std::memory_order_release);
    round_.notify_all();
    for (auto& t : workers_) t.join();
  }

  int threads() const { return threads_; }

  // Calls job(i) once for every i in [0, count) (count < 65536), on the calling thread and the
  // pool's, and returns when all calls have returned. What the caller wrote before is visible to
  // the calls, and what the calls wrote is visible to the caller after. A call that throws (out
  // of memory, most likely) does not end the process from a pool thread: the other calls still
  // run, and the first exception is rethrown here once they have.
  void for_each(int count, const std::function<void(int)>& job) {
    if (threads_ == 1 || count <= 1) {
      for (int i = 0; i < count; ++i) job(i);
      return;
    }
    failure_ = nullptr;
    const std::uint32_t round = round_.load(std::memory_order_relaxed) + 1;
    job_ = &job;
    done_.store(0, std::memory_order_relaxed);
    // The round and the count travel with the next index, so a thread that wakes late for an
    // earlier round can never take an item of this one with that round's view of it.
    next_.store(std::uint64_t{round} << 32 | static_cast<std::uint64_t>(count) << 16, std::memory_order_release);
    round_.store(round, std::memory_order_release);
    round_.notify_all();
    take(round);
    for (int d = done_.load(std::memory_order_acquire); d != count; d = done_.load(std::memory_order_acquire))
      done_.wait(d, std::memory_order_acquire);
    if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
  }

 private:
  void take(std::uint32_t round) {
    std::uint64_t v = next_.load(std::memory_order_acquire);
    for (;;) {
      const auto index = static_cast<int>(v & 0xffff), count = static_cast<int>((v >> 16) & 0xffff);
      if ((v >> 32) != round || index >= count) return;
      if (!next_.compare_exchange_weak(v, v + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      try {
        (*job_)(index);  // the round cannot end, nor job_ change, before this item is counted done
      } catch (...) {
        std::lock_guard lock(failure_mu_);
        if (!failure_) failure_ = std::current_exception();
      }
      if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == count) done_.notify_one();
      v = next_.load(std::memory_order_acquire);
    }
  }

  void work() {
    std::uint32_t seen = 0;
    for (;;) {
      round_.wait(seen, std::memory_order_acquire);
      seen = round_.load(std::memory_order_acquire);
      if (stop_.load(std::memory_order_acquire)) return;
      take(seen);
    }
  }

  const int threads_;
  std::vector<std::thread> workers_;
  std::atomic<std::uint32_t> round_{0};  // what the threads sleep on
  std::atomic<std::uint64_t> next_{0};   // round << 32 | count << 16 | next index
  std::atomic<int> done_{0};
  const std::function<void(int)>* job_ = nullptr;  // written before next_'s release
  std::mutex failure_mu_;
  std::exception_ptr failure_;  // the round's first exception; read by the caller after done_
  std::atomic<bool> stop_{false};
};

}  // namespace ws::sim::detail
