#include "gui/cell_grid_renderer.hpp"

#include <algorithm>
#include <vector>

#include <epoxy/gl.h>

#include "embedded_shaders.hpp"

namespace ws::app {

namespace {

constexpr int kStateTextureWidth = 1024;

unsigned compile_shader(GLenum kind, const char* source, std::string& error) {
  const GLuint shader = glCreateShader(kind);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    error = std::string("shader compile failed: ") + log;
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

CellGridRenderer::~CellGridRenderer() {
  // The GL context may already be gone at exit; only delete what was made.
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (colour_tex_) glDeleteTextures(1, &colour_tex_);
  if (state_tex_) glDeleteTextures(1, &state_tex_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (program_) glDeleteProgram(program_);
}

bool CellGridRenderer::ready() {
  if (!tried_) {
    tried_ = true;
    compile();
  }
  return program_ != 0;
}

bool CellGridRenderer::compile() {
  const GLuint vs = compile_shader(GL_VERTEX_SHADER, shaders::fullscreen_vert, error_);
  if (!vs) return false;
  const GLuint fs = compile_shader(GL_FRAGMENT_SHADER, shaders::cell_grid_frag, error_);
  if (!fs) {
    glDeleteShader(vs);
    return false;
  }
  program_ = glCreateProgram();
  glAttachShader(program_, vs);
  glAttachShader(program_, fs);
  glLinkProgram(program_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(program_, sizeof log, nullptr, log);
    error_ = std::string("shader link failed: ") + log;
    glDeleteProgram(program_);
    program_ = 0;
    return false;
  }
  glGenVertexArrays(1, &vao_);  // core profile needs one bound, even with no attributes
  glGenTextures(1, &state_tex_);
  glBindTexture(GL_TEXTURE_2D, state_tex_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glGenFramebuffers(1, &fbo_);
  glGenTextures(1, &colour_tex_);
  return true;
}

void CellGridRenderer::set_palette(const std::array<ImVec4, 16>& palette, ImVec4 background, ImVec4 border,
                                   ImVec4 highlight) {
  palette_ = palette;
  background_ = background;
  border_ = border;
  highlight_ = highlight;
}

void CellGridRenderer::upload(std::span<const std::uint8_t> states, const GridLayout& layout) {
  if (!ready()) return;
  layout_ = layout;
  const int cells = static_cast<int>(states.size());
  const int rows = std::max(1, (cells + kStateTextureWidth - 1) / kStateTextureWidth);
  glBindTexture(GL_TEXTURE_2D, state_tex_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  if (tex_w_ != kStateTextureWidth || tex_h_ != rows) {
    tex_w_ = kStateTextureWidth;
    tex_h_ = rows;
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8UI, tex_w_, tex_h_, 0, GL_RED_INTEGER, GL_UNSIGNED_BYTE, nullptr);
  }
  const int full_rows = cells / kStateTextureWidth;
  if (full_rows > 0)
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kStateTextureWidth, full_rows, GL_RED_INTEGER, GL_UNSIGNED_BYTE,
                    states.data());
  const int tail = cells - full_rows * kStateTextureWidth;
  if (tail > 0)
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, full_rows, tail, 1, GL_RED_INTEGER, GL_UNSIGNED_BYTE,
                    states.data() + static_cast<std::size_t>(full_rows) * kStateTextureWidth);
}

ImTextureID CellGridRenderer::render(int width, int height, const GridView& view, int highlight_block) {
  if (!ready() || width <= 0 || height <= 0) return ImTextureID{};
  GLint previous_fbo = 0, previous_viewport[4] = {};
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous_fbo);
  glGetIntegerv(GL_VIEWPORT, previous_viewport);

  if (width != target_w_ || height != target_h_) {
    target_w_ = width;
    target_h_ = height;
    glBindTexture(GL_TEXTURE_2D, colour_tex_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour_tex_, 0);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width, height);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glUseProgram(program_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, state_tex_);
  auto loc = [&](const char* name) { return glGetUniformLocation(program_, name); };
  glUniform1i(loc("u_states"), 0);
  glUniform1i(loc("u_state_width"), kStateTextureWidth);
  glUniform2i(loc("u_block_cells"), layout_.cells_x, layout_.cells_y);
  glUniform1i(loc("u_blocks"), layout_.blocks);
  glUniform1i(loc("u_block_columns"), layout_.block_columns);
  glUniform1f(loc("u_gap"), layout_.gap);
  glUniform2f(loc("u_origin"), view.origin_x, view.origin_y);
  glUniform1f(loc("u_scale"), view.scale);
  glUniform2f(loc("u_target_size"), static_cast<float>(width), static_cast<float>(height));
  glUniform4fv(loc("u_palette"), 16, &palette_[0].x);
  glUniform4f(loc("u_background"), background_.x, background_.y, background_.z, background_.w);
  glUniform4f(loc("u_border"), border_.x, border_.y, border_.z, border_.w);
  glUniform4f(loc("u_highlight"), highlight_.x, highlight_.y, highlight_.z, highlight_.w);
  glUniform1i(loc("u_highlight_block"), highlight_block);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glUseProgram(0);

  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous_fbo));
  glViewport(previous_viewport[0], previous_viewport[1], previous_viewport[2], previous_viewport[3]);
  return reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(colour_tex_));
}

}  // namespace ws::app
