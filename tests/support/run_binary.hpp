// Runs the warpscope binary the way a user would and captures what it says.
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

struct ProcessResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

inline ProcessResult run_command(const std::string& command) {
  ProcessResult r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) r.output += buffer.data();
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

inline bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

#ifdef WARPSCOPE_BIN
// `warpscope ARGS` as a user types it: its exit code and what it printed.
struct CliRun {
  int code;
  std::string out;
};
inline CliRun run_cli(const std::string& args) {
  const ProcessResult r = run_command(std::string(WARPSCOPE_BIN) + " " + args);
  return {r.exit_code, r.output};
}
#endif
