// A link's figures as `presets --json` and `cluster --json` both print them, so the two
// subcommands can never describe the same NVLink or network differently.
#pragma once

#include <nlohmann/json.hpp>

#include "warpscope/sim/links.hpp"

namespace ws::app {

inline nlohmann::json link_json(const sim::LinkSpec& l) {
  return {{"id", l.id},
          {"name", l.name},
          {"kind", sim::to_string(l.kind)},
          {"datasheet_gbs", l.datasheet_gbs},
          {"datasheet_directions", l.directions},
          {"per_direction_gbs", l.per_direction_gbs()},
          {"latency_us", l.latency_us},
          {"source", l.source}};
}

}  // namespace ws::app
