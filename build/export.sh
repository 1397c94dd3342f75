#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# export.sh REPO BASE SRC OUT: write the project as one patch series that
# users apply to their own 6.12 tree, and check it.
#
# OUT gets:
#   0000-cover-letter.patch  what the series does, its base, how to apply it;
#   NNNN-*.patch             patches/series in its order, each with the new
#                            files that build/export/map.txt gives it, then
#                            the extra patches of the map (selftests, tools),
#                            as git format-patch writes them (git am takes
#                            them);
#   ftrace-args.config       the config fragment that turns everything on.
# The project's harness (tools/testing/ftrace-args, tools/testing/vm) is
# not part of it.
#
# The check: the base's files that the series changes are copied to a
# scratch folder, every patch is applied in order with `git apply --check`
# then `git apply`, and every file that results must be byte for byte the
# one in SRC, the tree that the tests build (make assembles it first).
set -euo pipefail

repo=$1
base=$2
src=$3
out=$4
map=$repo/build/export/map.txt
overlay_dirs="arch Documentation include kernel samples tools"

die() { echo "export: $*" >&2; exit 1; }
# OUT is replaced: only a new or empty folder, or an earlier export (its
# marker, or, from before there was one, our fragment and nothing but
# NNNN-*.patch files beside it)
[ -n "$out" ] || die "no output folder (EXPORT_DIR is empty)"
[ ! -e "$out" ] || [ -d "$out" ] || die "$out is not a folder"
entries=
if [ -d "$out" ]; then
	# (a folder that cannot be listed is not taken for an empty one)
	entries=$(ls -A -- "$out") || die "$out cannot be listed"
fi
if [ -n "$entries" ] && [ ! -f "$out/.ftrace-args-export" ] &&
   { [ ! -f "$out/ftrace-args.config" ] ||
     [ -n "$(printf '%s\n' "$entries" | grep -v -x -E '[0-9]{4}-.*\.patch|ftrace-args\.config')" ]; }; then
	die "$out holds files that no export wrote; EXPORT_DIR is a folder that make export replaces: name a new or empty one"
fi
[ -f "$base/Makefile" ] || die "no base tree in $base (make base)"
[ -f "$src/.fta-inputs" ] || die "no assembled tree in $src (make tree)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- which patch each new file goes to ------------------------------------
keys=()	# the map's keys, in the order of their first line
: > "$tmp/assign"
"$repo/build/project-files.sh" "$repo" $overlay_dirs > "$tmp/files"
set -f	# the map's globs are patterns, not paths to expand
while read -r f; do
	[ -e "$base/$f" ] && die "$f is in the base: change it with a patch in patches/"
	hit=
	while read -r key globs; do
		case $key in ''|'#'*) continue ;; esac
		for g in $globs; do
			# shellcheck disable=SC2254 # the map's globs
			case $f in $g)
				[ -z "$hit" ] || [ "$hit" = "$key" ] ||
					die "$f matches two lines of map.txt ($hit, $key)"
				hit=$key ;;
			esac
		done
	done < "$map"
	[ -n "$hit" ] || die "$f matches no line of build/export/map.txt"
	[ "$hit" = skip ] || echo "$hit $f" >> "$tmp/assign"
done < "$tmp/files"
set +f
while read -r key _; do
	case $key in ''|'#'*|skip) continue ;; esac
	case " ${keys[*]} " in *" $key "*) ;; *) keys+=("$key") ;; esac
done < "$map"

# The patches, in order: "KEY FILE" (FILE: patches/ name or NAME.txt)
series=()
while read -r p _; do
	case $p in ''|'#'*) continue ;; esac
	series+=("$p")
done < "$repo/patches/series"
order=()
for p in "${series[@]}"; do order+=("${p%%-*} $repo/patches/$p"); done
for k in "${keys[@]}"; do
	case $k in [0-9][0-9][0-9][0-9])
		grep -q "^$k-" <<< "$(printf '%s\n' "${series[@]}")" ||
			die "map.txt names patch $k, which patches/series does not have"
		continue ;;
	esac
	[ -f "$repo/build/export/$k.txt" ] || die "no build/export/$k.txt for the extra patch $k"
	order+=("$k $repo/build/export/$k.txt")
done
total=${#order[@]}

rm -rf "$out"
mkdir -p "$out"
echo "written by ftrace-args' make export, which replaces this folder" > "$out/.ftrace-args-export"
author=$(sed -n 's/^From: //p;/^From: /q' "$repo/patches/${series[0]}")
from_line='From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001'

n=0
for e in "${order[@]}"; do
	key=${e%% *}
	file=${e#* }
	n=$((n + 1))
	# the changelog: up to the first "---" line (patches/), or all of NAME.txt
	awk '/^---$/ { exit } { print }' "$file" > "$tmp/head"
	subject=$(sed -n 's/^Subject: \[PATCH\] //p' "$tmp/head" | head -n 1)
	[ -n "$subject" ] || die "no 'Subject: [PATCH] ' line in $file"
	slug=$(echo "$subject" | sed -e 's/[^A-Za-z0-9._]\+/-/g' -e 's/^-//' -e 's/-$//' | cut -c 1-52 | sed 's/-$//')
	name=$(printf '%04d-%s.patch' "$n" "$slug")
	{
		echo "$from_line"
		echo "From: $author"
		printf 'Subject: [PATCH %0*d/%d] %s\n\n' "${#total}" "$n" "$total" "$subject"
		sed -e '/^From: /d' -e '/^Subject: /d' "$tmp/head" | sed -e '/./,$!d'
		grep -q '^Signed-off-by: ' "$tmp/head" || { echo; echo "Signed-off-by: $author"; }
		echo "---"
		# the patch's own diff, then its new files
		[ "$file" = "${file%.patch}" ] || awk 'f { print } /^---$/ && !f { f = 1 }' "$file"
		awk -v k="$key" '$1 == k { print $2 }' "$tmp/assign" | while read -r f; do
			(cd "$repo" && git diff --no-index --full-index -- /dev/null "$f" || true)
		done
		echo "-- "
		echo "ftrace-args export"
		echo
	} > "$out/$name"
	echo "$name" >> "$tmp/names"
done

# --- the config fragment --------------------------------------------------
cp "$repo/build/ftrace-args.config" "$out/ftrace-args.config"
for o in $(sed -n 's/^CONFIG_\([A-Z0-9_]*\)=.*/\1/p' "$out/ftrace-args.config"); do
	grep -rqs "^[[:space:]]*\(menu\)\?config $o\$" "$src/kernel" "$src/lib" "$src/arch/Kconfig" "$src/arch/x86" \
		"$src/init" "$src/samples" "$src/mm" ||
		die "ftrace-args.config: no Kconfig symbol $o in the tree"
done

# --- the cover letter -----------------------------------------------------
{
	echo "$from_line"
	echo "From: $author"
	printf 'Subject: [PATCH %0*d/%d] ftrace-args: argument-aware ftrace, batch direct calls, BPF multi-attach\n' \
		"${#total}" 0 "$total"
	echo
	cat <<EOF
This series makes ftrace argument-aware for every user: an ftrace_ops
that reads arguments only keeps its functions on the partial register
save, and gets each function's model from BTF.  On that core it adds the
function_args tracer, a batch interface for direct trampolines, BPF
fentry/fexit/fsession multi links, fprobe (and so kprobe_multi) on the
partial save, and mainline's func-args and funcgraph-args options.

Base: Debian's linux-source-6.12 package, $(head -n 1 "$base/.fta-unpacked"),
Linux $(sed -n 's/^VERSION = //p' "$base/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$base/Makefile").$(sed -n 's/^SUBLEVEL = //p' "$base/Makefile").

Apply: in a git tree of that base, \`git am\` the patches after this
letter (\`git am \$(ls *.patch | grep -v cover-letter)\`), or \`git apply\`
each in order; then merge ftrace-args.config and \`make olddefconfig\`.

The series is checked to apply, in order, to that base, and the result to
be the tree that the project builds and tests.  Each new file is in the
patch that hooks it into Kbuild, at its final content: the series is
built and tested whole, not at every step.

EOF
	for f in $(cat "$tmp/names"); do
		sed -n 's/^Subject: //p' "$out/$f" | head -n 1
	done
	echo
	echo "-- "
	echo "ftrace-args export"
} > "$out/0000-cover-letter.patch"

# --- the check ------------------------------------------------------------
mkdir "$tmp/tree"
cat "$out"/[0-9]*.patch | sed -n 's|^--- a/||p' | LC_ALL=C sort -u | while read -r f; do
	[ -f "$base/$f" ] || continue
	mkdir -p "$tmp/tree/$(dirname "$f")"
	cp "$base/$f" "$tmp/tree/$f"
done
cp -a "$tmp/tree" "$tmp/am"
for f in $(cat "$tmp/names"); do
	(cd "$tmp/tree" && git apply --check "$out/$f" && git apply "$out/$f") ||
		die "$f does not apply after the patches before it"
done
# and as users take a series: git am, in a scratch repository of the
# same base files
(
	cd "$tmp/am"
	git init -q .
	git add -A
	git -c user.name=export -c user.email=export@localhost commit -q -m base
	for f in $(cat "$tmp/names"); do
		git -c user.name=export -c user.email=export@localhost am -q "$out/$f" ||
			die "git am: $f"
	done
	rm -rf .git
) || exit 1
diff -r "$tmp/am" "$tmp/tree" > /dev/null || die "git am and git apply give different trees"
nfiles=0
while read -r f; do
	cmp -s "$tmp/tree/$f" "$src/$f" || die "$f after the series is not the tested tree's ($src)"
	nfiles=$((nfiles + 1))
done < <(cd "$tmp/tree" && find . -type f | sed 's|^\./||')
echo "export: $total patches and a cover letter in $out; git apply and git am take them in order on the base, and the $nfiles files they make are those of $src"
