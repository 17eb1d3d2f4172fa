// Checkpoints of the GPU engine's state in little memory (PackedGpuState): the window keeps
// hundreds of them so a seek replays only a short stretch, and each byte saved here is more of
// them in the same budget. Everything a pack leaves out is rebuilt on unpack, bit for bit, and
// left out only where the pack has checked that the rebuild gives it back.
#include <algorithm>
#include <cstring>
#include <span>
#include <type_traits>

#include "gpu_model.hpp"
#include "kernels/kernel_program.hpp"
#include "worker_pool.hpp"

namespace ws::sim::detail {
namespace {

std::size_t bytes_of(const GpuState& st) {
  std::size_t b = sizeof(GpuState) + st.warps.size() * sizeof(Warp) + st.acc.size() * 4 + st.smem.size() * 4 +
                  st.blocks.size() * sizeof(BlockSlot) + st.sched.size() * sizeof(Scheduler) +
                  st.ready.size() * sizeof(std::int64_t) + st.ready_age.size() * sizeof(std::int64_t) +
                  st.ready_pipe.size() + st.sms.size() * sizeof(SmState) + st.l2.bytes();
  for (const auto& l1 : st.l1) b += l1.bytes();
  return b;
}

// Warp records as variable-length integers: most fields equal or follow the previous warp's,
// and the cycles a warp keeps lie near the state's `now`. 144 bytes a warp become ~37.
void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

std::uint64_t get_varint(const std::uint8_t*& p) {
  std::uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const std::uint8_t byte = *p++;
    v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) return v;
  }
}

std::uint64_t zigzag(std::int64_t d) {
  return (static_cast<std::uint64_t>(d) << 1) ^ static_cast<std::uint64_t>(d >> 63);
}
std::int64_t unzigzag(std::uint64_t z) {
  return static_cast<std::int64_t>(z >> 1) ^ -static_cast<std::int64_t>(z & 1);
}

template <class T>
std::uint64_t as_bits(T v) {
  if constexpr (std::is_enum_v<T>) return static_cast<std::uint64_t>(static_cast<std::underlying_type_t<T>>(v));
  else return static_cast<std::uint64_t>(v);  // sign-extended: differences of two fields stay small
}
template <class T>
T from_bits(std::uint64_t v) {
  if constexpr (std::is_enum_v<T>) return static_cast<T>(static_cast<std::underlying_type_t<T>>(v));
  else if constexpr (std::is_same_v<T, bool>) return v != 0;
  else return static_cast<T>(v);
}

// Every field of a Warp beside the previous warp's, cycles apart from the rest. A field added to
// Warp must be added here, or it would not survive a checkpoint: the size check is the reminder.
static_assert(sizeof(Warp) == 144, "a new Warp field: add it to each_warp_field");
template <class W, class Cycle, class Field>
void each_warp_field(W& w, const Warp& prev, Cycle&& cycle, Field&& field) {
  cycle(w.ready_at);
  cycle(w.last_issue);
  cycle(w.wait_since);
  for (auto& d : w.dep) cycle(d);
  field(w.age, prev.age);
  field(w.issued, prev.issued);
  field(w.block, prev.block);
  field(w.hot, prev.hot);
  field(w.bx, prev.bx);
  field(w.by, prev.by);
  field(w.bslot, prev.bslot);
  field(w.sched, prev.sched);
  field(w.iter, prev.iter);
  field(w.k_done, prev.k_done);
  field(w.mask, prev.mask);
  field(w.wib, prev.wib);
  field(w.kk, prev.kk);
  field(w.phase, prev.phase);
  field(w.sub, prev.sub);
  field(w.op, prev.op);
  field(w.reason, prev.reason);
  field(w.done, prev.done);
  field(w.ever, prev.ever);
  field(w.pend, prev.pend);
}

// A cycle: 0 for kNever, else its distance from now (zigzag) plus one. Other fields: their
// difference from the previous warp's (zigzag).
void encode_warps(const std::vector<Warp>& warps, std::int64_t now, std::vector<std::uint8_t>& out) {
  out.clear();
  out.reserve(warps.size() * 48);
  Warp prev{};
  for (const Warp& w : warps) {
    each_warp_field(
        w, prev,
        [&](std::int64_t v) {
          const auto from_now = static_cast<std::int64_t>(static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(now));
          put_varint(out, v == kNever ? 0 : zigzag(from_now) + 1);
        },
        [&](auto v, auto before) { put_varint(out, zigzag(static_cast<std::int64_t>(as_bits(v) - as_bits(before)))); });
    prev = w;
  }
}

void decode_warps(const std::vector<std::uint8_t>& in, std::int64_t now, std::vector<Warp>& warps) {
  const std::uint8_t* at = in.data();
  Warp prev{};
  for (Warp& w : warps) {
    each_warp_field(
        w, prev,
        [&](std::int64_t& v) {
          const std::uint64_t code = get_varint(at);
          v = code == 0 ? kNever
                        : static_cast<std::int64_t>(static_cast<std::uint64_t>(now) +
                                                    static_cast<std::uint64_t>(unzigzag(code - 1)));
        },
        [&](auto& v, auto before) {
          using T = std::remove_cvref_t<decltype(v)>;
          v = from_bits<T>(as_bits(before) + static_cast<std::uint64_t>(unzigzag(get_varint(at))));
        });
    prev = w;
  }
}

}  // namespace

std::size_t GpuModel::state_bytes() const { return bytes_of(st_); }

std::size_t PackedGpuState::bytes() const {
  std::size_t b = bytes_of(st) + smem_code.size() * sizeof(std::int32_t) + smem_raw.size() * sizeof(float) +
                  warps.size() + acc_raw.size() * sizeof(float);
  for (const auto& r : lru) b += r.size();
  for (const auto& t : tags) b += t.size() * sizeof(std::uint16_t);
  return b;
}

std::vector<std::int32_t> PackedGpuState::chunk_codes(std::size_t chunks_per_block) const {
  std::vector<std::int32_t> codes;
  for (std::size_t at = 0; at < smem_code.size();) {
    const std::int32_t code = smem_code[at++];
    if (code != kMixed) {
      codes.insert(codes.end(), chunks_per_block, code);
      continue;
    }
    codes.insert(codes.end(), smem_code.begin() + static_cast<std::ptrdiff_t>(at),
                 smem_code.begin() + static_cast<std::ptrdiff_t>(at + chunks_per_block));
    at += chunks_per_block;
  }
  return codes;
}

// The schedulers' short arrays as the warps say they are: fn(index, ready time, age) for each
// entry, the warp's at the slot place_block gives it (Warp::hot), kNever where no warp has ever
// been (and where a scheduler has fewer slots than per_sched).
template <class Fn>
void GpuModel::for_each_ready_entry(Fn&& fn) const {
  const std::size_t slots = static_cast<std::size_t>(s_.slots), nsched = static_cast<std::size_t>(s_.nsched);
  const std::size_t per_sched = static_cast<std::size_t>(s_.per_sched);
  for (std::size_t sm = 0; sm < static_cast<std::size_t>(s_.gpu->sm_count); ++sm)
    for (std::size_t q = 0; q < nsched; ++q)
      for (std::size_t j = 0; j < per_sched; ++j) {
        const std::size_t hot = (sm * nsched + q) * per_sched + j, slot = j * nsched + q;
        if (slot >= slots) {
          fn(hot, kNever, kNever);
          continue;
        }
        const Warp& w = st_.warps[sm * slots + slot];
        fn(hot, w.ready_at, w.ever ? w.age : kNever);
      }
}

bool GpuModel::ready_follows_warps() const {
  bool same = true;
  for_each_ready_entry([&](std::size_t hot, std::int64_t ready, std::int64_t age) {
    same = same && st_.ready[hot] == ready && st_.ready_age[hot] == age;
  });
  return same;
}

const std::vector<float>& GpuModel::rebuild_keep() const {
  RebuildKeep& keep = *s_.rebuild_keep;
  std::call_once(keep.once, [&] { ops_->rebuild_prepare(s_, keep.data); });
  return keep.data;
}

void GpuModel::pack(PackedGpuState& out) {
  // The parts packed below are moved aside while the rest is copied as it is.
  std::vector<float> smem = std::move(st_.smem);
  std::vector<float> acc = std::move(st_.acc);
  std::vector<Warp> warps = std::move(st_.warps);
  std::vector<std::int64_t> ready = std::move(st_.ready), ready_age = std::move(st_.ready_age);
  out.st = st_;
  st_.smem = std::move(smem);
  st_.acc = std::move(acc);
  st_.warps = std::move(warps);
  st_.ready = std::move(ready);
  st_.ready_age = std::move(ready_age);

  encode_warps(st_.warps, st_.now, out.warps);
  out.ready_rebuilt = ready_follows_warps();
  if (!out.ready_rebuilt) {
    out.st.ready = st_.ready;
    out.st.ready_age = st_.ready_age;
  }

  // The warps' sums: rebuilt from A and B on unpack where the program can. Checking every block
  // slot's rebuild would cost more than the simulating between two checkpoints, so each pack
  // checks an eighth of them, a different eighth each time; the first difference (a program
  // whose rebuild is wrong) keeps this and every later checkpoint's sums as they are.
  const std::size_t per_slot = static_cast<std::size_t>(s_.acc_per_warp) * static_cast<std::size_t>(s_.wpb);
  out.acc_rebuilt = ops_->rebuild_acc != nullptr && rebuild_agrees_;
  if (out.acc_rebuilt) {
    acc_scratch_.resize(per_slot);
    const std::size_t turn = packs_++ % kRebuildCheckEvery;
    for (std::size_t slot = turn; slot < st_.blocks.size() && out.acc_rebuilt; slot += kRebuildCheckEvery) {
      const std::size_t first = slot * static_cast<std::size_t>(s_.wpb);
      ops_->rebuild_acc(s_, &st_.warps[first], acc_scratch_.data(), rebuild_keep());
      out.acc_rebuilt = std::memcmp(acc_scratch_.data(), &st_.acc[slot * per_slot], per_slot * sizeof(float)) == 0;
    }
    rebuild_agrees_ = out.acc_rebuilt;
  }
  if (out.acc_rebuilt) out.acc_raw.clear();
  else out.acc_raw = st_.acc;

  out.smem_code.clear();
  out.smem_raw.clear();
  const std::size_t per_block = static_cast<std::size_t>(s_.smem_floats);
  const std::size_t chunk = static_cast<std::size_t>(s_.bdim);
  if (per_block > 0) {
    tile_scratch_.resize(3 * per_block);
    std::vector<std::int32_t> codes;
    for (std::size_t slot = 0; slot < st_.blocks.size(); ++slot) {
      const float* mem = &st_.smem[slot * per_block];
      // The tiles the block's warps stored last: between two barriers a warp stands in the tile
      // of the first warp, the one before or the one after.
      // Tried in that order, each filled only when a chunk needs it: the first usually matches.
      int cand[3] = {-1, -1, -1};
      bool filled[3] = {false, false, false};
      const std::int32_t block = st_.blocks[slot].block;
      if (ops_->smem_tile != nullptr && block >= 0) {
        const int iter = st_.warps[slot * s_.wpb].iter;
        const int order[3] = {iter, iter - 1, iter + 1};
        for (int c = 0; c < 3; ++c)
          if (order[c] >= 0 && order[c] < s_.ntiles) cand[c] = order[c];
      }
      codes.clear();
      for (std::size_t at = 0; at < per_block; at += chunk) {
        const std::size_t len = std::min(chunk, per_block - at);
        const auto bits = std::span(reinterpret_cast<const std::uint32_t*>(mem + at), len);
        std::int32_t code = std::all_of(bits.begin(), bits.end(), [](std::uint32_t v) { return v == 0; })
                                ? PackedGpuState::kZero
                                : PackedGpuState::kRaw;
        for (int c = 0; c < 3 && code == PackedGpuState::kRaw; ++c) {
          if (cand[c] < 0) continue;
          float* tile = &tile_scratch_[c * per_block];
          if (!filled[c]) {
            ops_->smem_tile(s_, block % s_.grid_x, block / s_.grid_x, cand[c], tile);
            filled[c] = true;
          }
          if (std::memcmp(mem + at, tile + at, len * sizeof(float)) == 0) code = cand[c];
        }
        codes.push_back(code);
        if (code == PackedGpuState::kRaw) out.smem_raw.insert(out.smem_raw.end(), mem + at, mem + at + len);
      }
      // A block's chunks mostly share one code: then it is kept once.
      if (std::all_of(codes.begin(), codes.end(), [&](std::int32_t c) { return c == codes[0]; })) {
        out.smem_code.push_back(codes[0]);
      } else {
        out.smem_code.push_back(PackedGpuState::kMixed);
        out.smem_code.insert(out.smem_code.end(), codes.begin(), codes.end());
      }
    }
  }
  out.lru.assign(out.st.l1.size() + 1, {});
  out.tags.assign(out.st.l1.size() + 1, {});
  for (std::size_t i = 0; i <= out.st.l1.size(); ++i) {
    SectorCache& cache = i < out.st.l1.size() ? out.st.l1[i] : out.st.l2;
    if (!cache.lru_packable()) continue;
    out.lru[i] = cache.take_lru();
    out.tags[i] = cache.take_tags();
  }
}

void GpuModel::unpack(const PackedGpuState& in) {
  // The packed parts' memory is reused.
  std::vector<float> smem = std::move(st_.smem);
  std::vector<float> acc = std::move(st_.acc);
  std::vector<Warp> warps = std::move(st_.warps);
  std::vector<std::int64_t> ready = std::move(st_.ready), ready_age = std::move(st_.ready_age);
  st_ = in.st;
  for (std::size_t i = 0; i <= st_.l1.size(); ++i) {
    SectorCache& cache = i < st_.l1.size() ? st_.l1[i] : st_.l2;
    if (!in.lru[i].empty()) cache.restore_lru(in.lru[i]);
    if (!in.tags[i].empty()) cache.restore_tags(in.tags[i]);
  }

  const std::size_t nwarps = static_cast<std::size_t>(s_.gpu->sm_count) * s_.slots;
  warps.resize(nwarps);
  decode_warps(in.warps, st_.now, warps);
  st_.warps = std::move(warps);
  if (in.ready_rebuilt) {
    ready.resize(st_.ready_pipe.size());
    ready_age.resize(st_.ready_pipe.size());
    for_each_ready_entry([&](std::size_t hot, std::int64_t r, std::int64_t age) {
      ready[hot] = r;
      ready_age[hot] = age;
    });
    st_.ready = std::move(ready);
    st_.ready_age = std::move(ready_age);
  }

  if (in.acc_rebuilt) {
    const std::size_t per_slot = static_cast<std::size_t>(s_.acc_per_warp) * static_cast<std::size_t>(s_.wpb);
    acc.resize(st_.blocks.size() * per_slot);
    auto rebuild = [&](std::size_t slot, const std::vector<float>& keep) {
      ops_->rebuild_acc(s_, &st_.warps[slot * static_cast<std::size_t>(s_.wpb)], &acc[slot * per_slot], keep);
    };
    // On every thread: this is most of a seek's restore.
    const std::size_t slots = st_.blocks.size();
    const std::vector<float>& keep = rebuild_keep();
    if (pool_ != nullptr) {
      constexpr int kParts = 32;
      pool_->for_each(kParts, [&](int part) {
        for (std::size_t slot = slots * part / kParts; slot < slots * (part + 1) / kParts; ++slot) rebuild(slot, keep);
      });
    } else {
      for (std::size_t slot = 0; slot < slots; ++slot) rebuild(slot, keep);
    }
  } else {
    acc = in.acc_raw;
  }
  st_.acc = std::move(acc);

  const std::size_t per_block = static_cast<std::size_t>(s_.smem_floats);
  const std::size_t chunk = static_cast<std::size_t>(s_.bdim);
  smem.resize(st_.blocks.size() * per_block);
  if (per_block > 0) {
    tile_scratch_.resize(per_block);
    const std::size_t chunks = (per_block + chunk - 1) / chunk;
    const std::vector<std::int32_t> codes = in.chunk_codes(chunks);
    std::size_t raw_at = 0;
    for (std::size_t slot = 0; slot < st_.blocks.size(); ++slot) {
      float* mem = &smem[slot * per_block];
      int filled = -1;  // the tile in tile_scratch_
      for (std::size_t at = 0; at < per_block; at += chunk) {
        const std::size_t len = std::min(chunk, per_block - at);
        const std::int32_t code = codes[slot * chunks + at / chunk];
        if (code == PackedGpuState::kZero) {
          std::fill_n(mem + at, len, 0.0f);
        } else if (code == PackedGpuState::kRaw) {
          std::copy_n(&in.smem_raw[raw_at], len, mem + at);
          raw_at += len;
        } else {
          if (filled != code) {
            const std::int32_t block = st_.blocks[slot].block;
            ops_->smem_tile(s_, block % s_.grid_x, block / s_.grid_x, code, tile_scratch_.data());
            filled = code;
          }
          std::copy_n(&tile_scratch_[at], len, mem + at);
        }
      }
    }
  }
  st_.smem = std::move(smem);
}

}  // namespace ws::sim::detail
