// Stand-in for the warpscope binary in builds without the app target: only the bench subcommand.
#include <CLI/CLI.hpp>

#include "cli_commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"warpscope (bench only)"};
  app.require_subcommand(1);
  int exit_code = 0;
  ws::app::add_bench_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  return exit_code;
}
