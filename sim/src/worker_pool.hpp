// A fixed team of threads that runs one job in parts and waits for all of them: the engine's
// rounds are short (a few milliseconds) and many (thousands a run), so the threads stay alive
// between jobs and sleep on a futex (std::atomic wait) instead of being started per round.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace ws::sim::detail {

class WorkerPool {
 public:
  // `threads` parts per job, the calling thread included; 1 starts no thread at all.
  explicit WorkerPool(int threads) : parts_(std::max(1, threads)) {
    for (int part = 1; part < parts_; ++part) workers_.emplace_back([this, part] { work(part); });
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool() {
    stop_ = true;
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    for (auto& t : workers_) t.join();
  }

  int parts() const { return parts_; }

  // Calls job(part) once for every part in [0, parts()), part 0 on the calling thread, and
  // returns when all have returned. Whatever the caller wrote before is visible to the parts,
  // and whatever the parts wrote is visible to the caller after.
  void run(const std::function<void(int)>& job) {
    if (parts_ == 1) {
      job(0);
      return;
    }
    job_ = &job;
    remaining_.store(parts_ - 1, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    job(0);
    for (int left = remaining_.load(std::memory_order_acquire); left != 0;
         left = remaining_.load(std::memory_order_acquire))
      remaining_.wait(left, std::memory_order_acquire);
  }

 private:
  void work(int part) {
    std::uint32_t seen = 0;
    for (;;) {
      generation_.wait(seen, std::memory_order_acquire);
      seen = generation_.load(std::memory_order_acquire);
      if (stop_) return;
      (*job_)(part);
      if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) remaining_.notify_one();
    }
  }

  const int parts_;
  std::vector<std::thread> workers_;
  std::atomic<std::uint32_t> generation_{0};
  std::atomic<int> remaining_{0};
  const std::function<void(int)>* job_ = nullptr;  // written before generation_'s release
  bool stop_ = false;                              // likewise
};

}  // namespace ws::sim::detail
