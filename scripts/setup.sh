# Sourced by scripts/run and scripts/test: installs the Debian 12 packages warpscope needs (only
# those missing, so a second run is instant) and configures + builds one CMake preset.
set -euo pipefail

WARPSCOPE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Build tools and libraries; fonts-dejavu-core gives the window its Latin glyphs (× ³), fonts-nanum
# its Hangul for the Korean lesson; libegl-dev/libegl-mesa0 give the GL compute kernels a context
# without any display (bench, tests); xvfb/xauth/mesa run the window headless for tests.
WARPSCOPE_PACKAGES=(
  build-essential cmake pkg-config
  libglfw3-dev libimgui-dev libglm-dev libstb-dev libepoxy-dev libopenblas-dev
  libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libfmt-dev libfontconfig-dev libfreetype-dev
  libgtest-dev fonts-dejavu-core fonts-nanum libegl-dev libegl-mesa0
)
# desktop-file-utils and appstream validate the launcher entry and the AppStream metainfo;
# dpkg-dev's dpkg-shlibdeps computes the .deb's Depends (scripts/package).
WARPSCOPE_TEST_PACKAGES=(xvfb xauth libgl1-mesa-dri jq desktop-file-utils appstream dpkg-dev)

warpscope_install_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "warpscope: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "warpscope: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# warpscope_configure BUILD_DIR [cmake -D options...]: incremental, quiet unless it fails.
warpscope_configure() {
  local dir="$1"; shift
  mkdir -p "$dir"
  cmake -S "$WARPSCOPE_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >"$dir/configure.log" 2>&1 \
    || { cat "$dir/configure.log" >&2; echo "warpscope: configure failed" >&2; exit 1; }
  grep -E "^-- warpscope:" "$dir/configure.log" >&2 || true
}
