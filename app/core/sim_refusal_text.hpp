// Why the simulator refused a launch or a split (sim/ writes it in English: the occupancy
// calculator's reason, a launch no SM can hold, a kernel the preset lacks the units for, a run too
// long or too big, a cluster split that does not divide), in the UI's language.
#pragma once

#include <string>

#include "lesson/i18n.hpp"

namespace ws::app {

// sim::OccupancyResult::reason (why no block fits an SM) in `lang`; a reason of no known form
// stays as it is.
std::string occupancy_reason_words(const std::string& reason, lesson::Language lang);

// A sim::SimRefused message (or an estimate's refusal) in `lang`, a preset named by its short
// name on a Korean screen as the panels name it; a message of no known form stays as it is.
std::string sim_refusal_words(const std::string& text, lesson::Language lang);

// Why the cluster model cannot split a step this way (sim::simulate_cluster's check) in `lang`;
// a message of no known form stays as it is.
std::string cluster_refusal_words(const std::string& text, lesson::Language lang);

}  // namespace ws::app
