// The simulated side without a window: every adopted simulation is a new generation, even when
// the allocator hands it the address the previous one had. Views keyed on the address drew a
// new chip with the old one's layout (export_lane_states threw "buffer too small" in the soak).
#include "core/sim_session.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <thread>
#include <vector>

using namespace ws;

TEST(SimSession, EveryAdoptedSimulationIsANewGeneration) {
  app::SimSession session;
  EXPECT_EQ(session.generation(), 0u);
  std::set<std::uint64_t> seen;
  for (const char* preset : {"gtx580", "h100", "gtx580", "v100"}) {
    app::SimControls c;
    c.gpu_preset = preset;
    c.shape = {32, 32, 32};
    session.configure(c);
    session.wait_ready();
    ASSERT_NE(session.simulation(), nullptr) << session.error();
    EXPECT_TRUE(seen.insert(session.generation()).second) << preset;
    EXPECT_EQ(session.simulation()->gpu().id, preset);
  }
  EXPECT_EQ(session.generation(), 4u);
  // The same controls again: nothing is rebuilt, the generation stays.
  app::SimControls same;
  same.gpu_preset = "v100";
  same.shape = {32, 32, 32};
  session.configure(same);
  session.wait_ready();
  EXPECT_EQ(session.generation(), 4u);
}

namespace {

app::SimControls big_launch() {
  app::SimControls c;
  c.gpu_preset = "h100";
  c.cpu_preset = "i7-3960x";
  c.shape = {512, 512, 512};
  return c;
}

// The seeks below wait on the background run and replay from checkpoints on several threads.
// ThreadSanitizer looks for races in that, not in how far a run goes, so there a 256³ launch does
// (its background run is still at cycle 0 when the first seek comes, and each seek still replays
// thousands of cycles); the release and ASan builds seek in the 512³ one.
app::SimControls seek_launch() {
  app::SimControls c = big_launch();
#ifdef __SANITIZE_THREAD__
  c.shape = {256, 256, 256};
#endif
  return c;
}

// A launch a lecturer leaves before it is simulated to its end: 512³ takes a second or two in a
// release build; the sanitizers run it 5 to 10 times slower, and 256³ is still not done at once.
app::SimControls left_launch() {
  app::SimControls c = big_launch();
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
  c.shape = {256, 256, 256};
#endif
  return c;
}

}  // namespace

TEST(SimSession, ASeekPastTheSimulatedPartWaitsAndLandsOnTheExactState) {
  app::SimSession session;
  session.configure(seek_launch());
  session.wait_adopted();
  ASSERT_NE(session.simulation(), nullptr) << session.error();
  const std::int64_t far = 1'000'000'000;
  session.seek(far);
  if (!session.complete()) {
    // Nothing past the simulated part is shown; the request waits.
    EXPECT_LE(session.cycle(), session.simulated_cycles());
    ASSERT_TRUE(session.seek_pending().has_value());
  }
  // Frames go on while the background run catches up (a minute at most, even under sanitizers).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (session.seek_pending() && std::chrono::steady_clock::now() < give_up) {
    session.update(1.0 / 60);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_FALSE(session.seek_pending().has_value());
  ASSERT_TRUE(session.complete());
  // Clamped to the real end once it was known.
  EXPECT_EQ(session.cycle(), session.total_cycles());
  EXPECT_TRUE(session.at_end());
}

TEST(SimSession, LongSeeksAreSpreadOverFramesAndLandExactly) {
  app::SimSession session;
  session.configure(seek_launch());
  session.wait_ready();
  ASSERT_TRUE(session.complete());
  const std::int64_t total = session.total_cycles();
  const std::vector<std::int64_t> targets = {total * 3 / 4 + 5, total / 3, std::int64_t{17}, total - 1};
  // The states a fresh run passes through, taken in one pass in cycle order (one run instead of
  // one per target keeps this test short under the sanitizers).
  std::vector<std::int64_t> ascending = targets;
  std::sort(ascending.begin(), ascending.end());
  std::map<std::int64_t, std::uint64_t> expected;
  {
    sim::SimConfig cfg;
    cfg.shape = seek_launch().shape;
    cfg.block = session.controls().block;
    cfg.kernel = session.controls().kernel;
    sim::Simulation fresh(sim::find_gpu("h100"), sim::find_cpu("i7-3960x"), cfg);
    for (std::int64_t target : ascending) {
      fresh.run_until(target);
      expected[target] = fresh.digest();
    }
  }
  for (std::int64_t target : targets) {
    session.seek(target);
    int frames = 0;
    while (session.seek_pending() && frames < 100000) {
      session.update(1.0 / 60);
      ++frames;
    }
    ASSERT_EQ(session.cycle(), target);
    EXPECT_EQ(session.simulation()->digest(), expected.at(target)) << "cycle " << target;
  }
}

namespace {

app::SimControls small_launch(const char* gpu_preset = "h100") {
  app::SimControls c;
  c.gpu_preset = gpu_preset;
  c.cpu_preset = "i7-3960x";
  c.kernel = sim::Kernel::naive;
  c.shape = {64, 64, 64};
  c.block = 16;
  return c;
}

}  // namespace

TEST(SimSession, FirstIssueLandsOnTheFirstCycleTheWarpIssues) {
  app::SimSession session;
  session.configure(small_launch());
  session.seek_when_ready(app::SeekAnchor{app::SeekAnchor::Kind::first_issue, 0, 0});
  session.wait_ready();
  ASSERT_NE(session.simulation(), nullptr) << session.error();
  EXPECT_FALSE(session.anchor_pending());
  sim::Simulation& s = *session.simulation();
  const std::int64_t found = session.cycle();
  EXPECT_GT(found, 0) << "blocks take a while to launch: cycle 0 has no issuing warp";
  EXPECT_EQ(s.warp_state(0, 0), sim::WarpState::issuing);
  // No earlier cycle has that warp issuing.
  for (std::int64_t c = 0; c < found; ++c) {
    s.seek(c);
    ASSERT_NE(s.warp_state(0, 0), sim::WarpState::issuing) << "cycle " << c;
  }
}

TEST(SimSession, MidRunIsHalfTheSimulatedTotalAndAnyOtherSeekCancelsIt) {
  app::SimSession session;
  session.configure(small_launch());
  session.seek_when_ready(app::SeekAnchor{app::SeekAnchor::Kind::mid_run});
  session.wait_ready();
  ASSERT_TRUE(session.complete()) << session.error();
  EXPECT_EQ(session.cycle(), session.total_cycles() / 2);
  EXPECT_GT(session.cycle(), 0);

  app::SimControls other = small_launch();
  other.shape = {96, 96, 96};
  session.configure(other);
  session.seek_when_ready(app::SeekAnchor{app::SeekAnchor::Kind::mid_run});
  session.seek_when_ready(std::int64_t{7});  // asked for later: wins
  session.wait_ready();
  EXPECT_EQ(session.cycle(), 7);
  EXPECT_FALSE(session.anchor_pending());
}

// Going back to a lesson step, or flipping between two presets, shows a launch simulated before at
// once: the finished simulation was kept, and it is the same one a new build would give.
TEST(SimSession, AFinishedLaunchShownAgainIsAdoptedAtOnceAndIsExact) {
  app::SimSession session;
  const app::SimControls first = small_launch();
  const app::SimControls second = small_launch("gtx580");
  session.configure(first);
  session.wait_ready();
  const std::int64_t total = session.total_cycles();
  session.seek(total / 3);
  session.configure(second);
  session.wait_ready();
  EXPECT_FALSE(session.reused());
  EXPECT_EQ(session.kept_count(), 1u);
  EXPECT_GT(session.kept_bytes(), 2u * 64 * 64 * 4) << "A, B and C at least";

  const auto generation = session.generation();
  session.configure(first);
  // No update() and no wait: it is shown as soon as it is asked for.
  ASSERT_NE(session.simulation(), nullptr);
  EXPECT_TRUE(session.reused());
  EXPECT_FALSE(session.building());
  EXPECT_TRUE(session.complete());
  EXPECT_EQ(session.generation(), generation + 1) << "a view keyed on the generation redraws";
  EXPECT_EQ(session.simulation()->gpu().id, "h100");
  EXPECT_EQ(session.cycle(), 0) << "from its start, like a new build, not where it was left";
  EXPECT_EQ(session.total_cycles(), total);
  EXPECT_EQ(session.kept_count(), 1u) << "the gtx580 run is kept in its place";

  // Its states are a fresh run's.
  sim::SimConfig cfg;
  cfg.shape = first.shape;
  cfg.block = first.block;
  cfg.kernel = first.kernel;
  sim::Simulation fresh(sim::find_gpu("h100"), sim::find_cpu("i7-3960x"), cfg);
  for (const std::int64_t c : {total / 2, std::int64_t{3}, total}) {
    session.seek(c);
    session.finish_seek();
    fresh.seek(c);
    EXPECT_EQ(session.simulation()->digest(), fresh.digest()) << "cycle " << c;
  }
}

TEST(SimSession, KeptLaunchesAreFewAndOnlyFinishedOnes) {
  app::SimSession session;
  // More launches than are kept: the oldest goes, and showing it again builds it anew.
  const char* presets[] = {"h100", "gtx580", "v100", "a100-80gb", "c1060", "p100"};
  static_assert(std::size(presets) > app::SimSession::kMaxKept + 1);
  app::SimControls c = small_launch();
  for (const char* p : presets) {
    c.gpu_preset = p;
    session.configure(c);
    session.wait_ready();
    ASSERT_NE(session.simulation(), nullptr) << p << ": " << session.error();
  }
  EXPECT_EQ(session.kept_count(), app::SimSession::kMaxKept);
  c.gpu_preset = presets[0];
  session.configure(c);
  EXPECT_TRUE(session.building()) << "the oldest was let go";
  session.wait_ready();
  EXPECT_FALSE(session.reused());
  c.gpu_preset = presets[std::size(presets) - 2];
  session.configure(c);
  EXPECT_TRUE(session.reused());

  // Asked back for the launch still shown while another one is being built: the build is dropped
  // when it ends, and the seek asked for meanwhile lands on the one shown.
  const auto builds = session.builds_started();
  const auto generation = session.generation();
  const app::SimControls shown = c;
  session.configure(seek_launch());
  ASSERT_TRUE(session.building());
  session.configure(shown);
  session.seek_when_ready(std::int64_t{5});
  session.wait_adopted();
  EXPECT_EQ(session.builds_started(), builds + 1);
  EXPECT_EQ(session.generation(), generation) << "nothing new adopted";
  EXPECT_EQ(session.simulation()->gpu().id, shown.gpu_preset);
  EXPECT_EQ(session.cycle(), 5);

}

// Shows `launch` and says whether it is still being simulated, as a launch a lecturer leaves early is.
namespace {
bool shown_unfinished(app::SimSession& session, const app::SimControls& launch) {
  session.configure(launch);
  session.wait_adopted();
  EXPECT_NE(session.simulation(), nullptr) << session.error();
  return session.simulation() != nullptr && !session.complete();
}
}  // namespace

// A lecturer who leaves a step before its launch is simulated to the end and comes back to it
// later (the built-in lesson shows the 1024³ launch of step 2 again in steps 5 to 7) finds it done:
// it went on behind the steps in between, waiting while theirs were being simulated.
TEST(SimSession, ALaunchLeftBeforeItFinishesGoesOnAndIsThereWhenShownAgain) {
  app::SimSession session;
  const app::SimControls big = left_launch();
  if (!shown_unfinished(session, big)) GTEST_SKIP() << "the launch was simulated to its end before it was left";

  // Left for a launch that is simulated at once: it goes on behind it.
  session.configure(small_launch());
  session.wait_ready();
  ASSERT_TRUE(session.finishing() || session.kept_count() == 1);
  while (session.finishing()) {
    session.update(0.0);
    ASSERT_FALSE(session.finishing() && session.finishing_paused()) << "nothing else is being simulated";
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(session.kept_count(), 1u) << "finished, it joins the kept ones";
  EXPECT_GT(session.kept_bytes(), 0u);

  const auto builds = session.builds_started();
  session.configure(big);
  EXPECT_TRUE(session.reused());
  EXPECT_TRUE(session.complete()) << "simulated to its end while another launch was shown";
  EXPECT_EQ(session.builds_started(), builds);
  EXPECT_EQ(session.cycle(), 0);

  // Its states are a fresh run's.
  sim::SimConfig cfg;
  cfg.shape = big.shape;
  cfg.block = big.block;
  cfg.kernel = big.kernel;
  sim::Simulation fresh(sim::find_gpu(big.gpu_preset), sim::find_cpu(big.cpu_preset), cfg);
  for (const std::int64_t c : {session.total_cycles() / 2, session.total_cycles()}) {
    session.seek(c);
    session.finish_seek();
    fresh.seek(c);
    EXPECT_EQ(session.simulation()->digest(), fresh.digest()) << "cycle " << c;
  }
}

// What is held behind the launch shown stays within one checkpoint budget while a launch left
// part-way goes on and grows: the finished launches kept go first, oldest first, and the one
// finishing stays, as a lecturer is likelier to come back to it.
TEST(SimSession, ALaunchGoingOnBehindCountsAgainstTheKeptBudget) {
  app::SimSession session;
  const app::SimControls oldest = small_launch();
  session.configure(oldest);
  session.wait_ready();
  session.configure(small_launch("gtx580"));
  session.wait_ready();
  const app::SimControls big = left_launch();
  if (!shown_unfinished(session, big)) GTEST_SKIP() << "the launch was simulated to its end before it was left";
  session.configure(small_launch("v100"));
  session.wait_ready();
  if (!session.finishing()) GTEST_SKIP() << "the launch left was simulated to its end at once";
  ASSERT_EQ(session.kept_count(), 2u);
  // As much as is held now: any checkpoint the run left behind adds must push a kept one out.
  const std::size_t budget = session.kept_bytes();
  session.set_kept_budget_bytes(budget);
  EXPECT_EQ(session.kept_count(), 2u) << "within the budget: nothing goes yet";
  // (The run grows on its own thread, so the bytes read after an update may already be past what
  // it weighed: only the counts are checked on the way.)
  std::size_t kept = session.kept_count();
  bool went_while_it_ran = false;
  while (session.finishing()) {
    session.update(0.0);
    if (!session.finishing()) break;  // done: it joined the kept ones
    ASSERT_LE(session.kept_count(), kept) << "nothing joins the kept ones while the run goes on";
    kept = session.kept_count();
    went_while_it_ran = went_while_it_ran || kept < 2;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(went_while_it_ran) << "a finished run goes as soon as the run left outgrows the budget, not when it ends";
  EXPECT_EQ(session.kept_count(), 1u) << "both finished runs went, and the run left is kept, alone";
  EXPECT_GT(session.kept_bytes(), budget) << "it outgrew what the two others and it held when it was left";

  session.configure(big);
  EXPECT_TRUE(session.reused()) << "the run left stayed";
  EXPECT_TRUE(session.complete());
  session.configure(oldest);
  EXPECT_TRUE(session.building()) << "the oldest finished run went first";
}

// The launch shown has the cores first: one left for another launch still being simulated waits.
TEST(SimSession, ALaunchLeftWaitsWhileTheOneShownIsSimulated) {
  app::SimSession session;
  const app::SimControls big = left_launch();
  if (!shown_unfinished(session, big)) GTEST_SKIP() << "the launch was simulated to its end before it was left";
  app::SimControls other = big;
  other.gpu_preset = "gtx580";
  session.configure(other);
  session.wait_adopted();
  ASSERT_TRUE(session.finishing());
  if (session.complete()) GTEST_SKIP() << "the second launch was simulated to its end at once";
  EXPECT_TRUE(session.finishing_paused());
  session.wait_ready();
  session.update(0.0);
  EXPECT_TRUE(!session.finishing() || !session.finishing_paused()) << "resumed once the one shown is done";
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
// A launch whose background run runs out of memory part-way (the address space is cut, in a
// child, once the launch is built) is dropped: the panel then says why where the chip was, and
// nothing reads the half-stepped models. (The sanitizers need terabytes of address space.)
TEST(SimSession, ARunThatRunsOutOfMemoryIsDroppedWithItsReason) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    app::SimSession session;
    app::SimControls c;
    c.cpu_preset = "i7-3960x";
    c.shape = {1024, 1024, 1024};
    session.configure(c);
    session.wait_adopted();
    if (session.simulation() == nullptr) _exit(10);
    // What the process maps now, and 8 MiB more: the run's checkpoints (sized for the machine)
    // soon need more.
    long vm_kib = 0;
    if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
      char line[256];
      while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "VmSize: %ld kB", &vm_kib) == 1) break;
      std::fclose(f);
    }
    const rlim_t cut = (static_cast<rlim_t>(vm_kib) + 8 * 1024) * 1024;
    const rlimit limit{cut, cut};
    if (vm_kib == 0 || setrlimit(RLIMIT_AS, &limit) != 0) _exit(11);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (session.simulation() != nullptr && std::chrono::steady_clock::now() < give_up) {
      if (session.simulation()->complete()) _exit(12);  // it fitted: the cut proved nothing
      session.update(0.0);
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (session.simulation() != nullptr) _exit(13);
    _exit(session.error().rfind("ran out of memory at cycle ", 0) == 0 ? 0 : 14);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10 not built, 11 no limit, 12 finished, 13 not dropped, 14 no reason";
}
#endif
