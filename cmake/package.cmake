# The Debian package (scripts/package runs cpack on the release build; no second build). Its
# Depends come from dpkg-shlibdeps on the installed binary, so they follow whatever it really links.
# CUDA is never a dependency: cudart is linked statically and the driver is loaded on demand, so a
# binary that still names a CUDA shared library is refused by scripts/package before cpack runs.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME warpscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Debian requires a Maintainer; whoever builds a package for others names themselves here.
set(WARPSCOPE_PACKAGE_CONTACT "warpscope developers <warpscope@localhost>" CACHE STRING "Maintainer field of the .deb")
set(CPACK_PACKAGE_CONTACT "${WARPSCOPE_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "why AI runs on GPUs: real matrix multiplies beside a simulated GPU")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "warpscope runs a real matrix multiply on this computer's CPU cores and GPU (CUDA\non NVIDIA where the driver is installed, OpenGL compute on any GPU), times and\nverifies every run, and animates a simulated GPU beside it, every SM, warp and\nlane, for lectures. Lessons in English and Korean.")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Files the binary opens by name rather than links: the window's fonts (fontconfig finds DejaVu
# for Latin text, Nanum for Korean lessons) and Mesa's EGL/GL drivers for the GL kernels.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-nanum, libegl1, libegl-mesa0, libgl1-mesa-dri")
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
