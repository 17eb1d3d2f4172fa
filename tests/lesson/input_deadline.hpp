// Test support for "bad input is refused up front": runs a call in a forked child and reports
// whether it returned within a deadline. A read of /dev/urandom or a FIFO that is not refused
// never returns; in the child it is killed and the test fails with a message instead of hanging
// ctest until its timeout. The child's result is thrown away: call again in the parent once it
// is known to return, and assert on that.
#pragma once

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <thread>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ws::test {

inline bool returns_within(std::chrono::milliseconds deadline, const std::function<void()>& call) {
  const pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) {
    call();
    std::_Exit(0);  // no atexit handlers, no leak check of a half-torn-down copy of the parent
  }
  const auto until = std::chrono::steady_clock::now() + deadline;
  int status = 0;
  while (std::chrono::steady_clock::now() < until) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return false;
}

}  // namespace ws::test
