#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# project-files.sh REPO DIR...: the project's files under DIR... of REPO,
# one path (relative to REPO) a line, sorted.  In a git checkout: the
# files git tracks and the new ones it does not ignore, so not what a
# build writes into the checkout (a plugin, a tool: .gitignore); outside
# one, every file.  build/assemble.sh and build/export.sh take their new
# files from here.
set -euo pipefail

repo=$1
shift
cd "$repo"
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	git ls-files -c -o --exclude-standard -- "$@" | while read -r f; do
		# a tracked file that the work tree has deleted is not one
		if [ -f "$f" ]; then
			printf '%s\n' "$f"
		fi
	done
else
	for d in "$@"; do
		if [ -d "$d" ]; then
			find "$d" -type f
		fi
	done
fi | LC_ALL=C sort -u
