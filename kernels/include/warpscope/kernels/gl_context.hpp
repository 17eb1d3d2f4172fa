// Who supplies the OpenGL context the GL compute kernels run in. Headless callers (bench, tests)
// leave it alone and get a display-less EGL context; the window hands over a context shared with
// its own, so a long dispatch runs beside rendering and on the same GPU that draws the window.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace ws::kernels {

struct GlContextProvider {
  // Makes a GL 4.3+ context current on the calling thread (any thread); false when it cannot.
  std::function<bool()> acquire;
  // Undoes acquire on the same thread, restoring whatever context was current before it.
  std::function<void()> release;
  std::string description;  // shown in `detail`, e.g. "window context (GLX, shared)"
};

// nullopt returns to the headless EGL context. Resets the cached availability and device facts.
// Call before the first GL job, and again with nullopt before the provider's context is destroyed.
void set_gl_context_provider(std::optional<GlContextProvider> provider);

}  // namespace ws::kernels
