// Compute programs from the embedded GLSL. Defines are spliced in after the #version line (which
// must come first), followed by a #line so the driver's log still points at lines of the file.

#include "gl/program.hpp"

#include <vector>

#include "compute_shaders.hpp"
#include "gl/gl_error.hpp"

namespace ws::kernels::gl {

namespace {

struct Source {
  const char* file;
  const char* text;
};

Source source(Kernel kernel) {
  switch (kernel) {
    case Kernel::naive: return {"gemm_naive.comp", shaders::gemm_naive_comp};
    case Kernel::tiled: return {"gemm_tiled.comp", shaders::gemm_tiled_comp};
    case Kernel::regblock: break;
  }
  return {"gemm_regblock.comp", shaders::gemm_regblock_comp};
}

std::string shader_log(GLuint shader) {
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  if (length <= 1) return "(no log)";
  std::vector<char> log(static_cast<std::size_t>(length));
  glGetShaderInfoLog(shader, length, nullptr, log.data());
  return std::string(log.data());
}

std::string program_log(GLuint program) {
  GLint length = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &length);
  if (length <= 1) return "(no log)";
  std::vector<char> log(static_cast<std::size_t>(length));
  glGetProgramInfoLog(program, length, nullptr, log.data());
  return std::string(log.data());
}

}  // namespace

Geometry geometry(Kernel kernel) {
  switch (kernel) {
    case Kernel::naive: return {16, 16, 16, 16};
    case Kernel::tiled: return {32, 32, 32, 32};
    case Kernel::regblock: break;
  }
  return {64, 64, 16, 16};  // 4x4 cells of C per invocation
}

Program::~Program() {
  if (id_ != 0) glDeleteProgram(id_);
}

std::string Program::build(Kernel kernel, int n, int k) {
  const Source src = source(kernel);
  name_ = src.file;
  std::string defines;
  if (kernel == Kernel::regblock) {
    // vec4 access needs every row of the matrix to start on a 16-byte boundary.
    const bool vec4_a = k % 4 == 0, vec4_b = n % 4 == 0;
    if (vec4_a) defines += "#define WS_VEC4_A 1\n";
    if (vec4_b) defines += "#define WS_VEC4_B 1\n";
    name_ += vec4_a && vec4_b ? " (vec4 A and B)" : vec4_a ? " (vec4 A, scalar B)" : vec4_b ? " (scalar A, vec4 B)" : " (scalar)";
  }
  const std::string text = src.text;
  const auto eol = text.find('\n');
  if (eol == std::string::npos || text.compare(0, 8, "#version") != 0)
    return std::string(src.file) + " does not start with a #version line";
  const std::string head = text.substr(0, eol + 1) + defines + "#line 2\n";
  const std::string body = text.substr(eol + 1);
  const char* parts[] = {head.c_str(), body.c_str()};

  clear_gl_errors();
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  if (shader == 0) return "glCreateShader(GL_COMPUTE_SHADER) failed: " + gl_error_after("glCreateShader");
  glShaderSource(shader, 2, parts, nullptr);
  glCompileShader(shader);
  GLint compiled = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &compiled);
  if (std::string e = gl_error_after("compiling a compute shader"); !e.empty() || compiled != GL_TRUE) {
    const std::string log = shader_log(shader);
    glDeleteShader(shader);
    return "compiling " + name_ + " failed: " + (e.empty() ? log : e);
  }
  id_ = glCreateProgram();
  if (id_ == 0) {
    glDeleteShader(shader);
    return "glCreateProgram failed: " + gl_error_after("glCreateProgram");
  }
  glAttachShader(id_, shader);
  glLinkProgram(id_);
  // The program keeps the compiled code; the shader object is no longer needed.
  glDetachShader(id_, shader);
  glDeleteShader(shader);
  GLint linked = GL_FALSE;
  glGetProgramiv(id_, GL_LINK_STATUS, &linked);
  if (std::string e = gl_error_after("linking a compute program"); !e.empty() || linked != GL_TRUE)
    return "linking " + name_ + " failed: " + (e.empty() ? program_log(id_) : e);

  GLint size[3] = {0, 0, 0};
  glGetProgramiv(id_, GL_COMPUTE_WORK_GROUP_SIZE, size);
  if (std::string e = gl_error_after("glGetProgramiv(GL_COMPUTE_WORK_GROUP_SIZE)"); !e.empty()) return e;
  const Geometry g = geometry(kernel);
  if (size[0] != g.local_x || size[1] != g.local_y || size[2] != 1)
    return name_ + " declares a local size of " + std::to_string(size[0]) + "x" + std::to_string(size[1]) + "x" +
           std::to_string(size[2]) + ", the backend dispatches for " + std::to_string(g.local_x) + "x" +
           std::to_string(g.local_y) + "x1";
  return {};
}

}  // namespace ws::kernels::gl
