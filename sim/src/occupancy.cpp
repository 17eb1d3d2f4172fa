// Occupancy rules. For cc >= 3 this follows cudaOccMaxActiveBlocksPerMultiprocessor of
// cuda_occupancy.h (CUDA 13) step by step: per-warp register allocation rounded to the
// granularity, the hardware check that rounds warps up to the sub-partition count, shared memory
// rounded to its granularity with the driver's per-block reserve, and limiters reported as every
// limit equal to the minimum. cc 1.3/2.x use the rules of the older calculator spreadsheet.
#include "warpscope/sim/occupancy.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace ws::sim {
namespace {

// 64-bit: registers x threads and shared memory + reserve overflow int for inputs the CLI
// accepts (1M-thread blocks at 100000 registers), and the answer must still be "0 blocks fit".
using i64 = std::int64_t;
i64 div_up(i64 x, i64 y) { return (x + y - 1) / y; }
i64 round_up(i64 x, i64 y) { return y * div_up(x, y); }
int saturate(i64 v) { return v > INT_MAX ? INT_MAX : static_cast<int>(v); }

CcLimits make(int major, int minor, int threads_sm, int blocks_sm, int regs_sm, int regs_block,
              int max_regs, int sub_partitions, int smem_sm_kb, int smem_block_kb, int optin_kb,
              int reserved, int smem_gran, std::vector<int> carveout) {
  CcLimits l;
  l.major = major;
  l.minor = minor;
  l.max_threads_per_sm = threads_sm;
  l.max_blocks_per_sm = blocks_sm;
  l.regs_per_sm = regs_sm;
  l.regs_per_block = regs_block;
  l.max_regs_per_thread = max_regs;
  l.sub_partitions = sub_partitions;
  l.smem_per_sm = smem_sm_kb * 1024;
  l.smem_per_block = smem_block_kb * 1024;
  l.smem_per_block_optin = optin_kb * 1024;
  l.reserved_smem_per_block = reserved;
  l.smem_granularity = smem_gran;
  l.carveout_steps_kb = std::move(carveout);
  return l;
}

// Volta+: the carveout is rounded up to the next size the hardware offers.
int align_carveout(const CcLimits& l, int bytes) {
  for (int kb : l.carveout_steps_kb)
    if (bytes <= kb * 1024) return kb * 1024;
  return -1;
}

}  // namespace

const std::vector<std::pair<int, int>>& supported_ccs() {
  // Exactly the cases of the switch below. cc 1.0-1.2 (G80, G9x) are left out: the GT200 rules
  // this file has for 1.x allocate registers in 512-register units, G80's were 256, and nothing
  // in shared/reference checks them, so answering for them would be inventing numbers.
  static const std::vector<std::pair<int, int>> all{
      {1, 3}, {2, 0}, {2, 1}, {3, 0}, {3, 2}, {3, 5}, {3, 7}, {5, 0}, {5, 2}, {5, 3},  {6, 0},  {6, 1},  {6, 2},  {7, 0},
      {7, 2}, {7, 5}, {8, 0}, {8, 6}, {8, 7}, {8, 9}, {9, 0}, {10, 0}, {10, 1}, {10, 3}, {11, 0}, {12, 0}, {12, 1}};
  return all;
}

std::string supported_ccs_text() {
  std::string s;
  for (const auto& [major, minor] : supported_ccs())
    s += (s.empty() ? "" : ", ") + std::to_string(major) + "." + std::to_string(minor);
  return s;
}

CcLimits cc_limits(int major, int minor) {
  // A capability the tables do not list gets no answer: the nearest generation's limits would
  // be a guess presented as a fact (cc 8.5 is not 8.0, 1.0 is not 1.3).
  if (std::find(supported_ccs().begin(), supported_ccs().end(), std::pair{major, minor}) == supported_ccs().end())
    throw std::invalid_argument("unknown compute capability " + std::to_string(major) + "." + std::to_string(minor) +
                                "; supported: " + supported_ccs_text());
  const std::vector<int> volta{0, 8, 16, 32, 64, 96};
  const std::vector<int> ga100{0, 8, 16, 32, 64, 100, 132, 164};
  const std::vector<int> ga10x{0, 8, 16, 32, 64, 100};
  const std::vector<int> hopper{0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  CcLimits l;
  switch (major * 10 + minor) {
    case 13:
      l = make(major, minor, 1024, 8, 16384, 16384, 124, 1, 16, 16, 16, 0, 512, {});
      l.max_threads_per_block = 512;
      l.reg_alloc_granularity = 512;
      return l;
    case 20: case 21:
      l = make(major, minor, 1536, 8, 32768, 32768, 63, 1, 48, 48, 48, 0, 128, {});
      l.reg_alloc_granularity = 64;
      return l;
    case 30: case 32: case 35:
      return make(major, minor, 2048, 16, 65536, 65536, 255, 4, 48, 48, 48, 0, 256, {});
    case 37:
      return make(major, minor, 2048, 16, 131072, 65536, 255, 4, 112, 48, 48, 0, 256, {});
    case 50: case 52: case 53:
      return make(major, minor, 2048, 32, 65536, 65536, 255, 4, minor == 2 ? 96 : 64, 48, 48, 0, 256, {});
    case 60:
      return make(major, minor, 2048, 32, 65536, 65536, 255, 2, 64, 48, 48, 0, 256, {});
    case 61: case 62:
      return make(major, minor, 2048, 32, 65536, 65536, 255, 4, minor == 1 ? 96 : 64, 48, 48, 0, 256, {});
    case 70: case 72:
      return make(major, minor, 2048, 32, 65536, 65536, 256, 4, 96, 48, 96, 0, 256, volta);
    case 75:
      return make(major, minor, 1024, 16, 65536, 65536, 256, 4, 64, 48, 64, 0, 256, {32, 64});
    case 80:
      return make(major, minor, 2048, 32, 65536, 65536, 256, 4, 164, 48, 163, 1024, 128, ga100);
    case 86:
      return make(major, minor, 1536, 16, 65536, 65536, 256, 4, 100, 48, 99, 1024, 128, ga10x);
    case 87:
      return make(major, minor, 1536, 16, 65536, 65536, 256, 4, 164, 48, 163, 1024, 128, ga100);
    case 89:
      return make(major, minor, 1536, 24, 65536, 65536, 256, 4, 100, 48, 99, 1024, 128, ga10x);
    case 90:
      return make(major, minor, 2048, 32, 65536, 65536, 256, 4, 228, 48, 227, 1024, 128, hopper);
    case 100: case 103:
      return make(major, minor, 2048, 32, 65536, 65536, 256, 4, 228, 48, 227, 1024, 128, hopper);
    case 101: case 110:
      return make(major, minor, 1536, 24, 65536, 65536, 256, 4, 228, 48, 227, 1024, 128, hopper);
    case 120: case 121:
      return make(major, minor, 1536, 24, 65536, 65536, 256, 4, 100, 48, 99, 1024, 128, ga10x);
    default:
      break;
  }
  // supported_ccs() and the switch disagree: a bug here, not bad input.
  throw std::logic_error("compute capability " + std::to_string(major) + "." + std::to_string(minor) +
                         " is listed as supported but has no limits");
}

OccupancyResult compute_occupancy(const CcLimits& l, const OccupancyInput& in) {
  if (in.block_size < 1) throw std::invalid_argument("block size must be at least 1 thread");
  if (in.regs_per_thread < 0) throw std::invalid_argument("registers per thread cannot be negative");
  if (in.smem_per_block < 0) throw std::invalid_argument("shared memory per block cannot be negative");

  OccupancyResult r;
  r.max_warps_per_sm = l.max_warps_per_sm();
  const int warps = static_cast<int>(div_up(in.block_size, 32));

  // Warps.
  r.limit_warps = in.block_size > l.max_threads_per_block ? 0 : l.max_warps_per_sm() / warps;

  // Blocks.
  r.limit_blocks = l.max_blocks_per_sm;

  // Registers.
  i64 regs_allocated = 0;
  if (l.major == 1) {
    // GT200: registers go to the whole block, warps counted in pairs, 512-register units.
    const i64 per_block = round_up(round_up(warps, 2) * 32 * i64{in.regs_per_thread}, l.reg_alloc_granularity);
    regs_allocated = per_block;
    if (in.regs_per_thread > l.max_regs_per_thread || per_block > l.regs_per_block) r.limit_registers = 0;
    else r.limit_registers = per_block > 0 ? static_cast<int>(l.regs_per_sm / per_block) : INT_MAX;
  } else {
    auto regs_limit = [&](int sub_partitions) {
      const i64 per_warp = round_up(i64{in.regs_per_thread} * 32, l.reg_alloc_granularity);
      const i64 per_block = per_warp * warps;
      const i64 assumed = per_warp * round_up(warps, sub_partitions);
      regs_allocated = per_block;
      if (l.regs_per_block < assumed || l.regs_per_block < per_block ||
          in.regs_per_thread > l.max_regs_per_thread)
        return 0;
      if (per_warp == 0) return INT_MAX;
      const i64 warps_per_sub = (l.regs_per_sm / sub_partitions) / per_warp;
      return static_cast<int>(warps_per_sub * sub_partitions / warps);
    };
    r.limit_registers = regs_limit(l.sub_partitions);
    // GP100 (2 sub-partitions) is refused what GP10x (4) cannot run, as the header does.
    if (l.major == 6 && l.minor == 0 && r.limit_registers != 0 && regs_limit(4) == 0) r.limit_registers = 0;
  }
  r.allocated_regs_per_block = saturate(regs_allocated);

  // Shared memory.
  i64 smem_allocated = 0;
  {
    smem_allocated = round_up(i64{in.smem_per_block} + l.reserved_smem_per_block, l.smem_granularity);
    int per_block_limit = l.smem_per_block;
    // Dynamic shared memory is taken as opted in up to the per-block maximum (Volta+).
    if (l.major >= 7) per_block_limit = l.smem_per_block_optin;
    if (l.major >= 8) per_block_limit += l.reserved_smem_per_block;
    if (smem_allocated > per_block_limit) {
      r.limit_shared_memory = 0;
    } else {
      const int allocated = static_cast<int>(smem_allocated);  // at most per_block_limit here
      int per_sm = l.smem_per_sm;
      if (l.major >= 7 && per_sm < allocated) per_sm = align_carveout(l, allocated);
      r.limit_shared_memory = allocated > 0 ? per_sm / allocated : INT_MAX;
    }
  }
  r.allocated_smem_per_block = saturate(smem_allocated);

  const int limit = std::min({r.limit_warps, r.limit_registers, r.limit_shared_memory, r.limit_blocks});
  if (limit == r.limit_warps) r.limiters.push_back("warps");
  if (limit == r.limit_registers) r.limiters.push_back("registers");
  if (limit == r.limit_shared_memory) r.limiters.push_back("shared_memory");
  if (limit == r.limit_blocks) r.limiters.push_back("blocks");

  r.active_blocks_per_sm = limit;
  r.active_warps_per_sm = limit * warps;
  r.occupancy = static_cast<double>(r.active_warps_per_sm) / r.max_warps_per_sm;

  if (limit == 0) {
    if (in.block_size > l.max_threads_per_block)
      r.reason = "block of " + std::to_string(in.block_size) + " threads exceeds the maximum of " +
                 std::to_string(l.max_threads_per_block) + " per block";
    else if (in.regs_per_thread > l.max_regs_per_thread)
      r.reason = std::to_string(in.regs_per_thread) + " registers per thread exceed the maximum of " +
                 std::to_string(l.max_regs_per_thread);
    else if (r.limit_registers == 0)
      r.reason = "the block needs " + std::to_string(regs_allocated) +
                 " registers (after allocation rounding), more than the " +
                 std::to_string(l.regs_per_block) + " a block may have";
    else if (r.limit_shared_memory == 0)
      r.reason = "the block needs " + std::to_string(smem_allocated) +
                 " bytes of shared memory (with rounding and driver reserve), more than the " +
                 std::to_string(std::max(l.smem_per_block, l.smem_per_block_optin)) + " a block may have";
    else
      r.reason = "no block fits";
  }
  return r;
}

}  // namespace ws::sim
