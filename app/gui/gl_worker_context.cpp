#include "gui/gl_worker_context.hpp"

#include <GLFW/glfw3.h>

#include "warpscope/kernels/gl_context.hpp"

namespace ws::app {

namespace {

// What was current on this thread before acquire, restored by release.
GLFWwindow*& thread_local_previous() {
  thread_local GLFWwindow* previous = nullptr;
  return previous;
}

GLFWwindow* create_hidden_context(GLFWwindow* share_with) {
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* hidden = glfwCreateWindow(16, 16, "warpscope GL worker", nullptr, share_with);
  glfwDefaultWindowHints();
  return hidden;
}

}  // namespace

GlWorkerContext::GlWorkerContext(GLFWwindow* share_with) {
  // glfwCreateWindow leaves the calling thread's current context alone, but be explicit: the
  // window's context must stay current on the UI thread.
  GLFWwindow* previous = glfwGetCurrentContext();
  hidden_ = create_hidden_context(share_with);
  description_ = "a context shared with the window";
  if (hidden_ == nullptr) {
    // Some drivers refuse to share a 4.3 context with the window's 3.3 one; the kernels copy
    // their results back to the host, so an unshared context on the same display serves too.
    hidden_ = create_hidden_context(nullptr);
    description_ = "a hidden window's context";
  }
  glfwMakeContextCurrent(previous);
  if (hidden_ == nullptr) return;
  GLFWwindow* hidden = hidden_;
  kernels::GlContextProvider provider;
  provider.acquire = [hidden] {
    // Each thread restores what it had: the UI thread probes with its own context current.
    thread_local_previous() = glfwGetCurrentContext();
    glfwMakeContextCurrent(hidden);
    return glfwGetCurrentContext() == hidden;
  };
  provider.release = [] { glfwMakeContextCurrent(thread_local_previous()); };
  provider.description = description_;
  kernels::set_gl_context_provider(std::move(provider));
}

GlWorkerContext::~GlWorkerContext() {
  if (hidden_ == nullptr) return;
  kernels::set_gl_context_provider(std::nullopt);
  glfwDestroyWindow(hidden_);
}

}  // namespace ws::app
