// The global GL lock, the context provider and the cached probe. The UI asks for
// unavailable_reason() every frame, so a cached answer is returned under a small lock of its own
// and never waits for a job that holds the GL lock for seconds.

#include "gl/context.hpp"

#include <epoxy/gl.h>

#include <algorithm>
#include <cctype>
#include <exception>

#include "gl/egl_context.hpp"
#include "warpscope/kernels/gl_context.hpp"

namespace ws::kernels::gl {

namespace {

// Lock order: gl_mutex, then cache_mutex; cache_mutex is never held while taking gl_mutex.
std::mutex gl_mutex;
std::optional<GlContextProvider> provider;  // guarded by gl_mutex

std::mutex cache_mutex;
std::optional<Probe> cache;  // guarded by cache_mutex

// Created on first use and never destroyed: tearing down EGL and the driver's threads from a
// static destructor at exit races with other atexit work in the driver, and gains nothing.
EglContext& egl() {
  static EglContext* context = new EglContext;
  return *context;
}

std::optional<Probe> cached() {
  std::lock_guard<std::mutex> guard(cache_mutex);
  return cache;
}

bool software_name(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char ch) { return std::tolower(ch); });
  for (const char* name : {"llvmpipe", "softpipe", "swiftshader", "lavapipe", "software"})
    if (text.find(name) != std::string::npos) return true;
  return false;
}

std::string gl_string(GLenum name) {
  const auto* text = reinterpret_cast<const char*>(glGetString(name));
  return text ? text : "";
}

std::optional<std::uint64_t> free_memory_now() {
  // Both report KiB. Read after the version check, so these calls exist.
  if (epoxy_has_gl_extension("GL_NVX_gpu_memory_info")) {
    GLint kib = 0;
    glGetIntegerv(GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX, &kib);
    if (glGetError() == GL_NO_ERROR && kib > 0) return static_cast<std::uint64_t>(kib) * 1024;
  }
  if (epoxy_has_gl_extension("GL_ATI_meminfo")) {
    GLint values[4] = {0, 0, 0, 0};  // free, largest free block, auxiliary free, largest auxiliary
    glGetIntegerv(GL_VBO_FREE_MEMORY_ATI, values);
    if (glGetError() == GL_NO_ERROR && values[0] > 0) return static_cast<std::uint64_t>(values[0]) * 1024;
  }
  return std::nullopt;
}

// Reads the facts of the context current on this thread.
Probe probe_current(const std::string& how) {
  Probe p;
  // Clear errors the context may carry from earlier use (a provider's context is the app's).
  for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
  }
  DeviceFacts f;
  f.renderer = gl_string(GL_RENDERER);
  f.vendor = gl_string(GL_VENDOR);
  f.version = gl_string(GL_VERSION);
  f.context = how;
  if (f.version.empty()) {
    p.reason = "the GL context answers no GL_VERSION (" + how + ")";
    return p;
  }
  if (!epoxy_is_desktop_gl()) {
    p.reason = f.version + " is OpenGL ES; the compute kernels need desktop OpenGL 4.3";
    return p;
  }
  const int version = epoxy_gl_version();  // 45 for 4.5
  if (version < 43) {
    p.reason = "OpenGL " + std::to_string(version / 10) + "." + std::to_string(version % 10) +
               " has no compute shaders (needs 4.3)";
    return p;
  }
  GLint64 block = 0;
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
  if (const GLenum e = glGetError(); e != GL_NO_ERROR || block <= 0) {
    p.reason = "GL_MAX_SHADER_STORAGE_BLOCK_SIZE cannot be read on " + f.renderer;
    return p;
  }
  f.max_storage_block_bytes = static_cast<std::uint64_t>(block);
  f.software = software_name(f.renderer);
  f.free_memory_bytes = free_memory_now();
  p.facts = std::move(f);
  return p;
}

}  // namespace

Session::Session() : lock_(gl_mutex) {
  if (provider) {
    provided_ = true;
    bool ok = false;
    try {
      ok = provider->acquire && provider->acquire();
    } catch (const std::exception& e) {
      failure_ = "the GL context provider threw: " + std::string(e.what());
      return;
    } catch (...) {
      failure_ = std::string("the GL context provider threw");
      return;
    }
    if (!ok) {
      failure_ = "the GL context provider could not make its context current (" +
                 (provider->description.empty() ? std::string("no description") : provider->description) + ")";
      return;
    }
  } else if (auto why = egl().acquire()) {
    failure_ = std::move(why);
    return;
  }
  acquired_ = true;
}

Session::~Session() {
  if (!acquired_) return;
  if (provided_) {
    if (provider && provider->release) {
      try {
        provider->release();
      } catch (...) {  // a destructor must not throw; the context stays the provider's problem
      }
    }
  } else {
    egl().release();
  }
}

const Probe& Session::probe() {
  {
    std::lock_guard<std::mutex> guard(cache_mutex);
    if (cache) return *cache;
  }
  const std::string how = provided_ ? (provider->description.empty() ? std::string("window (shared)") : provider->description)
                                    : egl().description();
  Probe p = probe_current(how);
  std::lock_guard<std::mutex> guard(cache_mutex);
  cache = std::move(p);
  // Only this session (holding gl_mutex) or set_gl_context_provider (also under gl_mutex) can
  // replace the cache, so the reference stays valid for the session's lifetime.
  return *cache;
}

void Session::refresh_free_memory() {
  const auto now = free_memory_now();
  std::lock_guard<std::mutex> guard(cache_mutex);
  if (cache && cache->facts) cache->facts->free_memory_bytes = now;
}

namespace {

Probe probe() {
  if (auto hit = cached()) return *hit;
  Session session;
  if (session.failure()) {
    Probe p;
    p.reason = session.failure();
    std::lock_guard<std::mutex> guard(cache_mutex);
    cache = p;
    return p;
  }
  return session.probe();
}

}  // namespace

std::optional<std::string> unavailable_reason() { return probe().reason; }

std::optional<DeviceFacts> device_facts() { return probe().facts; }

}  // namespace ws::kernels::gl

namespace ws::kernels {

void set_gl_context_provider(std::optional<GlContextProvider> p) {
  std::lock_guard<std::mutex> lock(gl::gl_mutex);
  gl::provider = std::move(p);
  std::lock_guard<std::mutex> guard(gl::cache_mutex);
  gl::cache.reset();
}

}  // namespace ws::kernels
