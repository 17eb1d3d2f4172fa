// A cache as tags only: which sectors are present, never their data (the data lives in the
// matrices). Set-associative with LRU, lines of several sectors; or, when everything the run can
// touch fits, an exact "seen before" bitset, which is what an LRU cache of that size would answer
// without spending memory on tags it will never evict.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ws::sim::detail {

class SectorCache {
 public:
  SectorCache() = default;
  // capacity 0 makes a cache that always misses.
  SectorCache(std::uint64_t capacity_bytes, int line_bytes, int sector_bytes, int ways,
              std::uint64_t footprint_bytes)
      : sector_shift_(log2(sector_bytes)),
        sectors_per_line_shift_(log2(line_bytes / sector_bytes)) {
    if (capacity_bytes == 0) return;
    const std::uint64_t footprint_sectors = (footprint_bytes >> sector_shift_) + 1;
    if (footprint_bytes <= capacity_bytes) {
      seen_.assign((footprint_sectors + 63) / 64, 0);
      return;
    }
    const std::uint64_t lines = capacity_bytes / static_cast<std::uint64_t>(line_bytes);
    ways_ = static_cast<int>(std::min<std::uint64_t>(ways, std::max<std::uint64_t>(1, lines)));
    sets_ = std::max<std::uint64_t>(1, lines / ways_);
    tag_.assign(sets_ * ways_, 0);
    stamp_.assign(sets_ * ways_, 0);
    mask_.assign(sets_ * ways_, 0);
  }

  bool enabled() const { return !seen_.empty() || !tag_.empty(); }

  // Looks up the sector holding this byte address and brings it in; true on a hit.
  bool access(std::uint64_t address) {
    const std::uint64_t sector = address >> sector_shift_;
    if (!seen_.empty()) {
      std::uint64_t& word = seen_[sector >> 6];
      const std::uint64_t bit = std::uint64_t{1} << (sector & 63);
      const bool hit = (word & bit) != 0;
      word |= bit;
      return hit;
    }
    if (tag_.empty()) return false;
    const std::uint64_t line = sector >> sectors_per_line_shift_;
    const auto bit = static_cast<std::uint8_t>(1u << (sector & ((1u << sectors_per_line_shift_) - 1)));
    const std::uint64_t base = (line % sets_) * ways_;
    const auto tag = static_cast<std::uint32_t>(line + 1);
    ++clock_;
    std::uint64_t victim = base;
    for (int w = 0; w < ways_; ++w) {
      const std::uint64_t e = base + w;
      if (tag_[e] == tag) {
        stamp_[e] = clock_;
        const bool hit = (mask_[e] & bit) != 0;
        mask_[e] |= bit;
        return hit;
      }
      if (stamp_[e] < stamp_[victim]) victim = e;
    }
    tag_[victim] = tag;
    stamp_[victim] = clock_;
    mask_[victim] = bit;
    return false;
  }

  // The LRU order as ranks within each set (0: never used), a quarter of the stamps' memory, for
  // a checkpoint. Victim choice reads only the order of a set's stamps, and every later stamp is
  // above clock_, so stamps put back as ranks (restore_lru) choose the same victims from then on;
  // the stamps themselves are not in the state hash.
  bool lru_packable() const { return !tag_.empty() && ways_ <= 255; }
  std::vector<std::uint8_t> take_lru() {
    std::vector<std::uint8_t> ranks(stamp_.size(), 0);
    for (std::uint64_t set = 0; set < sets_; ++set) {
      const std::uint64_t base = set * ways_;
      for (int w = 0; w < ways_; ++w) {
        const std::uint32_t st = stamp_[base + w];
        if (st == 0) continue;
        int rank = 1;
        for (int o = 0; o < ways_; ++o) rank += static_cast<int>(stamp_[base + o] != 0 && stamp_[base + o] < st);
        ranks[base + w] = static_cast<std::uint8_t>(rank);
      }
    }
    std::vector<std::uint32_t>().swap(stamp_);
    return ranks;
  }
  void restore_lru(const std::vector<std::uint8_t>& ranks) { stamp_.assign(ranks.begin(), ranks.end()); }

  // The tags in half the memory, for a checkpoint: an entry's set is its position, so only
  // line / sets is kept (+1, 0: empty), when that fits 16 bits for every entry; else nothing is
  // taken (empty result).
  std::vector<std::uint16_t> take_tags() {
    std::vector<std::uint16_t> high(tag_.size());
    // A quotient by multiplying with 1 / sets_, corrected by one where rounding left it off (a
    // 64-bit division per entry was a third of a checkpoint's packing).
    const double inverse = 1.0 / static_cast<double>(sets_);
    for (std::size_t e = 0; e < tag_.size(); ++e) {
      if (tag_[e] == 0) continue;
      const std::uint64_t line = tag_[e] - 1;
      std::uint64_t q = static_cast<std::uint64_t>(static_cast<double>(line) * inverse);
      if (q * sets_ > line) --q;
      else if ((q + 1) * sets_ <= line) ++q;
      const std::uint64_t h = q + 1;
      if (h > 0xffff) return {};
      high[e] = static_cast<std::uint16_t>(h);
    }
    std::vector<std::uint32_t>().swap(tag_);
    return high;
  }
  void restore_tags(const std::vector<std::uint16_t>& high) {
    tag_.resize(high.size());
    // Entries run set by set, ways_ to a set (and slice after slice): walked in that order rather
    // than dividing each index back into its set.
    const auto ways = static_cast<std::size_t>(ways_);
    std::size_t e = 0;
    while (e < high.size())
      for (std::uint64_t set = 0; set < sets_ && e < high.size(); ++set)
        for (std::size_t way = 0; way < ways && e < high.size(); ++way, ++e)
          tag_[e] = high[e] == 0 ? 0 : static_cast<std::uint32_t>((high[e] - 1) * sets_ + set + 1);
  }

  std::size_t bytes() const {
    return seen_.size() * 8 + tag_.size() * 4 + stamp_.size() * 4 + mask_.size();
  }

  template <class H>
  void hash_into(H& h) const {
    h.add(clock_);
    for (auto w : seen_) h.add(w);
    for (std::size_t i = 0; i < tag_.size(); ++i) {
      h.add(tag_[i]);
      h.add(mask_[i]);
    }
  }

 private:
  static int log2(int v) {
    int s = 0;
    while ((1 << s) < v) ++s;
    return s;
  }

  int sector_shift_ = 5;
  int sectors_per_line_shift_ = 2;
  int ways_ = 1;
  std::uint64_t sets_ = 0;
  std::uint32_t clock_ = 0;
  std::vector<std::uint64_t> seen_;
  std::vector<std::uint32_t> tag_;
  std::vector<std::uint32_t> stamp_;
  std::vector<std::uint8_t> mask_;
};

// FNV-1a over values, for state digests.
struct Hasher {
  std::uint64_t h = 1469598103934665603ull;
  template <class T>
  void add(const T& v) {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      h ^= p[i];
      h *= 1099511628211ull;
    }
  }
};

}  // namespace ws::sim::detail
