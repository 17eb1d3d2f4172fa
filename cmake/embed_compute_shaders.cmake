# Turns every compute shader (*.comp) in SHADER_DIR into a string constant in OUT, so the kernels
# library runs from any working directory and an installed binary needs no shader files on disk.
# Kept apart from embed_shaders.cmake (the window's *.vert/*.frag) so the two targets rebuild
# only for their own shaders.
file(GLOB shaders "${SHADER_DIR}/*.comp")
list(SORT shaders)
set(text "// Generated from shaders/*.comp by cmake/embed_compute_shaders.cmake. Do not edit.\n#pragma once\n\nnamespace ws::kernels::gl::shaders {\n")
foreach(path ${shaders})
  get_filename_component(name "${path}" NAME)
  string(MAKE_C_IDENTIFIER "${name}" id)
  file(READ "${path}" body)
  string(FIND "${body}" ")WSCOMP\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${path} contains the raw-string delimiter )WSCOMP\"")
  endif()
  string(APPEND text "inline constexpr const char* ${id} = R\"WSCOMP(${body})WSCOMP\";\n")
endforeach()
string(APPEND text "}  // namespace ws::kernels::gl::shaders\n")
file(WRITE "${OUT}.tmp" "${text}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
