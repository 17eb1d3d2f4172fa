# `cmake --install` to any prefix, and the layout the .deb carries (cmake/package.cmake):
#   bin/warpscope
#   share/warpscope/{lessons,presets,measured}      found from the binary as ../share/warpscope
#   share/applications/warpscope.desktop, share/metainfo/io.github.warpscope.metainfo.xml
#   share/icons/hicolor/{scalable,48x48,128x128,256x256}/apps/warpscope.{svg,png}
#   share/man/man1/warpscope.1.gz, share/doc/warpscope/README.md
# Shaders are compiled into the binary and fonts come from fontconfig: nothing else is read at
# run time.
include(GNUInstallDirs)

install(TARGETS warpscope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${WARPSCOPE_ASSETS_DIR}/lessons ${WARPSCOPE_ASSETS_DIR}/presets ${WARPSCOPE_ASSETS_DIR}/measured
        DESTINATION ${CMAKE_INSTALL_DATADIR}/warpscope)

set(_desktop ${PROJECT_SOURCE_DIR}/desktop)
install(FILES ${_desktop}/warpscope.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${_desktop}/io.github.warpscope.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${_desktop}/icons/warpscope.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size 48x48 128x128 256x256)
  install(FILES ${_desktop}/icons/${size}/warpscope.png DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}/apps)
endforeach()

# Debian wants man pages gzipped with no timestamp (-n), so the package is reproducible.
configure_file(${PROJECT_SOURCE_DIR}/docs/warpscope.1 ${PROJECT_BINARY_DIR}/man/warpscope.1 @ONLY)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/man/warpscope.1.gz
  COMMAND gzip -n -9 -f -k ${PROJECT_BINARY_DIR}/man/warpscope.1
  DEPENDS ${PROJECT_BINARY_DIR}/man/warpscope.1
  COMMENT "Compressing the man page")
add_custom_target(warpscope_man ALL DEPENDS ${PROJECT_BINARY_DIR}/man/warpscope.1.gz)
install(FILES ${PROJECT_BINARY_DIR}/man/warpscope.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
