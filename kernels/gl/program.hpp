// Compiling and linking one kernel's compute program from the shaders embedded at build time.
#pragma once

#include <epoxy/gl.h>

#include <string>

#include "gl/gl_backend.hpp"

namespace ws::kernels::gl {

// How a kernel's workgroups cover C: each covers rows x cols cells with local_x x local_y
// invocations. The shader's local size is checked against this after linking, so the dispatch
// arithmetic here and the layout() in the shader cannot drift apart silently.
struct Geometry {
  int rows = 0, cols = 0;
  int local_x = 0, local_y = 0;
};
Geometry geometry(Kernel kernel);

// Owns a program object; deleted while the context is still current (before the Session ends).
class Program {
 public:
  Program() = default;
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  GLuint id() const { return id_; }

  // Builds the kernel's program for an m x n x k product (gl-regblock picks its vec4 variant
  // from n and k). Returns an empty string on success, else the reason with the driver's log.
  std::string build(Kernel kernel, int n, int k);
  // The variant built, for detail text: "gemm_regblock.comp (vec4 A, vec4 B)".
  const std::string& name() const { return name_; }

 private:
  GLuint id_ = 0;
  std::string name_;
};

}  // namespace ws::kernels::gl
