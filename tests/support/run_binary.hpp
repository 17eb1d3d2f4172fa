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
