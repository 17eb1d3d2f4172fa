#include "core/caption_values.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "core/measured_text.hpp"
#include "lesson/facts.hpp"
#include "warpscope/sim/occupancy.hpp"

namespace ws::app {

using Value = std::optional<std::string>;

std::string group_digits(long long value) {
  const bool negative = value < 0;
  std::string digits = std::to_string(negative ? -static_cast<unsigned long long>(value)
                                               : static_cast<unsigned long long>(value));
  std::string out;
  out.reserve(digits.size() + digits.size() / 3 + 1);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  if (negative) out.insert(out.begin(), '-');
  return out;
}

std::string format_sig3(double value) {
  if (!std::isfinite(value)) return "?";
  if (value == 0) return "0";
  if (value < 0) {
    std::string out = "-";
    out += format_sig3(-value);
    return out;
  }
  if (value >= 1000) return group_digits(std::llround(value));
  return format_ratio(value);
}

namespace {

std::string strip_zeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

std::string format_percent(double percent) {
  if (!std::isfinite(percent)) return "?";
  if (percent <= 0) return "0";
  // "100" for 99.7 % would claim something finished that has not.
  if (percent >= 99.5 && percent < 100) return fmt::format("{:.1f}", std::min(percent, 99.9));
  if (percent >= 10) return fmt::format("{:.0f}", percent);
  if (percent >= 1) return strip_zeros(fmt::format("{:.1f}", percent));
  return fmt::format("{:.2g}", percent);
}

std::string format_bytes(double bytes) {
  if (!std::isfinite(bytes) || bytes < 0) return "?";
  static constexpr const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (bytes >= 999.5 && u < 5) {
    bytes /= 1000;
    ++u;
  }
  if (u == 0) return fmt::format("{:.0f} B", bytes);
  return fmt::format("{} {}", format_ratio(bytes), units[u]);
}

double cpu_progress_at_gpu_finish(const sim::Simulation& sim) { return sim.summary().cpu_progress_at_finish; }

namespace {

using Lookup = std::function<Value(const CaptionContext&)>;

const sim::GpuPreset* gpu_of(const CaptionContext& c) {
  if (c.gpu != nullptr) return c.gpu;
  return c.sim != nullptr ? &c.sim->gpu() : nullptr;
}
const sim::CpuPreset* cpu_of(const CaptionContext& c) {
  if (c.cpu != nullptr) return c.cpu;
  return c.sim != nullptr ? &c.sim->cpu() : nullptr;
}

Value positive_int(long long v) {
  if (v <= 0) return std::nullopt;
  return group_digits(v);
}

// Progress of the simulated CPU cores when the simulated GPU finished.
std::optional<double> cpu_progress(const CaptionContext& c) {
  if (c.cpu_progress_at_finish) return c.cpu_progress_at_finish;
  if (c.sim != nullptr && c.sim->cycle() == c.sim->total_cycles()) return c.sim->cpu_progress();
  return std::nullopt;
}

// The CPU time is extrapolated from how far the simulated cores got: when the GPU finishes
// after t ms the cores are a fraction p through their share of C, so all of C takes about t / p
// (their pace is steady for the naive loop once the caches are warm). p == 0 means no estimate;
// p == 1 means the CPU finished first and we only know its time is at most t, so no number either.
std::optional<double> sim_cpu_time_ms(const CaptionContext& c) {
  if (c.sim == nullptr) return std::nullopt;
  const auto p = cpu_progress(c);
  if (!p || !(*p > 0) || *p >= 1) return std::nullopt;
  const double t = c.sim->summary().time_ms;
  if (!(t > 0)) return std::nullopt;
  return t / *p;
}

struct WarpCounts {
  long long resident = 0, issuing = 0, memory = 0, barrier = 0;
};

std::optional<WarpCounts> warp_counts(const CaptionContext& c) {
  if (c.sim == nullptr) return std::nullopt;
  const auto& s = *c.sim;
  std::vector<std::uint8_t> states(static_cast<std::size_t>(s.sm_count()) * s.warp_slots_per_sm());
  s.export_warp_states(states);
  WarpCounts n;
  for (const std::uint8_t b : states) {
    const auto st = static_cast<sim::WarpState>(b);
    if (st == sim::WarpState::not_resident || st == sim::WarpState::done) continue;
    ++n.resident;
    if (st == sim::WarpState::issuing) ++n.issuing;
    if (st == sim::WarpState::waiting_memory) ++n.memory;
    if (st == sim::WarpState::waiting_barrier) ++n.barrier;
  }
  // Before the first block lands or after the last warp finishes there is no share to speak of.
  if (n.resident == 0) return std::nullopt;
  return n;
}

Value warp_share(const CaptionContext& c, long long WarpCounts::*field) {
  const auto n = warp_counts(c);
  if (!n) return std::nullopt;
  return format_percent(100.0 * static_cast<double>((*n).*field) / static_cast<double>(n->resident));
}

std::optional<sim::Summary> summary_for(const CaptionContext& c, sim::Kernel k) {
  const auto& given = k == sim::Kernel::naive ? c.naive_summary : c.tiled_summary;
  if (given) return given;
  if (c.sim != nullptr && c.sim->config().kernel == k) return c.sim->summary();
  return std::nullopt;
}

Value sim_time_of(const CaptionContext& c, sim::Kernel k) {
  const auto s = summary_for(c, k);
  if (!s || !(s->time_ms > 0)) return std::nullopt;
  return format_sig3(s->time_ms);
}

// A result that ran to the end on this machine (its numbers may still be wrong).
bool ran(const kernels::JobResult* r) { return r != nullptr && !r->skipped && !r->cancelled; }
// A result whose speed means something: a kernel that computes the wrong C can be arbitrarily fast.
bool trustworthy(const kernels::JobResult* r) { return ran(r) && r->verified && r->ms_median > 0; }

Value measured_ms(const kernels::JobResult* r) {
  if (!trustworthy(r)) return std::nullopt;
  return format_sig3(r->ms_median);
}

std::optional<double> gflops_of(const kernels::JobResult* r) {
  if (!trustworthy(r)) return std::nullopt;
  return r->gflops > 0 ? r->gflops : r->shape.flops() / (r->ms_median * 1e6);
}

Value measured_gflops(const kernels::JobResult* r) {
  const auto g = gflops_of(r);
  if (!g) return std::nullopt;
  return format_sig3(*g);
}

Value measured_verified(const CaptionContext& c) {
  const kernels::JobResult* results[] = {c.cpu_result, c.gpu_result};
  bool any_ran = false, any_failed = false, any_skipped = false;
  for (const auto* r : results) {
    if (r == nullptr) continue;
    if (ran(r)) {
      any_ran = true;
      any_failed = any_failed || !r->verified;
    } else if (r->skipped) {
      any_skipped = true;
    }
  }
  if (any_failed) return std::string(lesson::tr("label.failed_verification", c.language));
  if (any_ran) return std::string(lesson::tr("label.verified", c.language));
  if (any_skipped) return std::string(lesson::tr("label.skipped", c.language));
  return std::nullopt;
}

// What a GPU measurement says where there is no GPU to measure: words, never a made-up number.
Value no_gpu_words(const CaptionContext& c) { return std::string(lesson::tr("label.no_gpu_here", c.language)); }

const std::unordered_map<std::string_view, Lookup>& table() {
  static const std::unordered_map<std::string_view, Lookup> t = {
      // ---- preset.*
      // In a sentence the short name: a particle or "(2022)" then follows the name itself, never
      // a parenthesised label ("GTX 580은", not "GeForce GTX 580 (the AlexNet GPU)는").
      {"preset.gpu_name", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         if (g == nullptr || g->sentence_name().empty()) return std::nullopt;
         return g->sentence_name();
       }},
      {"preset.gpu_label", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         if (g == nullptr || g->name.empty()) return std::nullopt;
         // In the caption's language: a Korean caption gets the Korean label where there is one.
         return c.language == lesson::Language::ko && !g->name_ko.empty() ? g->name_ko : g->name;
       }},
      {"preset.gpu_year", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         if (g == nullptr || g->year <= 0) return std::nullopt;
         return std::to_string(g->year);  // a year is not grouped: "2022", not "2,022"
       }},
      {"preset.sm_count", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         return g ? positive_int(g->sm_count) : std::nullopt;
       }},
      {"preset.gpu_cores", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         return g ? positive_int(static_cast<long long>(g->sm_count) * g->fp32_lanes_per_sm) : std::nullopt;
       }},
      {"preset.cores_per_sm", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         return g ? positive_int(g->fp32_lanes_per_sm) : std::nullopt;
       }},
      {"preset.max_warps_per_sm", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         if (g == nullptr) return std::nullopt;
         try {
           return positive_int(sim::cc_limits(g->cc_major, g->cc_minor).max_warps_per_sm());
         } catch (const std::exception&) {
           return std::nullopt;  // a capability the occupancy tables know nothing near
         }
       }},
      {"preset.clock_ghz", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         if (g == nullptr || !(g->clock_mhz > 0)) return std::nullopt;
         return strip_zeros(fmt::format("{:.2f}", g->clock_mhz / 1000));
       }},
      {"preset.fp32_tflops", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         if (g == nullptr || !(g->peak_gflops() > 0)) return std::nullopt;
         // The model's own peak (lanes x 2 x clock), which the preset loader checks against the
         // datasheet, so the caption and the simulation agree.
         return format_sig3(g->peak_gflops() / 1000);
       }},
      {"preset.tensor_tflops", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         const sim::TensorFormat* f = g != nullptr ? g->tensor_headline() : nullptr;
         if (f == nullptr || !(g->tensor_peak_gflops(*f) > 0)) return std::nullopt;  // no tensor cores
         // Computed from the parts (SMs x tensor cores x FLOP per clock x tensor clock) as
         // preset.fp32_tflops is; the preset tests hold it to the datasheet within 2 %.
         return format_sig3(g->tensor_peak_gflops(*f) / 1000);
       }},
      {"preset.tensor_format", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         if (g == nullptr || g->tensor_headline() == nullptr) return std::nullopt;
         return g->tensor_headline_format();
       }},
      {"preset.tensor_cores", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         if (g == nullptr || !g->has_tensor_cores()) return std::nullopt;
         return group_digits(static_cast<long long>(g->sm_count) * g->tensor.cores_per_sm);
       }},
      {"preset.mem_bandwidth_gbs", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         if (g == nullptr || !(g->memory_bandwidth_gbs > 0)) return std::nullopt;
         return group_digits(std::llround(g->memory_bandwidth_gbs));
       }},
      {"preset.cpu_name", [](const CaptionContext& c) -> Value {
         const auto* p = cpu_of(c);
         if (p == nullptr || p->sentence_name().empty()) return std::nullopt;
         return p->sentence_name();
       }},
      {"preset.cpu_label", [](const CaptionContext& c) -> Value {
         const auto* p = cpu_of(c);
         if (p == nullptr || p->name.empty()) return std::nullopt;
         return p->name;
       }},
      {"preset.cpu_cores", [](const CaptionContext& c) -> Value {
         const auto* p = cpu_of(c);
         return p ? positive_int(p->cores) : std::nullopt;
       }},
      {"preset.cpu_threads", [](const CaptionContext& c) -> Value {
         const auto* p = cpu_of(c);
         return p ? positive_int(p->threads) : std::nullopt;
       }},
      {"preset.cpu_gflops", [](const CaptionContext& c) -> Value {
         const auto* p = cpu_of(c);
         if (p == nullptr || !(p->peak_gflops() > 0)) return std::nullopt;
         return format_sig3(p->peak_gflops());
       }},
      {"preset.core_ratio", [](const CaptionContext& c) -> Value {
         const auto* g = gpu_of(c);
         const auto* p = cpu_of(c);
         if (g == nullptr || p == nullptr || p->cores <= 0) return std::nullopt;
         const double lanes = static_cast<double>(g->sm_count) * g->fp32_lanes_per_sm;
         if (!(lanes > 0)) return std::nullopt;
         const double r = lanes / p->cores;
         return r >= 10 ? group_digits(std::llround(r)) : format_ratio(r);
       }},

      // ---- sim.*
      {"sim.m", [](const CaptionContext& c) -> Value {
         return c.sim ? Value(group_digits(c.sim->config().shape.m)) : std::nullopt;
       }},
      {"sim.n", [](const CaptionContext& c) -> Value {
         return c.sim ? Value(group_digits(c.sim->config().shape.n)) : std::nullopt;
       }},
      {"sim.k", [](const CaptionContext& c) -> Value {
         return c.sim ? Value(group_digits(c.sim->config().shape.k)) : std::nullopt;
       }},
      {"sim.cells", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         const auto& s = c.sim->config().shape;
         return group_digits(static_cast<long long>(s.m) * s.n);
       }},
      {"sim.block_size", [](const CaptionContext& c) -> Value {
         return c.sim ? positive_int(c.sim->block_dim()) : std::nullopt;
       }},
      {"sim.threads_per_block", [](const CaptionContext& c) -> Value {
         return c.sim ? positive_int(static_cast<long long>(c.sim->block_dim()) * c.sim->block_dim()) : std::nullopt;
       }},
      {"sim.blocks", [](const CaptionContext& c) -> Value {
         return c.sim ? positive_int(c.sim->summary().blocks) : std::nullopt;
       }},
      {"sim.warps", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         const long long threads = static_cast<long long>(c.sim->block_dim()) * c.sim->block_dim();
         return positive_int(c.sim->summary().blocks * ((threads + 31) / 32));
       }},
      {"sim.blocks_per_sm", [](const CaptionContext& c) -> Value {
         return c.sim ? positive_int(c.sim->summary().occupancy.active_blocks_per_sm) : std::nullopt;
       }},
      {"sim.waves", [](const CaptionContext& c) -> Value {
         return c.sim ? positive_int(c.sim->waves()) : std::nullopt;
       }},
      {"sim.wave_count", [](const CaptionContext& c) -> Value {
         if (!c.sim || c.sim->waves() <= 0) return std::nullopt;
         const int w = c.sim->waves();
         return w == 1 ? std::string(lesson::tr("sim.wave_count_one", c.language))
                       : lesson::trf("sim.wave_count_many", c.language, group_digits(w));
       }},
      {"sim.last_wave_pct", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         // How much of the chip the last wave keeps busy: the rest of its SMs' block slots idle.
         const long long per_wave = static_cast<long long>(c.sim->sm_count()) * c.sim->blocks_per_sm();
         const long long blocks = static_cast<long long>(c.sim->grid_x()) * c.sim->grid_y();
         if (per_wave <= 0 || blocks <= 0) return std::nullopt;
         const long long last = blocks - (c.sim->waves() - 1) * per_wave;
         return format_percent(100.0 * static_cast<double>(last) / static_cast<double>(per_wave));
       }},
      {"sim.occupancy_pct", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         const auto s = c.sim->summary();
         // Achieved is what the animation shows; the theoretical figure stands in only when the
         // run had no busy SM to average over.
         const double occ = s.achieved_occupancy > 0 ? s.achieved_occupancy : s.occupancy.occupancy;
         if (!(occ > 0)) return std::nullopt;
         return format_percent(occ * 100);
       }},
      {"sim.issue_slot_pct", [](const CaptionContext& c) -> Value {
         // Over the whole run: how often a scheduler found a warp ready to issue. The share of
         // warps issuing at one cycle (sim.issue_pct) cannot say it: at most one in 16 does.
         if (!c.sim) return std::nullopt;
         const double use = c.sim->summary().issue_slot_use;
         if (!(use > 0)) return std::nullopt;
         return format_percent(use * 100);
       }},
      {"sim.cycle", [](const CaptionContext& c) -> Value {
         return c.sim ? Value(group_digits(c.sim->cycle())) : std::nullopt;
       }},
      {"sim.cycles", [](const CaptionContext& c) -> Value {
         return c.sim ? positive_int(c.sim->total_cycles()) : std::nullopt;
       }},
      {"sim.gpu_time_ms", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         const double t = c.sim->summary().time_ms;
         return t > 0 ? Value(format_sig3(t)) : std::nullopt;
       }},
      // The simulated kernel against its own arithmetic ceiling: the FP32 peak, or the dense
      // BF16 tensor-core peak for a kernel on the tensor cores.
      {"sim.tflops", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         const double g = c.sim->summary().gflops;
         return g > 0 ? Value(format_sig3(g / 1e3)) : std::nullopt;
       }},
      {"sim.peak_tflops", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         const double peak = sim::kernel_peak_gflops(c.sim->gpu(), c.sim->config().kernel);
         return peak > 0 ? Value(format_sig3(peak / 1e3)) : std::nullopt;
       }},
      {"sim.peak_pct", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         const double peak = sim::kernel_peak_gflops(c.sim->gpu(), c.sim->config().kernel);
         const double g = c.sim->summary().gflops;
         return peak > 0 && g > 0 ? Value(format_percent(100 * g / peak)) : std::nullopt;
       }},
      // What one thread and one instruction compute, from the launch the model runs.
      {"sim.thread_tile", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         const int side = c.sim->thread_cell_side();
         return fmt::format("{}×{}", side, side);
       }},
      {"sim.lane_cells", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         return std::to_string(c.sim->thread_cell_side() * c.sim->thread_cell_side());
       }},
      // The tensor model's instruction, whichever kernel the step animates: a fact of the model.
      {"sim.mma_shape", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         return fmt::format("{}×{}×{}", sim::kMmaShape.m, sim::kMmaShape.n, sim::kMmaShape.k);
       }},
      {"sim.cpu_time_ms", [](const CaptionContext& c) -> Value {
         const auto t = sim_cpu_time_ms(c);
         return t ? Value(format_sig3(*t)) : std::nullopt;
       }},
      {"sim.speedup", [](const CaptionContext& c) -> Value {
         const auto t = sim_cpu_time_ms(c);
         if (!t) return std::nullopt;
         return format_sig3(*t / c.sim->summary().time_ms);
       }},
      {"sim.cpu_progress_pct", [](const CaptionContext& c) -> Value {
         const auto p = cpu_progress(c);
         if (!p || !(*p >= 0)) return std::nullopt;
         return format_percent(std::min(*p, 1.0) * 100);
       }},
      {"sim.issue_pct", [](const CaptionContext& c) { return warp_share(c, &WarpCounts::issuing); }},
      {"sim.stall_memory_pct", [](const CaptionContext& c) { return warp_share(c, &WarpCounts::memory); }},
      {"sim.stall_barrier_pct", [](const CaptionContext& c) { return warp_share(c, &WarpCounts::barrier); }},
      {"sim.dram_traffic", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         return format_bytes(static_cast<double>(c.sim->summary().dram_bytes));
       }},
      {"sim.global_loads", [](const CaptionContext& c) -> Value {
         if (!c.sim) return std::nullopt;
         return group_digits(static_cast<long long>(c.sim->summary().global_loads));
       }},
      {"sim.l1_hit_pct", [](const CaptionContext& c) -> Value {
         if (!c.sim || c.sim->summary().global_loads == 0) return std::nullopt;
         return format_percent(100.0 * c.sim->summary().l1_hit_rate);
       }},
      {"sim.l2_hit_pct", [](const CaptionContext& c) -> Value {
         if (!c.sim || c.sim->summary().global_loads == 0) return std::nullopt;
         return format_percent(100.0 * c.sim->summary().l2_hit_rate);
       }},
      {"sim.naive_time_ms", [](const CaptionContext& c) { return sim_time_of(c, sim::Kernel::naive); }},
      {"sim.tiled_time_ms", [](const CaptionContext& c) { return sim_time_of(c, sim::Kernel::tiled); }},
      {"sim.tiled_speedup", [](const CaptionContext& c) -> Value {
         const auto naive = summary_for(c, sim::Kernel::naive);
         const auto tiled = summary_for(c, sim::Kernel::tiled);
         if (!naive || !tiled || !(naive->time_ms > 0) || !(tiled->time_ms > 0)) return std::nullopt;
         return format_sig3(naive->time_ms / tiled->time_ms);
       }},

      // ---- measured.*
      {"measured.size", [](const CaptionContext& c) -> Value {
         if (ran(c.cpu_result)) return format_shape(c.cpu_result->shape);
         if (ran(c.gpu_result)) return format_shape(c.gpu_result->shape);
         return std::nullopt;
       }},
      {"measured.cpu_name", [](const CaptionContext& c) -> Value {
         if (c.cpu_name.empty()) return std::nullopt;
         return c.cpu_name;
       }},
      {"measured.gpu_name", [](const CaptionContext& c) -> Value {
         if (c.gpu_name.empty()) return std::string(lesson::tr("label.no_gpu", c.language));
         return c.gpu_name;
       }},
      {"measured.cpu_threads", [](const CaptionContext& c) -> Value {
         return ran(c.cpu_result) ? positive_int(c.cpu_result->threads) : std::nullopt;
       }},
      {"measured.cpu_kernel", [](const CaptionContext& c) -> Value {
         return ran(c.cpu_result) ? Value(c.cpu_result->kernel) : std::nullopt;
       }},
      {"measured.gpu_kernel", [](const CaptionContext& c) -> Value {
         if (c.no_gpu_here) return no_gpu_words(c);
         return ran(c.gpu_result) ? Value(c.gpu_result->kernel) : std::nullopt;
       }},
      {"measured.cpu_ms", [](const CaptionContext& c) { return measured_ms(c.cpu_result); }},
      {"measured.gpu_ms", [](const CaptionContext& c) {
         return c.no_gpu_here ? no_gpu_words(c) : measured_ms(c.gpu_result);
       }},
      {"measured.cpu_gflops", [](const CaptionContext& c) { return measured_gflops(c.cpu_result); }},
      {"measured.gpu_gflops", [](const CaptionContext& c) {
         return c.no_gpu_here ? no_gpu_words(c) : measured_gflops(c.gpu_result);
       }},
      {"measured.ratio", [](const CaptionContext& c) -> Value {
         if (c.no_gpu_here) return no_gpu_words(c);
         const auto g = gflops_of(c.gpu_result);
         const auto p = gflops_of(c.cpu_result);
         // Same rule as speedup_sentence: only two verified runs of the same problem compare.
         if (!g || !p || !(c.gpu_result->shape == c.cpu_result->shape)) return std::nullopt;
         return format_ratio(*g / *p);
       }},
      {"measured.verified", measured_verified},
      // The cluster view's split, simulated (sim::simulate_cluster), rounded as the view rounds.
      {"cluster.gpus", [](const CaptionContext& c) -> Value {
         return c.cluster ? positive_int(c.cluster->config.gpus) : std::nullopt;
       }},
      {"cluster.nodes", [](const CaptionContext& c) -> Value {
         return c.cluster ? positive_int(c.cluster->config.nodes) : std::nullopt;
       }},
      {"cluster.micro_batches", [](const CaptionContext& c) -> Value {
         return c.cluster ? positive_int(c.cluster->config.micro_batches) : std::nullopt;
       }},
      {"cluster.speedup", [](const CaptionContext& c) -> Value {
         return c.cluster ? Value(format_cluster_speedup(c.cluster->speedup)) : std::nullopt;
       }},
      {"cluster.efficiency_pct", [](const CaptionContext& c) -> Value {
         return c.cluster ? Value(format_cluster_percent(c.cluster->efficiency)) : std::nullopt;
       }},
      {"cluster.allreduce_pct", [](const CaptionContext& c) -> Value {
         return c.cluster ? Value(format_cluster_percent(c.cluster->collective_fraction)) : std::nullopt;
       }},
      {"cluster.bubble_pct", [](const CaptionContext& c) -> Value {
         if (!c.cluster || c.cluster->config.strategy != sim::Strategy::pipeline) return std::nullopt;
         return format_cluster_percent(c.cluster->idle_fraction);
       }},
      {"cluster.bubble_formula_pct", [](const CaptionContext& c) -> Value {
         if (!c.cluster || c.cluster->config.strategy != sim::Strategy::pipeline) return std::nullopt;
         return format_cluster_percent(c.cluster->bubble_formula);
       }},
      {"cluster.bubble_formula", [](const CaptionContext& c) -> Value {
         if (!c.cluster || c.cluster->config.strategy != sim::Strategy::pipeline) return std::nullopt;
         const int stages = c.cluster->config.gpus, micro = c.cluster->config.micro_batches;
         // U+2212 MINUS SIGN, as the formula is printed in the lesson.
         return fmt::format("(S\xE2\x88\x92" "1)/(M+S\xE2\x88\x92" "1) = ({0}\xE2\x88\x92" "1)/({1}+{0}\xE2\x88\x92" "1)",
                            stages, micro);
       }},
      {"cluster.time_ms", [](const CaptionContext& c) -> Value {
         return c.cluster ? Value(format_sig3(c.cluster->total_s * 1e3)) : std::nullopt;
       }},
      {"cluster.single_gpu_ms", [](const CaptionContext& c) -> Value {
         return c.cluster ? Value(format_sig3(c.cluster->single_gpu_s * 1e3)) : std::nullopt;
       }},
      {"cluster.link", [](const CaptionContext& c) -> Value {
         return c.cluster ? Value(c.cluster->intra.name) : std::nullopt;
       }},
      {"cluster.network", [](const CaptionContext& c) -> Value {
         return c.cluster ? Value(c.cluster->network.name) : std::nullopt;
       }},
      {"cluster.curve", [](const CaptionContext& c) -> Value {
         if (c.cluster_curve.empty()) return std::nullopt;
         std::string out;
         for (const auto& p : c.cluster_curve) {
           if (!out.empty()) out += ", ";
           out += fmt::format("{} \xE2\x86\x92 {}\xC3\x97", p.gpus, format_cluster_speedup(p.speedup));
         }
         return out;
       }},
  };
  return t;
}

}  // namespace

std::optional<std::string> caption_value(std::string_view key, const CaptionContext& ctx) {
  if (auto fact = lesson::fact_value(key, ctx.language)) return fact;
  const auto& t = table();
  const auto it = t.find(key);
  if (it == t.end()) return std::nullopt;
  try {
    return it->second(ctx);
  } catch (const std::exception&) {
    // A caption is drawn every frame; a value that cannot be worked out shows as a dash rather
    // than taking the window down.
    return std::nullopt;
  }
}

}  // namespace ws::app
