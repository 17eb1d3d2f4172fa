#!/usr/bin/env bash
# An installed warpscope runs with the checkout gone (issue 16). Installs the build into a temporary
# root with DESTDIR, moves the installed tree elsewhere (the binary must follow it, not a compiled-in
# path), hides the source and build trees behind empty mounts in a private mount namespace, and runs
# the installed copy there.
#   installed_copy_test.sh cli SOURCE_DIR BUILD_DIR VERSION   presets, lesson list, bench, --version
#   installed_copy_test.sh gui SOURCE_DIR BUILD_DIR VERSION   a --screenshot (needs a display: xvfb-run)
set -euo pipefail
mode="$1" src="$2" build="$3" version="$4"

fail() { echo "FAIL: $*" >&2; exit 1; }

if [ -z "${WARPSCOPE_INSTALL_TEST_HIDDEN:-}" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  DESTDIR="$tmp/root" cmake --install "$build" --prefix /usr >"$tmp/install.log" 2>&1 \
    || { cat "$tmp/install.log" >&2; fail "cmake --install"; }
  mv "$tmp/root/usr" "$tmp/moved"

  # What --version must name, read now, while the source tree is still visible.
  expected_commit=unknown
  if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
    expected_commit="$(git -C "$src" rev-parse --short=12 HEAD)"
  fi
  export WARPSCOPE_EXPECTED_COMMIT="$expected_commit" WARPSCOPE_INSTALL_TEST_ROOT="$tmp"
  mkdir -p "$tmp/empty"
  # A user and mount namespace needs no root; where the kernel refuses one, the test still checks
  # that every file the binary read came from the moved tree (the assets line of --version).
  if unshare -rm true 2>/dev/null; then
    WARPSCOPE_INSTALL_TEST_HIDDEN=1 unshare -rm "$0" "$@"
  else
    echo "note: no mount namespace here (unshare -rm refused); the source tree stays visible" >&2
    WARPSCOPE_INSTALL_TEST_HIDDEN=0 "$0" "$@"
  fi
  exit  # with the status of the run above; the trap removes $tmp
fi

tmp="$WARPSCOPE_INSTALL_TEST_ROOT"
if [ "${WARPSCOPE_INSTALL_TEST_HIDDEN}" = 1 ]; then
  mount --bind "$tmp/empty" "$src"
  case "$build" in "$src"/*) ;; *) mount --bind "$tmp/empty" "$build" ;; esac
  [ -e "$src/assets" ] && fail "the source tree is still visible at $src"
  [ -e "$build/CMakeCache.txt" ] && fail "the build tree is still visible at $build"
fi

bin="$tmp/moved/bin/warpscope"
share="$tmp/moved/share/warpscope"
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config"
mkdir -p "$HOME"
unset WARPSCOPE_ASSETS WARPSCOPE_CONFIG_DIR

# Like the bench JSON, a JSON-reading check uses jq (a test package in scripts/setup.sh).
json() { jq -r "$1"; }

if [ "$mode" = cli ]; then
  out="$("$bin" --version)"
  echo "$out"
  first="$(sed -n 1p <<<"$out")"
  [[ "$first" =~ ^warpscope\ $version\ \(git\ $WARPSCOPE_EXPECTED_COMMIT(-dirty)?\)$ ]] \
    || fail "--version says '$first', expected version $version and commit $WARPSCOPE_EXPECTED_COMMIT"
  [ "$(sed -n 2p <<<"$out")" = "assets: $share (installed beside the binary)" ] \
    || fail "the installed copy reads its data from elsewhere: $(sed -n 2p <<<"$out")"

  presets="$("$bin" presets --json)"
  want_gpus="$(cd "$share/presets/gpus" && ls *.toml | sed 's/\.toml$//' | sort | tr '\n' ' ')"
  got_gpus="$(json '.gpus[].id' <<<"$presets" | sort | tr '\n' ' ')"
  [ -n "$want_gpus" ] || fail "no GPU presets were installed"
  [ "$got_gpus" = "$want_gpus" ] || fail "presets lists GPUs '$got_gpus', the installed files are '$want_gpus'"
  "$bin" presets | grep -q "H100" || fail "the presets table does not name the H100"

  lessons="$("$bin" lesson list)"
  echo "$lessons"
  for f in "$share"/lessons/*.toml; do
    grep -qF "$f" <<<"$lessons" || fail "lesson list does not show the installed $f"
  done
  [ "$(grep -c '\.toml' <<<"$lessons")" -eq "$(ls "$share"/lessons/*.toml | wc -l)" ] \
    || fail "lesson list shows lessons that were not installed"
  "$bin" lesson check "$share"/lessons/*.toml >/dev/null || fail "the installed lessons do not pass lesson check"

  bench="$("$bin" bench --size 64 --json)" || fail "bench --size 64 exited with status $?"
  [ "$(json '[.results[] | select(.skipped == null)] | length' <<<"$bench")" -ge 1 ] || fail "bench ran no kernel"
  [ "$(json '[.results[] | select(.skipped == null and .verified != true)] | length' <<<"$bench")" -eq 0 ] \
    || fail "a kernel of the installed copy computed a wrong result"
  [ "$(json .git_commit <<<"$bench")" = "$(sed -E 's/.*\(git (.*)\)$/\1/' <<<"$first")" ] \
    || fail "bench --json and --version name different commits"
  [ "$(json .warpscope_version <<<"$bench")" = "$version" ] || fail "bench --json names another version"
else
  [ -n "${DISPLAY:-}" ] || fail "the screenshot needs a display: run ctest under xvfb-run"
  shot="$tmp/shot.png"
  lesson="$share/lessons/gpu-story.ko.toml"
  "$bin" --screenshot "$shot" --window 800x600 --no-run --frames 3 --print-state --preset h100 --lesson "$lesson" \
    >"$tmp/state.json" 2>"$tmp/gui.log" || { cat "$tmp/gui.log" >&2; fail "the installed copy did not render"; }
  # The window's figures must come from the installed files: the lesson's step count and the
  # simulated H100's SM count are read from them here, independently.
  [ "$(json .lesson_steps <"$tmp/state.json")" = "$(grep -c '^\[\[step' "$lesson")" ] \
    || fail "the window shows $(json .lesson_steps <"$tmp/state.json") lesson steps, $lesson has $(grep -c '^\[\[step' "$lesson")"
  [ "$(json .sm_count <"$tmp/state.json")" = "$(sed -nE 's/^sm_count *= *([0-9]+).*/\1/p' "$share/presets/gpus/h100.toml")" ] \
    || fail "the window simulates $(json .sm_count <"$tmp/state.json") SMs, the installed h100.toml says otherwise"
  [ "$(json .missing_glyphs <"$tmp/state.json")" = 0 ] || fail "the Korean lesson has characters without a glyph"
  [ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$shot is not a PNG"
  # IHDR: width and height as big-endian 32-bit integers at bytes 16 and 20.
  size="$(od -An -tu1 -j16 -N8 "$shot" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')"
  [ "$size" = "800x600" ] || fail "the screenshot is $size, not 800x600"
fi
echo "installed copy ($mode) works from $tmp/moved with the source tree $( [ "$WARPSCOPE_INSTALL_TEST_HIDDEN" = 1 ] && echo hidden || echo visible)"
