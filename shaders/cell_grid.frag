#version 330 core
// Draws a grid of blocks (SMs, or tiles of C) each holding rows x cols cells (warps x lanes, or
// cells of C) from one texel per cell: a single quad for the whole H100 chip, however many lanes.
in vec2 v_pixel;
out vec4 frag_colour;

uniform usampler2D u_states;  // one byte per cell, packed row-major into a 1024-wide texture
uniform int u_state_shift;    // log2 of the texels per texture row (a power of two: no integer division)
uniform ivec2 u_block_cells;  // cells per block: x = columns (lanes), y = rows (warps)
uniform int u_blocks;         // number of blocks (SMs)
uniform int u_block_columns;  // blocks per row of the layout
uniform float u_gap;          // gap between blocks, in cells
uniform vec2 u_origin;        // world position (in cells) shown at the rectangle's top-left
uniform float u_scale;        // pixels per cell
uniform vec4 u_palette[16];   // colour of each state value
uniform vec4 u_background;
uniform vec4 u_border;
uniform int u_highlight_block;   // -1: none
uniform vec4 u_highlight;

void main() {
  vec2 world = u_origin + v_pixel / u_scale;
  vec2 pitch = vec2(u_block_cells) + vec2(u_gap);
  vec2 block_pos = floor(world / pitch);
  vec2 in_block = world - block_pos * pitch;
  int block = int(block_pos.y) * u_block_columns + int(block_pos.x);
  if (world.x < 0.0 || world.y < 0.0 || block_pos.x >= float(u_block_columns) || block >= u_blocks ||
      in_block.x >= float(u_block_cells.x) || in_block.y >= float(u_block_cells.y)) {
    // Outline the block a lecturer pointed at, in the gap around it.
    bool near = u_highlight_block >= 0 && block == u_highlight_block && world.x >= 0.0 && world.y >= 0.0 && in_block.x < float(u_block_cells.x) + u_gap * 0.6 &&
                in_block.y < float(u_block_cells.y) + u_gap * 0.6;
    frag_colour = near ? u_highlight : u_background;
    return;
  }
  ivec2 cell = ivec2(in_block);
  int index = (block * u_block_cells.y + cell.y) * u_block_cells.x + cell.x;
  uint state = texelFetch(u_states, ivec2(index & ((1 << u_state_shift) - 1), index >> u_state_shift), 0).r;
  vec4 colour = u_palette[min(int(state), 15)];
  // Cell borders only once cells are big enough to be told apart.
  vec2 f = fract(in_block);
  float edge = 1.0 / u_scale;
  if (u_scale >= 5.0 && (f.x < edge || f.y < edge)) colour = mix(colour, u_border, 0.6);
  frag_colour = colour;
}
