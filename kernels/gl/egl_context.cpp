// A desktop OpenGL 4.3+ core context without any window system: EGL_EXT_platform_device (how
// NVIDIA's driver works headless, and Mesa on a machine with a render node), then Mesa's
// surfaceless platform, then a software device. Every failure becomes a reason string; nothing
// here aborts or prints. libepoxy aborts when asked for an entry point nobody provides, so every
// extension function is called only after its extension was seen in the extension string.

#include "gl/egl_context.hpp"

#include <dlfcn.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <cstdio>
#include <string_view>
#include <vector>

namespace ws::kernels::gl {

namespace {

std::string egl_error_name(EGLint e) {
  switch (e) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%04X", static_cast<unsigned>(e));
      return hex;
    }
  }
}

std::string failed(const char* call) { return std::string(call) + " failed (" + egl_error_name(eglGetError()) + ")"; }

// Whole-token match: "EGL_KHR_create_context" must not match "EGL_KHR_create_context_no_error".
bool has_token(const char* list, std::string_view token) {
  if (list == nullptr) return false;
  std::string_view rest(list);
  while (!rest.empty()) {
    const auto space = rest.find(' ');
    if (rest.substr(0, space) == token) return true;
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  return false;
}

std::optional<std::string> libegl_missing() {
  // epoxy dlopens this same name and aborts when it is missing; find out first.
  void* lib = dlopen("libEGL.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = dlerror();
    return std::string("no EGL: libEGL.so.1 cannot be loaded (") + (why ? why : "unknown reason") + ")";
  }
  dlclose(lib);
  return std::nullopt;
}

struct Made {
  EGLContext context = EGL_NO_CONTEXT;
  std::optional<std::string> failure;
  bool too_old = false;  // a context exists, but its OpenGL predates compute shaders
};

// Initialises `display` and creates a 4.3 core context on it, made current with no surface.
// On failure the display is terminated again and the context is left uncurrent.
Made make_context(EGLDisplay display) {
  Made made;
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) {
    made.failure = failed("eglInitialize");
    return made;
  }
  auto give_up = [&](std::string why) {
    eglTerminate(display);
    made.failure = std::move(why);
    return made;
  };
  const char* extensions = eglQueryString(display, EGL_EXTENSIONS);
  const char* apis = eglQueryString(display, EGL_CLIENT_APIS);
  if (!has_token(apis, "OpenGL"))
    return give_up(std::string("no desktop OpenGL on this display (client APIs: ") + (apis ? apis : "none") + ")");
  if (!has_token(extensions, "EGL_KHR_surfaceless_context"))
    return give_up("no EGL_KHR_surfaceless_context, so no context without a surface");
  const bool egl15 = major > 1 || (major == 1 && minor >= 5);
  if (!egl15 && !has_token(extensions, "EGL_KHR_create_context"))
    return give_up("EGL " + std::to_string(major) + "." + std::to_string(minor) +
                   " without EGL_KHR_create_context cannot ask for a core profile");
  if (!eglBindAPI(EGL_OPENGL_API)) return give_up(failed("eglBindAPI(EGL_OPENGL_API)"));

  // A context without a config needs no surface type at all; otherwise ask for a pbuffer config,
  // which the device and surfaceless platforms both offer (they have no window configs).
  EGLConfig config = EGL_NO_CONFIG_KHR;
  if (!has_token(extensions, "EGL_KHR_no_config_context") && !has_token(extensions, "EGL_MESA_configless_context")) {
    const EGLint wanted[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
    EGLint count = 0;
    if (!eglChooseConfig(display, wanted, &config, 1, &count)) return give_up(failed("eglChooseConfig"));
    if (count < 1) return give_up("no EGL config renders desktop OpenGL");
  }

  const EGLint core43[] = {EGL_CONTEXT_MAJOR_VERSION_KHR, 4, EGL_CONTEXT_MINOR_VERSION_KHR, 3,
                           EGL_CONTEXT_OPENGL_PROFILE_MASK_KHR, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT_KHR, EGL_NONE};
  made.context = eglCreateContext(display, config, EGL_NO_CONTEXT, core43);
  if (made.context == EGL_NO_CONTEXT) {
    std::string why = failed("eglCreateContext(OpenGL 4.3 core)");
    // Ask for whatever the driver has, only to name its version in the reason.
    const EGLint any[] = {EGL_NONE};
    EGLContext fallback = eglCreateContext(display, config, EGL_NO_CONTEXT, any);
    if (fallback != EGL_NO_CONTEXT) {
      if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, fallback)) {
        const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
        if (version != nullptr) {
          // "3.3 (Compatibility Profile) Mesa 22.3.6": the leading number is the version.
          const std::string text(version);
          why = "OpenGL " + text.substr(0, text.find(' ')) + " has no compute shaders (needs 4.3)";
          made.too_old = true;
        }
        eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      }
      eglDestroyContext(display, fallback);
    }
    made.context = EGL_NO_CONTEXT;
    return give_up(why);  // keeps too_old
  }
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, made.context)) {
    std::string why = failed("eglMakeCurrent(no surface)");
    eglDestroyContext(display, made.context);
    made.context = EGL_NO_CONTEXT;
    return give_up(why);
  }
  return made;
}

}  // namespace

std::optional<std::string> EglContext::create() {
  // Client extensions (queried on no display) say which display-less platforms exist.
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (client == nullptr)
    return "no EGL display: this EGL has no client extensions (EGL_EXT_client_extensions), so it cannot open a "
           "display without a window system";
  if (!has_token(client, "EGL_EXT_platform_base"))
    return std::string("no EGL display: no EGL_EXT_platform_base, so no display-less platform");

  std::vector<std::string> tried;
  std::optional<std::string> too_old;  // what to say when displays exist but their GL is too old
  auto try_display = [&](EGLDisplay display, const std::string& how) {
    if (display == EGL_NO_DISPLAY) {
      tried.push_back(how + ": " + failed("eglGetPlatformDisplayEXT"));
      return false;
    }
    Made made = make_context(display);
    if (made.failure) {
      tried.push_back(how + ": " + *made.failure);
      if (made.too_old && !too_old) too_old = *made.failure + " (" + how + ")";
      return false;
    }
    display_ = display;
    context_ = made.context;
    description_ = how;
    return true;
  };

  // Hardware devices first: Mesa marks its software rasteriser with EGL_MESA_device_software.
  std::vector<EGLDeviceEXT> hardware, software;
  const bool devices = has_token(client, "EGL_EXT_platform_device") &&
                       (has_token(client, "EGL_EXT_device_enumeration") || has_token(client, "EGL_EXT_device_base"));
  if (devices) {
    EGLint count = 0;
    if (!eglQueryDevicesEXT(0, nullptr, &count)) {
      tried.push_back(failed("eglQueryDevicesEXT"));
    } else if (count > 0) {
      std::vector<EGLDeviceEXT> all(static_cast<std::size_t>(count));
      if (!eglQueryDevicesEXT(count, all.data(), &count)) {
        tried.push_back(failed("eglQueryDevicesEXT"));
        count = 0;
      }
      all.resize(static_cast<std::size_t>(count));
      for (EGLDeviceEXT device : all)
        (has_token(eglQueryDeviceStringEXT(device, EGL_EXTENSIONS), "EGL_MESA_device_software") ? software : hardware)
            .push_back(device);
    }
    if (hardware.empty()) tried.push_back("EGL_EXT_platform_device: no hardware device");
  } else {
    tried.push_back("no EGL_EXT_platform_device");
  }
  for (EGLDeviceEXT device : hardware) {
    std::string how = "EGL device";
    if (has_token(eglQueryDeviceStringEXT(device, EGL_EXTENSIONS), "EGL_EXT_device_drm"))
      if (const char* file = eglQueryDeviceStringEXT(device, EGL_DRM_DEVICE_FILE_EXT)) how += std::string(" ") + file;
    if (try_display(eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device, nullptr), how)) return std::nullopt;
  }
  if (has_token(client, "EGL_MESA_platform_surfaceless")) {
    if (try_display(eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr),
                    "EGL surfaceless (Mesa)"))
      return std::nullopt;
  } else {
    tried.push_back("no EGL_MESA_platform_surfaceless");
  }
  for (EGLDeviceEXT device : software)
    if (try_display(eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device, nullptr), "EGL device (software)"))
      return std::nullopt;

  if (too_old) return too_old;
  std::string why = "no EGL display:";
  for (std::size_t i = 0; i < tried.size(); ++i) why += (i ? "; " : " ") + tried[i];
  return why;
}

std::optional<std::string> EglContext::acquire() {
  if (tried_ && failure_) return failure_;
  if (!tried_) {
    if (auto missing = libegl_missing()) {
      tried_ = true;
      failure_ = std::move(missing);
      return failure_;
    }
  }
  // eglBindAPI and the current context are per-thread state; keep the caller's to put back.
  saved_api_ = eglQueryAPI();
  saved_display_ = eglGetCurrentDisplay();
  saved_context_ = eglGetCurrentContext();
  saved_draw_ = eglGetCurrentSurface(EGL_DRAW);
  saved_read_ = eglGetCurrentSurface(EGL_READ);
  if (!tried_) {
    tried_ = true;
    // create() leaves the new context current on success.
    failure_ = create();
    if (failure_) release();
    return failure_;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) return failed("eglBindAPI(EGL_OPENGL_API)");
  if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_)) {
    std::string why = failed("eglMakeCurrent");
    release();
    return why;
  }
  return std::nullopt;
}

void EglContext::release() {
  if (saved_context_ != EGL_NO_CONTEXT && saved_context_ != context_) {
    eglBindAPI(saved_api_);
    eglMakeCurrent(saved_display_, saved_draw_, saved_read_, saved_context_);
    return;
  }
  if (display_ != nullptr) eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (saved_api_ != 0) eglBindAPI(saved_api_);
}

}  // namespace ws::kernels::gl
