#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# project-files.sh REPO DIR...: the project's files under DIR... of REPO,
# one path (relative to REPO) a line, sorted.  Where REPO is a git
# checkout (it has its own .git): the files git tracks and the new ones
# that its .gitignore files do not ignore, so not what a build writes
# into the checkout (a plugin, a tool).  The user's own excludes
# (core.excludesFile, .git/info/exclude) do not count: they would drop a
# new project file without a word.  A git that fails there stops this
# with its reason.  Elsewhere (a copy without .git): every file.
# Symbolic links count as files.  build/assemble.sh and build/export.sh
# take their new files from here.
set -euo pipefail

repo=$1
shift
cd "$repo"
if [ -e .git ]; then
	list=$(git -c core.quotePath=false ls-files -c -o --exclude-per-directory=.gitignore -- "$@") || {
		echo "project-files: ERROR: git ls-files failed in $repo (above)" >&2
		exit 1
	}
	printf '%s\n' "$list" | while IFS= read -r f; do
		# a tracked file that the work tree has deleted is not one
		if [ -f "$f" ] || [ -L "$f" ]; then
			printf '%s\n' "$f"
		fi
	done
else
	for d in "$@"; do
		if [ -d "$d" ]; then
			find "$d" \( -type f -o -type l \)
		fi
	done
fi | LC_ALL=C sort -u
