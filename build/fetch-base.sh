#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-base.sh VERSION DEST
#
# Install Debian's linux-source-6.12 at exactly VERSION with apt-get and
# unpack it into DEST (once).  There is no fallback to another version: if
# VERSION cannot be had, stop and say so.
set -euo pipefail

version=$1
dest=$2
pkg=linux-source-6.12
tarball=/usr/src/linux-source-6.12.tar.xz

[ -f "$dest/.fta-unpacked" ] && exit 0

have=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
if [ "$have" != "$version" ]; then
	echo "fetch-base: installing $pkg=$version (have: ${have:-none})"
	if ! apt-cache madison "$pkg" 2>/dev/null | awk '{print $3}' | grep -qxF "$version"; then
		apt-get update -q >/dev/null 2>&1 || true
	fi
	if ! apt-cache madison "$pkg" 2>/dev/null | awk '{print $3}' | grep -qxF "$version"; then
		echo "fetch-base: ERROR: $pkg version $version is not available from apt." >&2
		echo "fetch-base: available versions:" >&2
		apt-cache madison "$pkg" 2>/dev/null | awk '{print "    " $3}' >&2
		echo "fetch-base: no fallback: pin one of them with BASE_VERSION=... (the patches are made against the Makefile's default)." >&2
		exit 1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --allow-downgrades \
		"$pkg=$version" >/dev/null
	have=$(dpkg-query -W -f='${Version}' "$pkg")
	if [ "$have" != "$version" ]; then
		echo "fetch-base: ERROR: installed $pkg is $have, not $version" >&2
		exit 1
	fi
fi

echo "fetch-base: unpacking $tarball into $dest"
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "$version" > "$dest/.fta-unpacked"
