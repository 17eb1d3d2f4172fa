# Turns every shader in SHADER_DIR into a string constant in OUT, so the binary runs from anywhere
# without finding its shaders on disk.
file(GLOB shaders "${SHADER_DIR}/*.vert" "${SHADER_DIR}/*.frag")
list(SORT shaders)
set(text "// Generated from shaders/ by cmake/embed_shaders.cmake. Do not edit.\n#pragma once\n\nnamespace ws::shaders {\n")
foreach(path ${shaders})
  get_filename_component(name "${path}" NAME)
  string(MAKE_C_IDENTIFIER "${name}" id)
  file(READ "${path}" body)
  string(APPEND text "inline constexpr const char* ${id} = R\"WSGLSL(${body})WSGLSL\";\n")
endforeach()
string(APPEND text "}  // namespace ws::shaders\n")
file(WRITE "${OUT}.tmp" "${text}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
