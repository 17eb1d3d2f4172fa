#!/usr/bin/env bash
# The launcher entry, the AppStream metainfo, the icons and the man page as shipped (issue 16):
# valid for Debian's own validators, at the project's version, and the man page names every
# option and subcommand that `warpscope --help` lists.
#   desktop_files_test.sh SOURCE_DIR VERSION WARPSCOPE_BINARY
set -euo pipefail
src="$1" version="$2" bin="$3"
fail() { echo "FAIL: $*" >&2; exit 1; }

for tool in desktop-file-validate appstreamcli; do
  command -v "$tool" >/dev/null || fail "$tool is missing: scripts/setup.sh lists its package for the tests"
done
desktop-file-validate "$src/desktop/warpscope.desktop" || fail "warpscope.desktop"
grep -q '^Name\[ko\]=' "$src/desktop/warpscope.desktop" || fail "warpscope.desktop has no Korean name"
grep -q '^Comment\[ko\]=' "$src/desktop/warpscope.desktop" || fail "warpscope.desktop has no Korean comment"
appstreamcli validate --no-net --pedantic "$src/desktop/io.github.warpscope.metainfo.xml" || fail "metainfo"
grep -q "<release version=\"$version\"" "$src/desktop/io.github.warpscope.metainfo.xml" \
  || fail "the metainfo has no <release> for version $version: add one when the version changes"

# A PNG's IHDR holds its width and height as big-endian 32-bit integers at bytes 16 and 20.
for size in 48 128 256; do
  png="$src/desktop/icons/${size}x${size}/warpscope.png"
  [ "$(od -An -tu1 -j16 -N8 "$png" | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')" \
    = "${size}x${size}" ] || fail "$png is not ${size}x${size}: run scripts/render-icons"
done

# Every long option and subcommand of the top level, as the binary itself lists them.
help="$("$bin" --help)"
names="$(grep -oE '^  --[a-z-]+' <<<"$help"; sed -n '/^Subcommands:/,$p' <<<"$help" | grep -oE '^  [a-z]+')"
[ "$(wc -l <<<"$names")" -ge 20 ] || fail "could not read the options from --help"
page="$(sed 's/\\-/-/g' "$src/docs/warpscope.1")"
for n in $names; do
  grep -qE "(^|[^a-z-])$n([^a-z-]|$)" <<<"$page" || fail "docs/warpscope.1 does not describe '$n'"
done
echo "desktop entry, metainfo, icons and man page are valid for version $version"
