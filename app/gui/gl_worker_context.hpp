// The OpenGL context the GL compute kernels run in while the window is open: a hidden window's
// context, shared with the visible one, that the job worker makes current on its own thread. A
// long dispatch then never stalls rendering, and the kernels run on the GPU that draws the window.
#pragma once

#include <string>

struct GLFWwindow;

namespace ws::app {

class GlWorkerContext {
 public:
  // Creates the hidden context and hands it to kernels/. When the driver cannot give a GL 4.3
  // context, nothing is handed over and the kernels fall back to their own display-less EGL context.
  explicit GlWorkerContext(GLFWwindow* share_with);
  // Takes the context back from kernels/ (waiting for a running GL job to leave it) and destroys it.
  ~GlWorkerContext();
  GlWorkerContext(const GlWorkerContext&) = delete;
  GlWorkerContext& operator=(const GlWorkerContext&) = delete;

  bool active() const { return hidden_ != nullptr; }
  const std::string& description() const { return description_; }

 private:
  GLFWwindow* hidden_ = nullptr;
  std::string description_;
};

}  // namespace ws::app
