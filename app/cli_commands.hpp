// Headless subcommands of the one `warpscope` binary. Each file adds its own subcommand(s) to the
// CLI11 app; a callback stores its exit code in `exit_code` (0 ok, 1 runtime failure, 2 bad input).
#pragma once

namespace CLI { class App; }

namespace ws::app {

void add_bench_command(CLI::App& app, int& exit_code);    // app/cli_bench.cpp   (issue 2)
void add_sim_commands(CLI::App& app, int& exit_code);     // app/cli_sim.cpp     (issue 3): presets, occupancy, simulate
void add_lesson_commands(CLI::App& app, int& exit_code);  // app/cli_lesson.cpp  (issue 5): lesson check/export
void add_cluster_command(CLI::App& app, int& exit_code);  // app/cli_cluster.cpp (issue 15): cluster

}  // namespace ws::app
