#version 330 core
// One quad covering the target; the fragment shader decides everything per pixel.
const vec2 corners[4] = vec2[](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));
out vec2 v_pixel;
uniform vec2 u_target_size;
void main() {
  vec2 c = corners[gl_VertexID];
  // Pixel coordinates with y down, like ImGui, so the CPU side and the shader agree on layout.
  v_pixel = vec2((c.x * 0.5 + 0.5) * u_target_size.x, (0.5 - c.y * 0.5) * u_target_size.y);
  gl_Position = vec4(c, 0.0, 1.0);
}
