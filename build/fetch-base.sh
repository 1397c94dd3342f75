#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-base.sh --install VERSION   install linux-source-6.12=VERSION (root)
# fetch-base.sh VERSION DEST        unpack it into DEST (once; no root)
#
# Debian's linux-source-6.12 at exactly VERSION.  There is no fallback to
# another version: if VERSION cannot be had, stop and say so.
set -euo pipefail

install_only=
if [ "${1:-}" = --install ]; then
	install_only=1
	shift
fi
version=$1
dest=${2:-}
pkg=linux-source-6.12
tarball=/usr/src/linux-source-6.12.tar.xz

[ -z "$install_only" ] && [ -f "$dest/.fta-unpacked" ] && exit 0

have=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
if [ "$have" != "$version" ]; then
	echo "fetch-base: $pkg=$version is needed (have: ${have:-none})"
	if [ "$(id -u)" != 0 ]; then
		echo "fetch-base: ERROR: installing it needs root: run 'sudo make deps' once, then make again" >&2
		exit 1
	fi
	if ! apt-cache madison "$pkg" 2>/dev/null | awk '{print $3}' | grep -xF "$version" >/dev/null; then
		if ! apt-get update --error-on=any -q >/dev/null 2>&1; then
			echo "fetch-base: ERROR: apt-get update failed: the Debian package registry cannot be reached" >&2
			echo "fetch-base: check the network and /etc/apt/sources.list, then run make again" >&2
			exit 1
		fi
	fi
	if ! apt-cache madison "$pkg" 2>/dev/null | awk '{print $3}' | grep -xF "$version" >/dev/null; then
		echo "fetch-base: ERROR: $pkg version $version is not available from apt." >&2
		echo "fetch-base: available versions:" >&2
		apt-cache madison "$pkg" 2>/dev/null | awk '{print "    " $3}' >&2
		echo "fetch-base: no fallback: pin one of them with BASE_VERSION=... (the patches are made against the Makefile's default)." >&2
		exit 1
	fi
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --allow-downgrades \
		"$pkg=$version" >/dev/null; then
		echo "fetch-base: ERROR: apt-get install $pkg=$version failed (the lines above say why)" >&2
		exit 1
	fi
	have=$(dpkg-query -W -f='${Version}' "$pkg")
	if [ "$have" != "$version" ]; then
		echo "fetch-base: ERROR: installed $pkg is $have, not $version" >&2
		exit 1
	fi
fi

[ -n "$install_only" ] && exit 0

echo "fetch-base: unpacking $tarball into $dest"
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "$version" > "$dest/.fta-unpacked"
