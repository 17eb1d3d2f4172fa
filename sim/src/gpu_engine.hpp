// The engine's per-instruction steps: pick a warp, execute its instruction, find when its next
// one can issue. They are templates on the kernel program P (kernels/kernel_program.hpp) and are
// instantiated in P's own file by make_kernel_ops<P>(), so the program's decoder and effects
// inline into the hot loop; the rest of the engine reaches them through KernelOps, once per SM
// step. Included by gpu_model.cpp (for the inline helpers) and by each kernel file.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <utility>

#include "gpu_model.hpp"
#include "kernels/kernel_program.hpp"

namespace ws::sim::detail {

inline std::int64_t ceil_cycle(double t) {
  auto i = static_cast<std::int64_t>(t);
  return i + static_cast<std::int64_t>(static_cast<double>(i) < t);  // no branch: t's fraction is data
}

// A scheduler's pick over its warps' short arrays: the oldest ready warp whose pipe is free
// (ages are unique, so the oldest is one warp), how many such warps, and the soonest time one of
// the others can issue: its ready time, or for a ready warp held by a busy pipe, when the pipe
// frees. busy_at[pipe] is that time for a busy pipe (always after c), -1 for a free one or none.
// Also, for GpuModel::pick to skip the scans that would find nothing: how many warps are ready
// whatever their pipe, and the soonest ready time of those that are not.
struct ScanResult {
  int best;
  int count;
  std::int64_t soonest;
  int ready_n;
  std::int64_t soonest_ready;
};
using Scan = ScanResult (*)(const std::int64_t*, const std::int64_t*, const std::uint8_t*, int, std::int64_t,
                            const std::int64_t*, std::int64_t);
extern const Scan scan;       // AVX2 where the CPU has it (gpu_model.cpp)
extern const Scan scan_free;  // the same where every busy_at is -1: no pipe is busy

inline void GpuModel::wake(const Warp& w) {
  Scheduler& q = st_.sched[w.sched];
  q.next_check = std::min(q.next_check, w.ready_at);
  q.others_ready = std::min(q.others_ready, w.ready_at);
  // next_event is not touched: every loop that moves time recomputes it from next_check.
}

inline bool GpuModel::pipe_ok(const Scheduler& q, Op op, std::int64_t c) const {
  if (op == Op::ffma) return q.fp_free < static_cast<double>(c + 1);
  if (op == Op::alu) return (s_.alu_on_fp_pipe ? q.fp_free : q.alu_free) < static_cast<double>(c + 1);
  if (op == Op::mma) return q.tc_free < static_cast<double>(c + 1);
  return true;
}

inline void GpuModel::write_dep(Warp& w, int dep, std::int64_t t, bool is_max, int sm, std::int64_t c) {
  if ((w.pend >> dep) & 1) {
    // An earlier load into this slot is still logged: keep the writes in order.
    Deferred d;
    d.c = c;
    d.sm = sm;
    d.kind = Deferred::write;
    d.dep = static_cast<std::uint8_t>(dep);
    d.is_max = is_max;
    d.warp = static_cast<std::int32_t>(&w - st_.warps.data());
    d.value = t;
    ++pend_n_[static_cast<std::size_t>(d.warp) * kLoadSlots + dep];
    logs_[sm].push_back(d);
    return;
  }
  std::int64_t& x = w.dep[dep];
  x = is_max ? std::max(x, t) : t;
}

inline std::int64_t GpuModel::shared_access(int sm, int waves, std::int64_t c) {
  SmState& x = st_.sms[sm];
  const double t = std::max(x.smem_free, static_cast<double>(c)) + waves * s_.smem_cost;
  x.smem_free = t;
  return ceil_cycle(t) + s_.lat.shared - 1;
}

// Greedy-then-oldest: keep issuing from the last warp while it can, else the oldest ready warp.
template <int NS>
[[gnu::always_inline]] inline int GpuModel::pick(int sm, int qi, std::int64_t c, std::int64_t& next,
                                                 int& candidates) {
  const int nsched = NS > 0 ? NS : s_.nsched;
  const std::size_t qidx = static_cast<std::size_t>(sm) * nsched + qi;
  Scheduler& q = st_.sched[qidx];
  const std::size_t base_idx = qidx * s_.per_sched;
  // The greedy warp's index in the scheduler's short arrays (whole Warp records are cold). Where
  // nsched is not a constant the table spares a division on every pick; where it is, the shift
  // spares the table's load on the way to the greedy warp's ready time.
  const int j = q.greedy < 0 ? 0 : NS > 0 ? q.greedy / NS : slot_j_[q.greedy];
  if (q.greedy >= 0) {
    static constexpr Op kPipeOp[4] = {Op::none, Op::ffma, Op::alu, Op::mma};
    const std::uint8_t p = st_.ready_pipe[base_idx + j];
    if (st_.ready[base_idx + j] <= c && (p == 0 || pipe_ok(q, kPipeOp[p], c))) {
      candidates = 2;  // others unknown: check again next cycle
      return q.greedy;
    }
  }
  if (q.others_ready > c) {
    // No warp but the greedy one can be ready yet, and it cannot issue: the scan's answer
    // without the scan. The greedy warp waits for its ready time or, ready, for its busy pipe.
    std::int64_t when = q.others_ready;
    if (q.greedy >= 0) {
      const std::int64_t r = st_.ready[base_idx + j];
      if (r > c) {
        when = std::min(when, r);
      } else {
        const std::uint8_t p = st_.ready_pipe[base_idx + j];
        const double free = p == 1 ? q.fp_free : p == 2 ? (s_.alu_on_fp_pipe ? q.fp_free : q.alu_free) : q.tc_free;
        when = std::min(when, static_cast<std::int64_t>(free));
      }
    }
    next = std::min(next, when);
    candidates = 0;
    return -1;
  }
  // One pass over the scheduler's short arrays, without data-dependent branches: a ready warp
  // whose pipe is busy is not a candidate but tells when the pipe frees. busy_at[pipe] is that
  // time for a busy pipe (always after c), -1 for a free one or none.
  const std::int64_t* ready = &st_.ready[base_idx];
  const std::int64_t* age = &st_.ready_age[base_idx];
  const std::uint8_t* pipe = &st_.ready_pipe[base_idx];
  const double alu_free = s_.alu_on_fp_pipe ? q.fp_free : q.alu_free;
  const std::int64_t busy_at[4] = {
      -1, q.fp_free < static_cast<double>(c + 1) ? -1 : static_cast<std::int64_t>(q.fp_free),
      alu_free < static_cast<double>(c + 1) ? -1 : static_cast<std::int64_t>(alu_free),
      q.tc_free < static_cast<double>(c + 1) ? -1 : static_cast<std::int64_t>(q.tc_free)};
  const bool any_busy = (busy_at[1] & busy_at[2] & busy_at[3]) >= 0;  // not all -1
  const ScanResult r = (any_busy ? scan : scan_free)(ready, age, pipe, s_.per_sched, c, busy_at, next);
  next = r.soonest;
  candidates = r.count;
  // The warp that stays greedy is the one picked, or the greedy one if none was. Were all the
  // others waiting, their soonest ready time is exact; else c, so the next pick scans.
  const bool others_wait = r.ready_n == 0 || (r.ready_n == 1 && r.best >= 0);
  q.others_ready = others_wait ? r.soonest_ready : c;
  return r.best < 0 ? -1 : r.best * nsched + qi;
}

template <class P, int NS, int IW>
[[gnu::always_inline]] inline void GpuModel::visit(int sm, int qi, std::int64_t c) {
  // The scheduler is visited again when its earliest warp can issue: at once if another
  // candidate was left waiting, else when the soonest waiting warp (or the one that just
  // issued) is ready. Earlier is always safe; it only costs a visit.
  Scheduler& q = st_.sched[static_cast<std::size_t>(sm) * (NS > 0 ? NS : s_.nsched) + qi];
  std::int64_t qnext = kNever;
  int candidates = 0;
  q.next_check = kNever;  // lowered by wake() if this visit releases a warp here
  const int width = IW > 0 ? IW : s_.issue_width;
  for (int i = 0; i < width; ++i) {
    std::int64_t soonest = kNever;
    const int slot = pick<NS>(sm, qi, c, soonest, candidates);
    qnext = soonest;
    if (slot < 0) break;
    q.greedy = slot;
    Warp& w = st_.warps[static_cast<std::size_t>(sm) * s_.slots + slot];
    execute<P>(sm, slot, w, c);
    if (candidates > 1) qnext = c + 1;
    else qnext = std::min(qnext, st_.ready[w.hot]);
  }
  q.next_check = std::min(q.next_check, std::max(c + 1, qnext));
}

// One SM from cycle `from` through its scratch limit: each cycle on which one of its schedulers
// is due, exactly as the lockstep loop would have visited it. NS schedulers of issue width IW,
// known when compiled for the usual chip (4, 1), else (0, 0) taken from the setup.
template <class P, int NS, int IW>
void GpuModel::step_sm(int sm, std::int64_t from) {
  const int n = NS > 0 ? NS : s_.nsched;
  Scheduler* qs = &st_.sched[static_cast<std::size_t>(sm) * n];
  const std::int64_t& limit = scratch_[sm].limit;  // lowered when the SM finishes a block
  for (std::int64_t c = from;; ++c) {
    std::int64_t due = qs[0].next_check;
    for (int qi = 1; qi < n; ++qi) due = std::min(due, qs[qi].next_check);
    c = std::max(c, due);
    if (c > limit) return;
    if constexpr (NS > 0) {
      // Unrolled: each visit inlines with its scheduler a constant, and the loop counter no
      // longer lives on the stack (4-8 % on tiled 1024³, docs/PERFORMANCE.md).
      [&]<int... Q>(std::integer_sequence<int, Q...>) __attribute__((always_inline)) {
        ((qs[Q].next_check <= c ? visit<P, NS, IW>(sm, Q, c) : void()), ...);
      }(std::make_integer_sequence<int, NS>{});
    } else {
      for (int qi = 0; qi < n; ++qi)
        if (qs[qi].next_check <= c) visit<P, NS, IW>(sm, qi, c);
    }
  }
}

// The instruction at the warp's counter: when it can issue (the latest of the slots it reads,
// after `base`) and on which pipe.
template <class P>
[[gnu::always_inline]] inline void GpuModel::set_next(int sm, Warp& w, std::int64_t base) {
  const Instr in = P::decode(s_, w);
  std::int64_t dep = 0;
  WaitReason why = WaitReason::none;
  unsigned reads = 0;  // load slots read, as pend bits
  auto need = [&](int slot, WaitReason r) {
    if (slot < kLoadSlots) reads |= 1u << slot;
    if (w.dep[slot] > dep) {
      dep = w.dep[slot];
      why = r;
    }
  };
  if (in.nsrc > 0) need(in.src0, in.why0);
  if (in.nsrc > 1) need(in.src1, in.why1);
  if (in.nsrc > 2) need(in.src2, in.why2);
  w.op = in.op;
  w.wait_since = base;
  st_.ready_pipe[w.hot] = in.op == Op::ffma ? 1 : in.op == Op::alu ? 2 : in.op == Op::mma ? 3 : 0;
  if ((w.pend & reads) != 0) {
    // Waits on a load still in its SM's log, which completes after the SM may run to: not
    // ready before then, and its ready_at is set when the load is settled (settle_upto).
    w.ready_at = kNever;
    w.reason = WaitReason::global_memory;
    st_.ready[w.hot] = kNever;
    scratch_[sm].hidden.push_back(static_cast<std::int32_t>(&w - st_.warps.data()));
    return;
  }
  if (dep > base + 1) {
    w.ready_at = dep;
    w.reason = why;
  } else {
    w.ready_at = base + 1;
    w.reason = WaitReason::none;
  }
  st_.ready[w.hot] = w.ready_at;
}

// A batching program's FFMAs of the warp's current batch from the last one applied up to (not
// including) upto.
template <class P>
void GpuModel::apply_ffmas(int sm, int slot, const Warp& w, int upto) {
  const std::size_t widx = static_cast<std::size_t>(sm) * s_.slots + slot;
  const int from = fma_from_[widx];
  if (upto <= from) return;
  const float* smem =
      st_.smem.data() + (static_cast<std::size_t>(sm) * s_.blocks_per_sm + w.bslot) * s_.smem_floats;
  P::fma_batch(s_, w, smem, from, upto, &st_.acc[widx * P::kAccPerWarp(P::kCellSide)]);
  fma_from_[widx] = static_cast<std::uint16_t>(upto);
}

// The global store of the accumulators, the warp's last instruction.
template <class P>
void GpuModel::store_c(int sm, int slot, Warp& w, std::int64_t c) {
  SectorList sl;
  P::global_sectors(s_, w, Instr{Op::stg}, sl);
  global_store(sm, c, sl);
  if (out_ == nullptr) {
    scratch_[sm].c_done += std::popcount(w.mask);
    finish_warp(sm, w, c);
    return;
  }
  const float* acc = &st_.acc[(static_cast<std::size_t>(sm) * s_.slots + slot) * P::kAccPerWarp(P::kCellSide)];
  std::int64_t done = 0;
  P::for_each_cell(s_, w, [&](std::size_t cell, int lane) {
    out_->value[cell] = acc[lane];  // lane: the index of the cell's accumulator in the warp's
    out_->owner[cell] = sm;
    std::atomic_ref<std::int64_t>(out_->finish[cell]).store(c, std::memory_order_release);
    ++done;
  });
  scratch_[sm].c_done += done;
  finish_warp(sm, w, c);
}

template <class P>
[[gnu::always_inline]] inline void GpuModel::execute(int sm, int slot, Warp& w, std::int64_t c) {
  ++scratch_[sm].instructions;
  ++w.issued;
  w.last_issue = c;
  const Instr in = P::decode(s_, w);
  ++scratch_[sm].by_op[static_cast<int>(in.op)];
  switch (in.op) {
    case Op::lds_a:
    case Op::lds_b:
      write_dep(w, in.dst, shared_access(sm, s_.waves[w.wib][in.waves], c), in.dst_max, sm, c);
      break;
    case Op::ffma: {
      if (in.counts_k) ++w.k_done;
      w.dep[kAccSlot] = c + s_.lat.fma;
      Scheduler& q = st_.sched[w.sched];
      q.fp_free = std::max(q.fp_free, static_cast<double>(c)) + s_.fp_cost;
      const std::size_t widx = static_cast<std::size_t>(sm) * s_.slots + slot;
      if constexpr (P::kBatchedFma) {
        // The lanes' sums are done in one run when the batch's last FFMA issues (its operands
        // stay as they are until every warp of the block has passed the barrier after it), or
        // when advance_to returns (apply_all_ffmas).
        if (in.flush != 0) {
          apply_ffmas<P>(sm, slot, w, in.flush);
          fma_from_[widx] = 0;
        }
      } else {
        P::fma(s_, w, in, &st_.acc[widx * P::kAccPerWarp(P::kCellSide)]);
      }
      break;
    }
    case Op::mma: {
      // The tensor core takes a new MMA once the last one has gone through (pipe_ok); the
      // program computes the tile's lanes from the shared-memory operands now, as they are.
      if (in.counts_k) w.k_done = std::min(w.k_done + kMmaK, s_.k);
      Scheduler& q = st_.sched[w.sched];
      q.tc_free = std::max(q.tc_free, static_cast<double>(c)) + s_.mma_cost;
      write_dep(w, in.dst, c + s_.mma_latency, in.dst_max, sm, c);
      const std::size_t widx = static_cast<std::size_t>(sm) * s_.slots + slot;
      P::mma(s_, w, in,
             st_.smem.data() + (static_cast<std::size_t>(sm) * s_.blocks_per_sm + w.bslot) * s_.smem_floats,
             &st_.acc[widx * P::kAccPerWarp(P::kCellSide)]);
      break;
    }
    case Op::ldg_a:
    case Op::ldg_b: {
      SectorList sl;
      P::global_sectors(s_, w, in, sl);
      global_load(sm, w, c, in.dst, in.dst_max, sl);
      break;
    }
    case Op::sts_a:
    case Op::sts_b:
      P::shared_store(s_, w, in,
                      st_.smem.data() + (static_cast<std::size_t>(sm) * s_.blocks_per_sm + w.bslot) * s_.smem_floats);
      shared_access(sm, s_.waves[w.wib][in.waves], c);
      break;
    case Op::alu: {
      Scheduler& q = st_.sched[w.sched];
      double& free = s_.alu_on_fp_pipe ? q.fp_free : q.alu_free;
      free = std::max(free, static_cast<double>(c)) + s_.alu_cost;
      break;
    }
    case Op::bar: {
      P::advance(s_, w);
      w.op = Op::none;
      w.ready_at = kNever;
      st_.ready[w.hot] = kNever;
      w.reason = WaitReason::barrier;
      w.wait_since = c;
      const int bslot = w.bslot;
      BlockSlot& blk = st_.blocks[static_cast<std::size_t>(sm) * s_.blocks_per_sm + bslot];
      if (++blk.arrived < s_.wpb) return;
      blk.arrived = 0;
      for (int i = 0; i < s_.wpb; ++i) {
        Warp& o = st_.warps[static_cast<std::size_t>(sm) * s_.slots + bslot * s_.wpb + i];
        const std::int64_t arrived_at = o.wait_since;
        set_next<P>(sm, o, c + s_.lat.barrier - 1);
        o.wait_since = arrived_at;
        o.reason = WaitReason::barrier;
        wake(o);
      }
      return;
    }
    case Op::stg:
      store_c<P>(sm, slot, w, c);
      return;
    case Op::none:
      std::abort();  // no program emits it
  }
  P::advance(s_, w);
  set_next<P>(sm, w, c);
}

// A program's entry for the registry, with the engine's steps instantiated for it.
template <class P>
constexpr KernelOps make_kernel_ops() {
  KernelOps o{};
  o.kernel = P::kKernel;
  o.name = P::kName;
  o.instructions_per_second = P::kInstructionsPerSecond;
  o.warp_instructions = &P::warp_instructions;
  o.block = P::kBlock;
  o.cell_side = P::kCellSide;
  o.regs = P::kRegsPerThread;
  o.tensor = P::kTensor;
  o.smem_floats = &P::smem_floats;
  o.prepare = &P::prepare;
  o.start = &P::start;
  o.step_sm = [](GpuModel& m, int sm, std::int64_t from) { m.step_sm<P, 0, 0>(sm, from); };
  o.step_sm_4x1 = [](GpuModel& m, int sm, std::int64_t from) { m.step_sm<P, 4, 1>(sm, from); };
  o.set_next = [](GpuModel& m, int sm, Warp& w, std::int64_t base) { m.set_next<P>(sm, w, base); };
  o.warp_cells = [](const GpuSetup& s, const Warp& w, std::vector<std::pair<std::size_t, int>>& out) {
    out.clear();
    P::for_each_cell(s, w, [&](std::size_t cell, int acc) { out.emplace_back(cell, acc); });
  };
  if constexpr (requires { P::smem_tile; }) o.smem_tile = &P::smem_tile;
  if constexpr (requires { P::rebuild_acc; }) {
    o.rebuild_acc = &P::rebuild_acc;
    o.rebuild_prepare = &P::rebuild_prepare;
  }
  if constexpr (P::kBatchedFma) {
    o.fmas_batched = &P::fmas_batched;
    o.apply_ffmas = [](GpuModel& m, int sm, int slot, const Warp& w, int upto) { m.apply_ffmas<P>(sm, slot, w, upto); };
  }
  return o;
}

}  // namespace ws::sim::detail
