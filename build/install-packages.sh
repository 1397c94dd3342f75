#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-packages.sh LIST...          apt-get install what LIST... names
# install-packages.sh --missing LIST...  print the names that are not installed
# install-packages.sh --check LIST...    print "installed|missing|unknown NAME"
#                                        for each name (runs no apt-get update)
#
# A LIST holds one Debian package name per line; '#' starts a comment.
# Every failure says in one or two lines what failed and what to do.
set -uo pipefail

me=deps
# the make target that installs these lists (the Makefile says), for the
# message to a user who is not root
target=${FTA_DEPS_TARGET:-deps}

die() {
	local l
	for l in "$@"; do
		echo "$me: ERROR: $l" >&2
	done
	exit 1
}

# The package names of every LIST, once each, in order.
list_packages() {
	sed -e 's/#.*//' -e 's/[[:space:]]\+/\n/g' "$@" | awk 'NF && !seen[$1]++'
}

# Names among "$@" that dpkg does not have fully installed ("ii").
# dpkg-query exits 1 when any name is unknown to it: that is an answer
# here, not an error.
missing_packages() {
	[ $# -gt 0 ] || return 0
	local have
	have=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "$@" 2>/dev/null |
	       awk '$1 == "ii" { print $2 }')
	local p
	for p in "$@"; do
		grep -qxF -- "$p" <<<"$have" || echo "$p"
	done
}

# Does apt know a candidate version of package $1?
apt_has() {
	local cand
	cand=$(apt-cache policy -- "$1" 2>/dev/null | awk '/Candidate:/ { print $2 }')
	[ -n "$cand" ] && [ "$cand" != "(none)" ]
}

mode=install
case "${1:-}" in
--missing) mode=missing; shift ;;
--check) mode=check; shift ;;
-h|--help)
	sed -n '3,10s/^# \{0,1\}//p' "$0"
	exit 0 ;;
esac
[ $# -gt 0 ] || die "usage: $0 [--missing|--check] LIST..."

for f in "$@"; do
	[ -f "$f" ] && [ -r "$f" ] || die "cannot read package list $f"
done
mapfile -t pkgs < <(list_packages "$@")
mapfile -t missing < <(missing_packages "${pkgs[@]}")

case $mode in
missing)
	printf '%s\n' "${missing[@]}" | sed '/^$/d'
	exit 0 ;;
check)
	for p in "${pkgs[@]}"; do
		if ! grep -qxF -- "$p" <<< "$(printf '%s\n' "${missing[@]}")"; then
			echo "installed $p"
		elif apt_has "$p"; then
			echo "missing $p"
		else
			echo "unknown $p"
		fi
	done
	exit 0 ;;
esac

[ ${#missing[@]} -eq 0 ] && exit 0

echo "$me: ${#missing[@]} package(s) to install: ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
	die "installing packages needs root: run 'sudo make $target' once, then make again as yourself"
fi
command -v apt-get >/dev/null ||
	die "apt-get not found: this project needs Debian 12 (bookworm)"

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "$me: apt-get update"
if ! apt-get update --error-on=any -q >"$log" 2>&1; then
	grep -E '^(Err|E|W):|^  ' "$log" | head -n 6 | sed 's/^/    /' >&2
	die "apt-get update failed: the Debian package registry cannot be reached" \
	    "(check the network and /etc/apt/sources.list, then run make again)"
fi

unknown=()
for p in "${missing[@]}"; do
	apt_has "$p" || unknown+=("$p")
done
[ ${#unknown[@]} -eq 0 ] ||
	die "apt cannot find package(s): ${unknown[*]}" \
	    "(is this Debian 12 with the 'main' component in /etc/apt/sources.list?)"

echo "$me: apt-get install ${missing[*]}"
if ! apt-get install -y -q "${missing[@]}" >"$log" 2>&1; then
	grep -E '^(E|W):' "$log" | head -n 5 >&2
	if grep -q 'No space left' "$log"; then
		die "apt-get install failed: no space left on device (see df -h /var/cache/apt /usr)"
	fi
	die "apt-get install failed for: ${missing[*]} (the lines above say why)"
fi
mapfile -t still < <(missing_packages "${missing[@]}")
[ ${#still[@]} -eq 0 ] ||
	die "still not installed after apt-get install: ${still[*]}"
echo "$me: installed ${#missing[@]} package(s)"
