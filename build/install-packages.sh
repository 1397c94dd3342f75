#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-packages.sh LIST: apt-get install every package named in LIST.
set -euo pipefail
pkgs=$(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$1")
# shellcheck disable=SC2086
missing=$(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' $pkgs 2>/dev/null |
	  awk '$1 == "ii" { print $2 }' | sort | comm -13 - <(echo "$pkgs" | sort))
[ -z "$missing" ] && exit 0
echo "deps: installing:" $missing
if [ "$(id -u)" != 0 ]; then
	echo "deps: ERROR: need root to apt-get install the packages above" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q $missing
