#include "gui/screenshot.hpp"

#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <epoxy/gl.h>
#include <stb/stb_image_write.h>

#include "core/file_write.hpp"

namespace ws::app {

namespace {

std::string write_pixels_png(const std::string& path, int width, int height) {
  std::vector<unsigned char> pixels(static_cast<std::size_t>(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // OpenGL's origin is bottom-left, PNG's top-left.
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  std::vector<unsigned char> flipped(pixels.size());
  for (int y = 0; y < height; ++y)
    std::memcpy(&flipped[y * row], &pixels[(height - 1 - y) * row], row);
  for (std::size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;  // opaque, whatever the alpha
  // Encoded in memory first: stb's own file writer ignores a failed fwrite, so a full disk left
  // a cut PNG and a "saved" message.
  struct Encoded {
    std::string png;
    bool out_of_memory = false;
  } encoded;
  // No exception may cross stb's C frames: a failed append is kept and said after.
  const auto append = [](void* out, void* data, int size) {
    auto& e = *static_cast<Encoded*>(out);
    try {
      e.png.append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    } catch (const std::bad_alloc&) {
      e.out_of_memory = true;
    }
  };
  const bool encoded_ok = stbi_write_png_to_func(append, &encoded, width, height, 4, flipped.data(), static_cast<int>(row));
  if (encoded.out_of_memory) throw std::bad_alloc();
  if (!encoded_ok) return "cannot encode the picture as PNG";
  std::string error;
  write_file_whole(path, encoded.png, &error);
  return error;
}

}  // namespace

std::string write_framebuffer_png(const std::string& path, int width, int height) {
  if (width <= 0 || height <= 0) return "the window has no pixels";
  try {
    return write_pixels_png(path, width, height);
  } catch (const std::bad_alloc&) {  // a failed picture is said; the window goes on
    return "not enough memory for a " + std::to_string(width) + "x" + std::to_string(height) + " picture";
  }
}

}  // namespace ws::app
