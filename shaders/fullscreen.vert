#version 330 core
// One quad over the target rectangle; the fragment shader decides everything per pixel.
const vec2 corners[4] = vec2[](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0), vec2(1.0, 1.0));
uniform vec4 u_rect;         // x, y, width, height in framebuffer pixels, y down
uniform vec2 u_framebuffer;  // framebuffer size in pixels
out vec2 v_pixel;            // pixel inside the rectangle, y down like ImGui
void main() {
  vec2 c = corners[gl_VertexID];
  v_pixel = c * u_rect.zw;
  vec2 p = u_rect.xy + v_pixel;
  gl_Position = vec4(p.x / u_framebuffer.x * 2.0 - 1.0, 1.0 - p.y / u_framebuffer.y * 2.0, 0.0, 1.0);
}
