// links.toml: the catalogue of GPU-to-GPU links for the cluster model.
#include "warpscope/sim/links.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <toml++/toml.h>

#include "warpscope/sim/presets.hpp"

#include "ascii.hpp"

namespace ws::sim {
namespace {

LinkKind parse_kind(const std::string& text, const std::string& where) {
  if (text == "nvlink") return LinkKind::nvlink;
  if (text == "pcie") return LinkKind::pcie;
  if (text == "network") return LinkKind::network;
  throw std::runtime_error(where + ": kind must be nvlink, pcie or network, got '" + text + "'");
}

std::vector<LinkSpec> load_links() {
  const std::string path = (std::filesystem::path(presets_dir()) / "links.toml").string();
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the links file (set WARPSCOPE_ASSETS)");
  std::ostringstream text;
  // The file is a page: a bigger one is not ours.
  text << in.rdbuf();
  if (text.str().size() > kMaxPresetBytes) throw std::runtime_error(path + ": is too large for a links file");
  return parse_links(text.str(), path);
}

}  // namespace

const char* to_string(LinkKind k) {
  switch (k) {
    case LinkKind::nvlink: return "nvlink";
    case LinkKind::pcie: return "pcie";
    case LinkKind::network: return "network";
  }
  return "?";
}

std::vector<LinkSpec> parse_links(std::string_view text, const std::string& path) {
  toml::table t;
  try {
    t = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw std::runtime_error(path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  const auto* arr = t["link"].as_array();
  if (arr == nullptr || arr->empty()) throw std::runtime_error(path + ": no [[link]] entries");
  std::vector<LinkSpec> out;
  for (const auto& node : *arr) {
    const auto* e = node.as_table();
    if (e == nullptr) throw std::runtime_error(path + ": each link must be a [[link]] table");
    const std::string where = path + ": link " + std::to_string(out.size() + 1);
    auto need_string = [&](const char* key) {
      auto v = (*e)[key].value<std::string>();
      if (!v || v->empty()) throw std::runtime_error(where + ": missing or empty '" + key + "'");
      return *v;
    };
    auto need_number = [&](const char* key) {
      auto v = (*e)[key].value<double>();
      if (!v) throw std::runtime_error(where + ": missing or mistyped '" + key + "'");
      return *v;
    };
    LinkSpec l;
    l.id = need_string("id");
    l.name = need_string("name");
    l.kind = parse_kind(need_string("kind"), where);
    l.datasheet_gbs = need_number("datasheet_gbs");
    l.directions = static_cast<int>(need_number("directions"));
    l.latency_us = need_number("latency_us");
    l.source = need_string("source");
    // `!(x > 0)`: NaN passes every comparison.
    if (!(l.datasheet_gbs > 0) || !std::isfinite(l.datasheet_gbs) || (l.directions != 1 && l.directions != 2) ||
        !(l.latency_us >= 0) || !std::isfinite(l.latency_us))
      throw std::runtime_error(where + " (" + l.id +
                               "): datasheet_gbs must be positive, directions 1 or 2, latency_us finite and >= 0");
    for (const auto& other : out)
      if (detail::ascii_lower(other.id) == detail::ascii_lower(l.id)) throw std::runtime_error(where + ": duplicate id '" + l.id + "'");
    out.push_back(std::move(l));
  }
  return out;
}

const std::vector<LinkSpec>& link_specs() {
  static const std::vector<LinkSpec> all = load_links();
  return all;
}

std::vector<std::string> link_ids() {
  std::vector<std::string> ids;
  for (const auto& l : link_specs()) ids.push_back(l.id);
  return ids;
}

const LinkSpec& find_link(const std::string& id) {
  const std::string key = detail::ascii_lower(id);
  for (const auto& l : link_specs())
    if (detail::ascii_lower(l.id) == key) return l;
  std::string valid;
  for (const auto& l : link_specs()) valid += (valid.empty() ? "" : ", ") + l.id;
  throw UnknownPreset("unknown link '" + id + "'; valid: " + valid);
}

}  // namespace ws::sim
