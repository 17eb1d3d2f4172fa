// The links between GPUs the cluster model knows (assets/presets/links.toml): NVLink generations,
// PCIe slots and InfiniBand NICs, each with its datasheet bandwidth, its latency and their sources.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ws::sim {

enum class LinkKind { nvlink, pcie, network };
const char* to_string(LinkKind k);

struct LinkSpec {
  std::string id;            // "nvlink4"
  std::string name;          // "NVLink 4 (H100/H200 SXM)"
  LinkKind kind = LinkKind::pcie;
  double datasheet_gbs = 0;  // as the vendor prints it
  int directions = 1;        // 2: datasheet_gbs adds both directions (NVLink, PCIe totals)
  double latency_us = 0;     // alpha of one ring step
  std::string source;

  // What one direction carries: a ring step sends one way while it receives the other.
  double per_direction_gbs() const { return datasheet_gbs / directions; }
};

// links.toml under presets_dir(), loaded once; throws std::runtime_error on a bad file.
const std::vector<LinkSpec>& link_specs();
// By id, case-insensitive; throws UnknownPreset listing the valid ids.
const LinkSpec& find_link(const std::string& id);
std::vector<std::string> link_ids();
// The text of a links file; `path` only names it in errors.
std::vector<LinkSpec> parse_links(std::string_view text, const std::string& path);

}  // namespace ws::sim
