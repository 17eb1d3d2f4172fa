#include "gui/cell_grid_renderer.hpp"

#include <algorithm>
#include <vector>

#include <epoxy/gl.h>

#include "embedded_shaders.hpp"

namespace ws::app {

namespace {

constexpr int kStateTextureShift = 10;
constexpr int kStateTextureWidth = 1 << kStateTextureShift;

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

void CellGridRenderer::draw(ImVec2 size, const GridView& view, int highlight_block) {
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  if (!ready() || size.x <= 0 || size.y <= 0) return;
  rect_pos_ = pos;
  rect_size_ = size;
  view_ = view;
  highlight_block_ = highlight_block;
  ImDrawList* list = ImGui::GetWindowDrawList();
  // Under the grid, in its own background: a child window whose draw list holds only callbacks
  // is never rendered (ImGui drops lists without vertices), so the matrices vanished wherever their
  // labels were left out for room (1920x1080 with 2x text).
  list->AddRectFilled(pos, ImVec2(pos.x + size.x, pos.y + size.y),
                      ImGui::ColorConvertFloat4ToU32(background_));
  list->AddCallback(&CellGridRenderer::render_callback, this);
  list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void CellGridRenderer::render_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  auto* self = static_cast<CellGridRenderer*>(cmd->UserCallbackData);
  const ImDrawData* dd = ImGui::GetDrawData();
  const ImVec2 fb_scale = dd->FramebufferScale;
  const float fb_w = dd->DisplaySize.x * fb_scale.x, fb_h = dd->DisplaySize.y * fb_scale.y;
  const float x = (self->rect_pos_.x - dd->DisplayPos.x) * fb_scale.x;
  const float y = (self->rect_pos_.y - dd->DisplayPos.y) * fb_scale.y;
  const GLuint program = self->program_;
  glUseProgram(program);
  glDisable(GL_BLEND);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, self->state_tex_);
  auto loc = [&](const char* name) { return glGetUniformLocation(program, name); };
  const GridLayout& layout = self->layout_;
  const GridView& view = self->view_;
  glUniform1i(loc("u_states"), 0);
  glUniform1i(loc("u_state_shift"), kStateTextureShift);
  glUniform2i(loc("u_block_cells"), layout.cells_x, layout.cells_y);
  glUniform1i(loc("u_blocks"), layout.blocks);
  glUniform1i(loc("u_block_columns"), layout.block_columns);
  glUniform1f(loc("u_gap"), layout.gap);
  glUniform2f(loc("u_origin"), view.origin_x, view.origin_y);
  glUniform1f(loc("u_scale"), view.scale * fb_scale.x);
  glUniform4f(loc("u_rect"), x, y, self->rect_size_.x * fb_scale.x, self->rect_size_.y * fb_scale.y);
  glUniform2f(loc("u_framebuffer"), fb_w, fb_h);
  glUniform4fv(loc("u_palette"), 16, &self->palette_[0].x);
  const auto& bg = self->background_;
  const auto& border = self->border_;
  const auto& hl = self->highlight_;
  glUniform4f(loc("u_background"), bg.x, bg.y, bg.z, bg.w);
  glUniform4f(loc("u_border"), border.x, border.y, border.z, border.w);
  glUniform4f(loc("u_highlight"), hl.x, hl.y, hl.z, hl.w);
  glUniform1i(loc("u_highlight_block"), self->highlight_block_);
  glBindVertexArray(self->vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
}

}  // namespace ws::app
