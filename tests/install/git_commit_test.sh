#!/usr/bin/env bash
# cmake/git_commit.cmake, the commit --version and bench --json name: the short hash of a clean
# checkout, "-dirty" after a tracked file changes, "unknown" outside git, and never the commit of
# a repository that merely contains the source folder (a tarball unpacked inside one).
#   git_commit_test.sh SOURCE_DIR
set -euo pipefail
script="$1/cmake/git_commit.cmake"
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
commit_of() { cmake -DSOURCE_DIR="$1" -DOUT="$tmp/out.hpp" -P "$script" && sed -nE 's/^#define WARPSCOPE_GIT_COMMIT "(.*)"$/\1/p' "$tmp/out.hpp"; }

mkdir -p "$tmp/plain" "$tmp/repo/unpacked"
[ "$(commit_of "$tmp/plain")" = unknown ] || fail "outside git: $(commit_of "$tmp/plain")"

git -C "$tmp/repo" init -q
echo one >"$tmp/repo/file"
git -C "$tmp/repo" add file
git -C "$tmp/repo" -c user.email=test@localhost -c user.name=test commit -q -m one
head="$(git -C "$tmp/repo" rev-parse --short=12 HEAD)"
[ "$(commit_of "$tmp/repo")" = "$head" ] || fail "clean checkout: $(commit_of "$tmp/repo"), expected $head"
echo untracked >"$tmp/repo/new"
[ "$(commit_of "$tmp/repo")" = "$head" ] || fail "an untracked file made it dirty"
echo two >"$tmp/repo/file"
[ "$(commit_of "$tmp/repo")" = "$head-dirty" ] || fail "changed file: $(commit_of "$tmp/repo"), expected $head-dirty"
[ "$(commit_of "$tmp/repo/unpacked")" = unknown ] || fail "a folder inside another repository took its commit"
echo "git_commit.cmake: $head, $head-dirty, unknown"
