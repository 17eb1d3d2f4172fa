// Runs the warpscope binary with an exact argument vector (no shell, so any token passes as
// is: empty strings, quotes, invalid UTF-8), with separate stdout and stderr and a deadline.
// The window is never reachable: DISPLAY and WAYLAND_DISPLAY are removed, so a path that would
// open one fails at once instead of rendering, and settings go to a scratch directory.
#pragma once

#include <chrono>
#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ws::test {

struct CliRun {
  int exit_code = -1;  // when the process exited
  int signal = 0;      // when a signal ended it (0 otherwise)
  bool timed_out = false;
  std::string out, err;
};

inline CliRun run_cli(const std::string& bin, const std::vector<std::string>& args, const std::string& config_dir,
                      std::chrono::milliseconds deadline) {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv = *e;
    if (kv.rfind("DISPLAY=", 0) == 0 || kv.rfind("WAYLAND_DISPLAY=", 0) == 0 || kv.rfind("WARPSCOPE_CONFIG_DIR=", 0) == 0)
      continue;
    env_strings.push_back(kv);
  }
  env_strings.push_back("WARPSCOPE_CONFIG_DIR=" + config_dir);
  std::vector<char*> envp, argv;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> arg_strings{bin};
  arg_strings.insert(arg_strings.end(), args.begin(), args.end());
  for (auto& s : arg_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  CliRun r;
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) return r;
  const pid_t pid = ::fork();
  if (pid < 0) return r;
  if (pid == 0) {
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  const auto until = std::chrono::steady_clock::now() + deadline;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  char buf[4096];
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    if (::poll(fds, 2, static_cast<int>(left.count())) < 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        // Enough to judge a message; a flood is itself visible as a long output.
        if (sinks[i]->size() < (1u << 20)) sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace ws::test
