// Names for glGetError codes, so a failure reads "GL_OUT_OF_MEMORY in glBufferData(C)".
#pragma once

#include <epoxy/gl.h>

#include <cstdio>
#include <string>

namespace ws::kernels::gl {

inline std::string gl_error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
    case GL_CONTEXT_LOST: return "GL_CONTEXT_LOST";
    default: {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%04X", static_cast<unsigned>(e));
      return hex;
    }
  }
}

// The pending error after `step`, as "OpenGL error GL_X in step", or empty when there is none.
inline std::string gl_error_after(const char* step) {
  const GLenum e = glGetError();
  if (e == GL_NO_ERROR) return {};
  return "OpenGL error " + gl_error_name(e) + " in " + step;
}

// Errors left over from whoever used the context before (a provider's context is the app's),
// so they are not blamed on our first call. Bounded: a lost context may repeat its error.
inline void clear_gl_errors() {
  for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
  }
}

}  // namespace ws::kernels::gl
