// The simulated side without a window: every adopted simulation is a new generation, even when
// the allocator hands it the address the previous one had. Views keyed on the address drew a
// new chip with the old one's layout (export_lane_states threw "buffer too small" in the soak).
#include "core/sim_session.hpp"

#include <gtest/gtest.h>

#include <set>

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
