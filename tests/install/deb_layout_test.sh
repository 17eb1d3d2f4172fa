#!/usr/bin/env bash
# The .deb from scripts/package, unpacked with dpkg -x into a throwaway root (never installed on
# this system): the XDG layout, Depends computed and free of CUDA, the desktop files valid, and
# the unpacked binary finding its data in that root. scripts/test runs it after scripts/package.
#   deb_layout_test.sh PACKAGE.deb
set -euo pipefail
deb="$1"
fail() { echo "FAIL: $*" >&2; exit 1; }
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT

depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
grep -qiE 'cuda|cublas|nvidia' <<<"$depends" && fail "the package depends on CUDA: $depends"
# Computed by dpkg-shlibdeps: versioned libraries the binary links, beside the fixed fonts entry.
for lib in libc6 libstdc\\+\\+6 libglfw3 libopenblas0 libfmt9 fonts-dejavu-core; do
  grep -qE "(^|, )$lib( |,|$)" <<<"$depends" || fail "Depends lacks $lib: $depends"
done

dpkg -x "$deb" "$root"
outside="$(cd "$root" && find . -mindepth 1 -maxdepth 1 ! -name usr)"
[ -z "$outside" ] || fail "files outside /usr: $outside"
for f in usr/bin/warpscope \
         usr/share/warpscope/lessons/gpu-story.en.toml usr/share/warpscope/lessons/gpu-story.ko.toml \
         usr/share/warpscope/presets/gpus/h100.toml usr/share/warpscope/presets/cpus/epyc-64.toml \
         usr/share/warpscope/measured \
         usr/share/applications/warpscope.desktop usr/share/metainfo/io.github.warpscope.metainfo.xml \
         usr/share/icons/hicolor/scalable/apps/warpscope.svg usr/share/icons/hicolor/48x48/apps/warpscope.png \
         usr/share/icons/hicolor/128x128/apps/warpscope.png usr/share/icons/hicolor/256x256/apps/warpscope.png \
         usr/share/man/man1/warpscope.1.gz usr/share/doc/warpscope/README.md; do
  [ -e "$root/$f" ] || fail "the package lacks /$f"
done
[ -x "$root/usr/bin/warpscope" ] || fail "/usr/bin/warpscope is not executable"
gzip -t "$root/usr/share/man/man1/warpscope.1.gz" || fail "the man page is not valid gzip"
zcat "$root/usr/share/man/man1/warpscope.1.gz" | grep -q '^\.TH WARPSCOPE 1' || fail "the man page has no .TH header"
zcat "$root/usr/share/man/man1/warpscope.1.gz" | grep -q '@PROJECT_VERSION@' && fail "the man page was not configured"
readelf -d "$root/usr/bin/warpscope" | grep -qE 'NEEDED.*\[lib(cuda|cudart|cublas|nv)' && fail "the binary links CUDA"

desktop-file-validate "$root/usr/share/applications/warpscope.desktop" || fail "desktop entry"
appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.warpscope.metainfo.xml" || fail "metainfo"

# The unpacked binary, run where dpkg -x put it, reads the data beside it.
version="$("$root/usr/bin/warpscope" --version)"
echo "$version"
[ "$(sed -n 2p <<<"$version")" = "assets: $root/usr/share/warpscope (installed beside the binary)" ] \
  || fail "the unpacked binary reads its data elsewhere"
gpus="$(HOME="$root" "$root/usr/bin/warpscope" presets --json | jq '.gpus | length')"
[ "$gpus" -eq "$(ls "$root"/usr/share/warpscope/presets/gpus/*.toml | wc -l)" ] || fail "presets lists $gpus GPUs"
echo "$(basename "$deb"): layout, Depends and desktop files are right ($(du -k "$deb" | cut -f1) KiB)"
