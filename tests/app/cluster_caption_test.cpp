// The built-in lesson's cluster steps (issue 15 item 6): every {cluster.*} caption value equals
// what `warpscope cluster --json` reports for the same split, rounded the way the view rounds.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/run_binary.hpp"
#include "core/caption_values.hpp"
#include "core/cluster_setup.hpp"
#include "core/lesson_vocabulary.hpp"
#include "lesson.hpp"

namespace {

using ws::app::CaptionContext;
using ws::app::caption_value;
namespace lesson = ws::lesson;

nlohmann::json cli_json(const std::string& preset, const lesson::ClusterSetting& s) {
  std::string cmd = fmt::format("{} cluster --preset {} --strategy {} --gpus {} --size {} --micro-batches {} --no-check --json",
                                WARPSCOPE_BIN, preset, s.strategy, s.gpus, s.size, s.micro_batches);
  if (s.nodes > 0) cmd += fmt::format(" --nodes {}", s.nodes);
  // The English and Korean chapters ask the same questions: each is run once.
  static std::map<std::string, nlohmann::json> asked;
  if (const auto it = asked.find(cmd); it != asked.end()) return it->second;
  const auto r = run_command(cmd);
  EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.output;
  return asked[cmd] = nlohmann::json::parse(r.output, nullptr, false);
}

std::string value(std::string_view key, const CaptionContext& ctx) { return caption_value(key, ctx).value_or("(none)"); }

TEST(ClusterCaptions, EveryClusterStepQuotesWhatTheCliReports) {
  for (const char* file : {"gpu-story.en.toml", "gpu-story.ko.toml"}) {
    const auto parsed =
        lesson::load_lesson_file(std::string(WARPSCOPE_ASSETS_DIR) + "/lessons/" + file, ws::app::registry_vocabulary());
    ASSERT_TRUE(parsed.ok()) << file;
    const lesson::Lesson& l = *parsed.lesson;
    int cluster_steps = 0;
    for (std::size_t i = 0; i < l.steps.size(); ++i) {
      const auto st = lesson::state_at(l, i, lesson::AppliedState{});
      if (std::find(st.panels.begin(), st.panels.end(), "cluster") == st.panels.end()) continue;
      ++cluster_steps;
      SCOPED_TRACE(fmt::format("{} step {} ({} on {} GPUs)", file, i + 1, st.cluster.strategy, st.cluster.gpus));
      const auto result = ws::app::simulate_setting(st.gpu_preset, st.cluster);
      CaptionContext ctx;
      ctx.cluster = &result;
      ctx.cluster_curve = ws::app::scaling_curve(st.gpu_preset, st.cluster);
      const auto j = cli_json(st.gpu_preset, st.cluster);
      ASSERT_TRUE(j.is_object());
      EXPECT_EQ(value("cluster.gpus", ctx), std::to_string(j["gpus"].get<int>()));
      EXPECT_EQ(value("cluster.nodes", ctx), std::to_string(j["nodes"].get<int>()));
      EXPECT_EQ(value("cluster.speedup", ctx), fmt::format("{:.1f}", j["speedup"].get<double>()));
      EXPECT_EQ(value("cluster.efficiency_pct", ctx), fmt::format("{:.0f}", 100 * j["efficiency"].get<double>()));
      EXPECT_EQ(value("cluster.allreduce_pct", ctx), fmt::format("{:.0f}", 100 * j["collective_fraction"].get<double>()));
      EXPECT_EQ(value("cluster.link", ctx), j["intra_node_link"]["name"].get<std::string>());
      EXPECT_EQ(value("cluster.network", ctx), j["network"]["name"].get<std::string>());
      if (st.cluster.strategy == "pipeline") {
        EXPECT_EQ(value("cluster.bubble_pct", ctx), fmt::format("{:.0f}", 100 * j["idle_fraction"].get<double>()));
        EXPECT_EQ(value("cluster.bubble_formula_pct", ctx), fmt::format("{:.0f}", 100 * j["bubble_formula"].get<double>()));
        // (S-1)/(M+S-1) for S stages and M micro-batches.
        const double s = st.cluster.gpus, m = st.cluster.micro_batches;
        EXPECT_EQ(value("cluster.bubble_formula_pct", ctx), fmt::format("{:.0f}", 100 * (s - 1) / (m + s - 1)));
      } else {
        EXPECT_EQ(value("cluster.bubble_pct", ctx), "(none)");  // no bubble to quote outside a pipeline
      }
      // The curve: each point is the CLI's speed-up at that GPU count.
      ASSERT_FALSE(ctx.cluster_curve.empty());
      std::string expected;
      for (const auto& p : ctx.cluster_curve) {
        lesson::ClusterSetting at = st.cluster;
        at.gpus = p.gpus;
        at.nodes = 0;
        const auto jp = cli_json(st.gpu_preset, at);
        expected += fmt::format("{}{} \xE2\x86\x92 {:.1f}\xC3\x97", expected.empty() ? "" : ", ", p.gpus,
                                jp["speedup"].get<double>());
      }
      EXPECT_EQ(value("cluster.curve", ctx), expected);
    }
    EXPECT_GE(cluster_steps, 4) << file << ": the chapter shows data, tensor, pipeline and hybrid";
  }
}

TEST(ClusterCaptions, NoClusterResultMeansNoValue) {
  const CaptionContext ctx;
  for (const char* key : {"cluster.speedup", "cluster.efficiency_pct", "cluster.allreduce_pct", "cluster.curve"})
    EXPECT_FALSE(caption_value(key, ctx).has_value()) << key;
}

}  // namespace

// The view's travelling bytes: a link is lit exactly while its sending GPU's all-reduce (or send)
// runs, and the dot's place is the share of that interval gone by.
TEST(ClusterView, LinksCarryBytesOnlyDuringTheirSendersCollectives) {
  lesson::ClusterSetting s;
  s.strategy = "data";
  s.gpus = 8;
  s.size = 4096;
  const auto r = ws::app::simulate_setting("h100", s);
  ASSERT_FALSE(r.links.empty());
  int checked = 0;
  for (const auto& link : r.links) {
    for (const auto& a : r.activities) {
      if (a.gpu != link.from || a.end_s <= a.start_s) continue;
      const double mid = (a.start_s + a.end_s) / 2;
      const double at = ws::app::link_progress_at(r, link, mid);
      if (a.kind == ws::sim::ActivityKind::collective || a.kind == ws::sim::ActivityKind::send) {
        EXPECT_NEAR(at, 0.5, 1e-9);
        ++checked;
      } else if (a.kind == ws::sim::ActivityKind::compute) {
        EXPECT_LT(at, 0) << "lit during compute at " << mid;
      }
    }
  }
  EXPECT_GT(checked, 0) << "data parallel has an all-reduce on every link";
  EXPECT_LT(ws::app::link_progress_at(r, r.links.front(), -1.0), 0);
}
