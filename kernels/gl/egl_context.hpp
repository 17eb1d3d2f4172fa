// The display-less EGL context the GL kernels run in when no window lends one: no X11, no
// Wayland, no DISPLAY. Internal to the GL backend; the caller serialises every use (one global
// lock in context.cpp), since one EGL context can be current on only one thread at a time.
#pragma once

#include <optional>
#include <string>

namespace ws::kernels::gl {

class EglContext {
 public:
  // Makes the context current on the calling thread, creating it on first use (and only then:
  // a failure is remembered and returned again without retrying). The thread's previous EGL
  // state (bound API, current context) is saved for release(). nullopt on success, else the
  // reason, e.g. "no EGL display: ...".
  std::optional<std::string> acquire();
  // Restores what was current on this thread before acquire().
  void release();
  // How the context was made, e.g. "EGL surfaceless (Mesa)"; empty until created.
  const std::string& description() const { return description_; }

 private:
  std::optional<std::string> create();

  bool tried_ = false;
  std::optional<std::string> failure_;
  void* display_ = nullptr;  // EGLDisplay, EGLContext: kept opaque so no EGL header leaks out
  void* context_ = nullptr;
  std::string description_;

  // The calling thread's state before acquire().
  unsigned saved_api_ = 0;
  void* saved_display_ = nullptr;
  void* saved_draw_ = nullptr;
  void* saved_read_ = nullptr;
  void* saved_context_ = nullptr;
};

}  // namespace ws::kernels::gl
