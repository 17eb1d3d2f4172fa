// Where GL work happens: one global lock, and the context it runs in (the provider's when one
// is set, else the display-less EGL context). Internal to the GL backend.
#pragma once

#include <mutex>
#include <optional>
#include <string>

#include "gl/gl_backend.hpp"

namespace ws::kernels::gl {

// What the context can do, found once per provider and cached.
struct Probe {
  std::optional<std::string> reason;  // set when GL compute kernels cannot run
  std::optional<DeviceFacts> facts;   // set when they can
};

// One job's hold on GL: takes the global lock, makes the context current on this thread, and
// in the destructor makes it uncurrent again (restoring what was current) and unlocks. GL objects
// a job creates must be destroyed before its Session is.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Set when the context could not be made current; no GL call may be made then.
  const std::optional<std::string>& failure() const { return failure_; }
  // The cached probe (computed now if this is the first session since the provider changed).
  // Only valid when failure() is empty.
  const Probe& probe();
  // Re-reads the free memory figure into the cached facts (it changes as other programs run).
  void refresh_free_memory();

 private:
  std::unique_lock<std::mutex> lock_;
  std::optional<std::string> failure_;
  bool acquired_ = false;
  bool provided_ = false;  // acquired through the provider, not EGL
};

}  // namespace ws::kernels::gl
