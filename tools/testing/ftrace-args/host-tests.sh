#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# host-tests.sh REPO [SRC CACHE]: host-side tests of the set-up scripts in
# REPO/build, of the statistics of `make bench` and, given the assembled
# tree SRC, of the Kconfig of another architecture (no guest).  apt-get, apt-cache and id are replaced by stubs on PATH, so
# the tests install nothing and give the same answers on every machine;
# dpkg-query is the real one, asked about packages that every Debian
# system has (dpkg, bash) and names that no Debian system has.
. "$(dirname "$0")/lib.sh"

repo=$1
src=${2:-}
cache=${3:-}
inst=$repo/build/install-packages.sh
space=$repo/build/check-space.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The stubs.  apt-cache knows fta-stub-avail-{1,2}; anything else has no
# candidate.  apt-get logs its arguments, and fails "update" when
# STUB_OFFLINE is set.  id -u prints STUB_UID (default 0).
stubs=$tmp/bin
mkdir -p "$stubs"
cat > "$stubs/apt-cache" <<'EOF'
#!/bin/bash
[ "$1" = policy ] || exit 1
[ "$2" = -- ] && shift
case "$2" in
fta-stub-avail-*) printf '%s:\n  Installed: (none)\n  Candidate: 1.0-1\n' "$2" ;;
*) ;;
esac
EOF
cat > "$stubs/apt-get" <<'EOF'
#!/bin/bash
echo "apt-get $*" >> "$STUB_LOG"
if [ "$1" = update ] && [ -n "${STUB_OFFLINE:-}" ]; then
	echo "Err:1 http://deb.example bookworm InRelease"
	echo "  Temporary failure resolving 'deb.example'"
	echo "E: Some index files failed to download."
	exit 100
fi
exit 0
EOF
cat > "$stubs/id" <<'EOF'
#!/bin/bash
[ "$1" = -u ] && { echo "${STUB_UID:-0}"; exit 0; }
exec /usr/bin/id "$@"
EOF
chmod +x "$stubs"/*
export STUB_LOG=$tmp/apt.log

list=$tmp/list.txt
cat > "$list" <<'EOF'
# installed on every Debian system
dpkg
bash   # a comment after a name
# not installed, but apt has them
fta-stub-avail-1

fta-stub-avail-2
# apt has never heard of this one
fta-no-such-package
dpkg
EOF

stubbed() { PATH=$stubs:$PATH "$@"; }

t_missing() {
	local got want
	got=$(stubbed "$inst" --missing "$list") || { echo "exit $?"; return 1; }
	want=$(printf '%s\n' fta-stub-avail-1 fta-stub-avail-2 fta-no-such-package)
	[ "$got" = "$want" ] || { echo "got: $(echo $got)"; return 1; }
}

t_check() {
	local got want
	got=$(stubbed "$inst" --check "$list") || { echo "exit $?"; return 1; }
	want=$(printf '%s\n' "installed dpkg" "installed bash" "missing fta-stub-avail-1" \
		"missing fta-stub-avail-2" "unknown fta-no-such-package")
	[ "$got" = "$want" ] || { echo "got: $(echo $got)"; return 1; }
}

t_nothing_missing() {
	local l=$tmp/have.txt out
	printf 'dpkg\nbash\n' > "$l"
	: > "$STUB_LOG"
	out=$(STUB_UID=1000 stubbed "$inst" "$l" 2>&1) || { echo "exit $?: $out"; return 1; }
	[ -z "$out" ] || { echo "printed: $out"; return 1; }
	[ ! -s "$STUB_LOG" ] || { echo "ran $(cat "$STUB_LOG")"; return 1; }
}

t_unknown_named() {
	local out
	: > "$STUB_LOG"
	out=$(stubbed "$inst" "$list" 2>&1) && { echo "exit 0: $out"; return 1; }
	echo "$out" | grep -q 'ERROR: apt cannot find package(s): fta-no-such-package$' ||
		{ echo "no message naming the package: $out"; return 1; }
	grep -q '^apt-get update' "$STUB_LOG" || { echo "no apt-get update"; return 1; }
	! grep -q '^apt-get install' "$STUB_LOG" || { echo "installed anyway"; return 1; }
}

t_installs_missing() {
	local l=$tmp/avail.txt out
	printf 'dpkg\nfta-stub-avail-1\nfta-stub-avail-2\n' > "$l"
	: > "$STUB_LOG"
	# The stub installs nothing, so the script must notice that.
	out=$(stubbed "$inst" "$l" 2>&1) && { echo "exit 0: $out"; return 1; }
	grep -qx 'apt-get install -y -q fta-stub-avail-1 fta-stub-avail-2' "$STUB_LOG" ||
		{ echo "apt-get log: $(cat "$STUB_LOG")"; return 1; }
	echo "$out" | grep -q 'still not installed after apt-get install: fta-stub-avail-1 fta-stub-avail-2' ||
		{ echo "$out"; return 1; }
}

t_no_root() {
	local out
	: > "$STUB_LOG"
	out=$(STUB_UID=1000 stubbed "$inst" "$list" 2>&1) && { echo "exit 0"; return 1; }
	echo "$out" | grep -q "needs root: run 'sudo make deps' once" || { echo "$out"; return 1; }
	[ ! -s "$STUB_LOG" ] || { echo "ran $(cat "$STUB_LOG")"; return 1; }
	# the lists of make deb and the others name their own target
	out=$(FTA_DEPS_TARGET=deps-deb STUB_UID=1000 stubbed "$inst" "$list" 2>&1) && { echo "exit 0"; return 1; }
	echo "$out" | grep -q "needs root: run 'sudo make deps-deb' once" || { echo "$out"; return 1; }
}

t_offline() {
	local out
	out=$(STUB_OFFLINE=1 stubbed "$inst" "$list" 2>&1) && { echo "exit 0"; return 1; }
	echo "$out" | grep -q 'apt-get update failed: the Debian package registry cannot be reached' ||
		{ echo "$out"; return 1; }
	echo "$out" | grep -q 'Temporary failure resolving' || { echo "apt's reason not shown: $out"; return 1; }
}

t_bad_list() {
	local out
	out=$(stubbed "$inst" "$tmp/no-such-list" 2>&1) && { echo "exit 0"; return 1; }
	echo "$out" | grep -q "cannot read package list $tmp/no-such-list" || { echo "$out"; return 1; }
}

t_project_lists() {
	local l
	for l in "$repo"/build/packages*.txt; do
		stubbed "$inst" --missing "$l" > /dev/null || { echo "$l: exit $?"; return 1; }
	done
}

t_space() {
	local out
	"$space" "$tmp/cache" 1 "the test" || { echo "1 GiB refused"; return 1; }
	out=$("$space" "$tmp/cache" 1000000 "the test" 2>&1) && { echo "1 PiB accepted"; return 1; }
	echo "$out" | grep -q "the test needs about 1000000 GiB free under $tmp/cache; only [0-9]* MiB left" ||
		{ echo "$out"; return 1; }
}

# The features depend on what only x86-64 provides: the argument
# locations of its calling convention (HAVE_FTRACE_ARGS) and the direct
# call from its ftrace_caller (HAVE_FTRACE_DIRECT_BATCH), which BPF's
# tracing multi links are built on.  arm64 has everything else they need
# (DYNAMIC_FTRACE_WITH_ARGS, BTF, the BPF JIT): asked
# for them, its config must leave them out.  Kconfig only, with the host's
# compiler; the output folder is kept in CACHE, so that its conf tool is
# built once.
t_kconfig_arch() {
	local o=$cache/kconfig-arm64 frag=$tmp/frag.config
	mkdir -p "$o"
	printf 'CONFIG_%s=y\n' FTRACE FUNCTION_TRACER DYNAMIC_FTRACE BPF_SYSCALL \
		DEBUG_INFO DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT DEBUG_INFO_BTF \
		FTRACE_ARGS FUNCTION_ARGS_TRACER FUNCTION_ARGS_CALLTHROUGH FTRACE_DIRECT_BATCH \
		BPF_JIT BPF_TRACING_MULTI FPROBE FPROBE_ARGS \
		SAMPLES SAMPLE_FTRACE_DIRECT_BATCH SAMPLE_FTRACE_ARGS > "$frag"
	make -s -C "$src" O="$o" ARCH=arm64 defconfig > "$tmp/kc.log" 2>&1 &&
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$o" "$o/.config" "$frag") >> "$tmp/kc.log" 2>&1 &&
	make -s -C "$src" O="$o" ARCH=arm64 olddefconfig >> "$tmp/kc.log" 2>&1 ||
		{ tail -n 20 "$tmp/kc.log"; return 1; }
	# the generic dependencies hold there...
	grep -qx 'CONFIG_DYNAMIC_FTRACE_WITH_ARGS=y' "$o/.config" ||
		{ echo "arm64 config without DYNAMIC_FTRACE_WITH_ARGS: the check proves nothing"; return 1; }
	# ... and the features are left out
	if grep -E '^CONFIG_(HAVE_FTRACE_ARGS|FTRACE_ARGS|FUNCTION_ARGS_TRACER|FUNCTION_ARGS_CALLTHROUGH|HAVE_FTRACE_DIRECT_BATCH|FTRACE_DIRECT_BATCH|SAMPLE_FTRACE_DIRECT_BATCH|SAMPLE_FTRACE_ARGS|BPF_TRACING_MULTI|FPROBE_ARGS)=' "$o/.config"; then
		return 1
	fi
}

# make export: the series applies in order to the base (git apply and
# git am) and gives the tested tree; a cover letter and the config
# fragment come with it, and every patch has a subject and a sign-off
t_export() {
	local base out=$tmp/export n
	base=$(ls -d "$cache"/base-*/ 2> /dev/null | head -n 1)
	[ -n "$base" ] || { echo "no base tree in $cache"; return 1; }
	# into the folder of an export from before the marker file, which it
	# must take (and replace)
	mkdir -p "$out"
	echo old > "$out/0001-old.patch"
	echo old > "$out/ftrace-args.config"
	"$repo/build/export.sh" "$repo" "${base%/}" "$src" "$out" > "$tmp/export.log" 2>&1 ||
		{ cat "$tmp/export.log"; return 1; }
	[ ! -e "$out/0001-old.patch" ] && [ -f "$out/.ftrace-args-export" ] ||
		{ echo "the earlier export was not replaced"; return 1; }
	grep -q 'git apply and git am take them in order on the base' "$tmp/export.log" || return 1
	[ -s "$out/0000-cover-letter.patch" ] && [ -s "$out/ftrace-args.config" ] || return 1
	n=$(find "$out" -name '[0-9][0-9][0-9][0-9]-*.patch' | wc -l)
	# the series' patches, the four extra ones (map.txt), the cover letter
	[ "$n" -eq $(($(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$repo/patches/series" | wc -l) + 5)) ] ||
		{ echo "$n files"; return 1; }
	for f in "$out"/0*.patch; do
		[ "${f##*/}" = 0000-cover-letter.patch ] && continue
		grep -q '^Subject: \[PATCH [0-9]*/[0-9]*\] ' "$f" &&
			grep -q '^Signed-off-by: ' "$f" || { echo "$f: no subject or sign-off"; return 1; }
	done
}

# build/project-files.sh, which gives assemble.sh and export.sh their
# files: in a git checkout the tracked and new files, not the ignored
# ones (a plugin built in place) nor a tracked one that was deleted
t_project_files() (
	local g=$tmp/pf got
	set -o pipefail
	# (not the user's git config: template hooks, excludes, signing)
	export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
	mkdir -p "$g/tools/a" "$g/tools/z" && cd "$g" || exit 1
	git init -q .
	printf '*.so\n' > .gitignore
	echo 1 > tools/a/tracked.c
	echo 2 > tools/z/gone.c
	git add . && git -c user.name=t -c user.email=t@t -c core.hooksPath=/dev/null commit -qm t
	echo 3 > tools/a/new.c
	echo 4 > tools/a/plugin.so
	# (the deleted file comes last, and so does a folder that is not
	# there: neither may make it fail)
	rm tools/z/gone.c
	got=$("$repo/build/project-files.sh" "$g" tools kernel | paste -sd' ') ||
		{ echo "exit $? ($got)"; exit 1; }
	[ "$got" = "tools/a/new.c tools/a/tracked.c" ] || { echo "got: $got"; exit 1; }
	# the user's own excludes do not drop a project file
	printf '*.c\n' > "$tmp/excludes"
	printf '[core]\n\texcludesFile = %s\n' "$tmp/excludes" > "$tmp/gitconfig"
	got=$(GIT_CONFIG_GLOBAL=$tmp/gitconfig "$repo/build/project-files.sh" "$g" tools | paste -sd' ') ||
		{ echo "excludesFile: exit $? ($got)"; exit 1; }
	[ "$got" = "tools/a/new.c tools/a/tracked.c" ] || { echo "excludesFile: $got"; exit 1; }
	# outside a checkout: every file
	rm -rf .git
	got=$("$repo/build/project-files.sh" "$g" tools kernel | paste -sd' ') ||
		{ echo "no git: exit $? ($got)"; exit 1; }
	[ "$got" = "tools/a/new.c tools/a/plugin.so tools/a/tracked.c" ] || { echo "no git: $got"; exit 1; }
)

# make export replaces EXPORT_DIR: it refuses a folder that holds files
# no export wrote, and leaves them there
t_export_own_dir() {
	local base out=$tmp/own rc=0
	base=$(ls -d "$cache"/base-*/ 2> /dev/null | head -n 1)
	[ -n "$base" ] || { echo "no base tree in $cache"; return 1; }
	mkdir -p "$out"
	echo mine > "$out/Makefile"
	"$repo/build/export.sh" "$repo" "${base%/}" "$src" "$out" > "$tmp/own.log" 2>&1 || rc=$?
	[ $rc != 0 ] || { echo "an export into a folder of other files ran"; return 1; }
	grep -q "export: $out holds files that no export wrote" "$tmp/own.log" ||
		{ cat "$tmp/own.log"; return 1; }
	[ "$(cat "$out/Makefile")" = mine ] || { echo "the folder's file is gone"; return 1; }
	# nor a folder of patches without our fragment
	rm "$out/Makefile"
	echo mine > "$out/0001-mine.patch"
	"$repo/build/export.sh" "$repo" "${base%/}" "$src" "$out" > "$tmp/own.log" 2>&1 &&
		{ echo "an export into a folder of other patches ran"; return 1; }
	[ -f "$out/0001-mine.patch" ] || { echo "the folder's patch is gone"; return 1; }
}

# make deb's config step (build/deb.sh config) on Debian's own config:
# the fragments hold, Debian's key options stay as Debian has them; the
# QEMU variant of make test-deb has only the modules the fragments ask
# for, make deb's own has Debian's.
t_deb_config() {
	local d=$tmp/deb o
	[ -r /usr/src/linux-config-6.12/config.amd64_none_amd64.xz ] ||
		{ echo "Debian's config is not installed (package linux-config-6.12: make deps-deb)"; return 2; }
	"$repo/build/deb.sh" config "$repo" "$src" "$d" test > "$tmp/deb.log" 2>&1 ||
		{ cat "$tmp/deb.log"; return 1; }
	for o in CONFIG_PREEMPT_DYNAMIC=y CONFIG_X86_KERNEL_IBT=y CONFIG_MITIGATION_CALL_DEPTH_TRACKING=y \
		 CONFIG_FUNCTION_ARGS_TRACER=y CONFIG_BPF_TRACING_MULTI=y CONFIG_9P_FS=y \
		 CONFIG_SAMPLE_FTRACE_DIRECT_BATCH=m; do
		grep -qx "$o" "$d/obj/.config" || { echo "no $o"; return 1; }
	done
	[ "$(grep -c '=m$' "$d/obj/.config")" -lt 20 ] || { echo "Debian's modules are left in"; return 1; }
	# make deb's own (DEB_MODULES=debian): Debian's modules, none of the
	# QEMU test's changes
	"$repo/build/deb.sh" config "$repo" "$src" "$tmp/debfull" debian > "$tmp/deb.log" 2>&1 ||
		{ cat "$tmp/deb.log"; return 1; }
	[ "$(grep -c '=m$' "$tmp/debfull/obj/.config")" -gt 3000 ] || { echo "Debian's modules are not in"; return 1; }
	for o in CONFIG_9P_FS=m CONFIG_FUNCTION_ARGS_TRACER=y 'CONFIG_LOCALVERSION="-ftrace-args-amd64"' \
		 '# CONFIG_FTRACE_STARTUP_TEST is not set' CONFIG_SAMPLE_FTRACE_DIRECT=m \
		 CONFIG_SAMPLE_TRACE_EVENTS=m CONFIG_SAMPLE_KPROBES=m; do
		grep -qx "$o" "$tmp/debfull/obj/.config" || { echo "make deb: no $o"; return 1; }
	done
	# a DEBDIR of files that no make deb wrote is refused, and so is none
	mkdir -p "$tmp/notdeb" && echo mine > "$tmp/notdeb/f"
	"$repo/build/deb.sh" config "$repo" "$src" "$tmp/notdeb" test > "$tmp/deb.log" 2>&1 &&
		{ echo "a DEBDIR of other files was taken"; return 1; }
	grep -q "holds files that no make deb wrote" "$tmp/deb.log" || { cat "$tmp/deb.log"; return 1; }
	[ -f "$tmp/notdeb/f" ] || { echo "the DEBDIR's file is gone"; return 1; }
	"$repo/build/deb.sh" config "$repo" "$src" "" test > "$tmp/deb.log" 2>&1 &&
		{ echo "an empty DEBDIR was taken"; return 1; }
	grep -q "DEBDIR or DEBTESTDIR is empty" "$tmp/deb.log" || { cat "$tmp/deb.log"; return 1; }
	# DEB_EXTRA_CONFIG names a file, not a folder
	DEB_EXTRA_CONFIG=$tmp "$repo/build/deb.sh" config "$repo" "$src" "$d" test > "$tmp/deb.log" 2>&1 &&
		{ echo "a folder was taken for DEB_EXTRA_CONFIG"; return 1; }
	grep -qF "DEB_EXTRA_CONFIG=$tmp is not a file" "$tmp/deb.log" || { cat "$tmp/deb.log"; return 1; }
	# a fragment that changes a key option of Debian's is refused (given
	# by a path relative to where make runs; the folder of the config
	# above is taken again)
	printf '# CONFIG_X86_KERNEL_IBT is not set\n' > "$tmp/bad.config"
	if (cd "$tmp" && DEB_EXTRA_CONFIG=bad.config "$repo/build/deb.sh" config "$repo" "$src" "$d" test) \
		> "$tmp/deb.log" 2>&1; then
		echo "IBT off was taken"; return 1
	fi
	grep -q "X86_KERNEL_IBT: Debian 'CONFIG_X86_KERNEL_IBT=y', here 'unset'" "$tmp/deb.log" &&
		grep -q "Debian's key options changed" "$tmp/deb.log" || { cat "$tmp/deb.log"; return 1; }
}

# multitrace's make install (tools/tracing/multitrace), built against
# SRC's uapi into TMP: the program and its man page where DESTDIR and
# prefix put them; the page documents the options that --help lists, no
# more, no fewer, and groff formats it without a warning
t_multitrace_install() {
	local root=$tmp/mt-root man got want out
	make -s -C "$repo/tools/tracing/multitrace" SRC="$src" OUTPUT="$tmp/mt/" \
		DESTDIR="$root" install > "$tmp/mt.log" 2>&1 ||
		{ tail -n 20 "$tmp/mt.log"; return 1; }
	man=$root/usr/local/share/man/man8/multitrace.8
	[ -x "$root/usr/local/bin/multitrace" ] || { echo "no bin/multitrace in $root/usr/local"; return 1; }
	[ -f "$man" ] || { echo "no share/man/man8/multitrace.8 in $root/usr/local"; return 1; }
	got=$("$root/usr/local/bin/multitrace" --help | grep -oE '^  -[a-zA-Z], --[a-z-]+' |
		sed 's/^  //' | sort)
	want=$(sed -n 's/^\.BR \\-\([a-zA-Z]\) ", " \\-\\-\([^ ]*\).*/-\1, --\2/p' "$man" |
		sed 's/\\-/-/g' | sort)
	[ -n "$got" ] && [ "$got" = "$want" ] ||
		{ echo "--help: $(echo $got); man page: $(echo $want)"; return 1; }
	command -v groff > /dev/null ||
		{ echo "groff is not installed: the man page was not formatted"; return 2; }
	out=$(groff -man -ww -z "$man" 2>&1) || { echo "groff: $out"; return 1; }
	[ -z "$out" ] || { echo "groff: $out"; return 1; }
}

# The trace-cmd plugin (tools/tracing/ftrace-args), built into TMP with
# AddressSanitizer, on func_args records made by hand (plugin-records.c)
# and read with the BTF of the kernel in CACHE/obj: each prints as
# function-args.rst and the plugin say, and a record cut anywhere, with
# more words claimed than it holds or with unknown flags is read no
# further than its end.  HOME is an empty folder, so that no copy of the
# plugin in ~/.local/lib/traceevent/plugins is loaded beside this one.
t_plugin_records() {
	local btf=$cache/obj/vmlinux bin=$tmp/plugin-records out rc=0
	local asan="-O1 -g -fsanitize=address -fno-omit-frame-pointer"
	[ -f "$btf" ] || { echo "no $btf: make builds the kernel there"; return 2; }
	make -s -C "$repo/tools/tracing/ftrace-args" OUTPUT="$tmp/plg/" CC="cc $asan" \
		> "$tmp/plg.log" 2>&1 || { tail -n 20 "$tmp/plg.log"; return 1; }
	# shellcheck disable=SC2046,SC2086 # flags: split into words
	cc $asan -Wall -Wextra $(pkg-config --cflags libtraceevent) -o "$bin" \
		"$repo/tools/testing/ftrace-args/plugin-records.c" -ltraceevent -lbpf \
		> "$tmp/pr.log" 2>&1 || { tail -n 20 "$tmp/pr.log"; return 1; }
	mkdir -p "$tmp/home"
	out=$(HOME=$tmp/home TRACEEVENT_PLUGIN_DIR=$tmp/plg/plugins "$bin" "$btf" 2>&1) || rc=$?
	[ $rc = 0 ] && return 0
	# all of it, then (run_test shows the last lines) what went wrong:
	# its own set-up error (exit 2) is a failure here, where the plugin
	# and the kernel were just built
	echo "$out"
	echo "exit $rc: $(echo "$out" | grep -E '^(FAIL |plugin-records: |SUMMARY: )' | head -n 3 | tr '\n' ' ')"
	return 1
}

# function-args.rst, "Installing the plugin": make install
# copies it to ~/.local/lib/traceevent/plugins, where libtraceevent finds
# it with no TRACEEVENT_PLUGIN_DIR: trace-cmd list -O, run as the user
# whose HOME that is, then lists its options, and did not before
t_plugin_install() {
	local home=$tmp/pi-home got o
	local plugin_line='^ +plugin:[[:space:]]+function_args$'
	command -v trace-cmd > /dev/null ||
		{ echo "no trace-cmd (make deps installs it)"; return 2; }
	mkdir -p "$home"
	got=$(env -u TRACEEVENT_PLUGIN_DIR HOME="$home" trace-cmd list -O 2>&1) ||
		{ echo "trace-cmd list -O: $got"; return 1; }
	if echo "$got" | grep -qE "$plugin_line"; then
		echo "function_args is listed before make install:" \
			"a copy in libtraceevent's system folder"
		return 2
	fi
	env -u INSTALL_DIR HOME="$home" make -s -C "$repo/tools/tracing/ftrace-args" \
		OUTPUT="$tmp/pi/" install > "$tmp/pi.log" 2>&1 ||
		{ tail -n 20 "$tmp/pi.log"; return 1; }
	local dir=$home/.local/lib/traceevent/plugins
	[ -f "$dir/plugin_function_args.so" ] ||
		{ echo "no plugin_function_args.so in $dir"; return 1; }
	got=$(env -u TRACEEVENT_PLUGIN_DIR HOME="$home" trace-cmd list -O 2>&1) ||
		{ echo "trace-cmd list -O: $got"; return 1; }
	for o in btf hex graph_noargs; do
		echo "$got" | grep -A1 -E "$plugin_line" |
			grep -qE "^ +option:[[:space:]]+$o\$" ||
			{ echo "trace-cmd list -O after make install: no option $o"; return 1; }
	done
}

# The bench's fta-bpf-attach: --candidates takes a whole number of
# arguments from 0 to 12, and says so of anything else (exit 2)
t_bpf_attach_args() {
	local bin=$cache/tools/fta-bpf-attach a out rc
	[ -x "$bin" ] || { echo "no $bin (make tools builds it)"; return 1; }
	for a in x 13 -1 3x ''; do
		rc=0
		out=$("$bin" --candidates "$a" 2>&1) || rc=$?
		[ $rc = 2 ] || { echo "--candidates '$a': exit $rc, not 2"; return 1; }
		[ "$out" = "fta-bpf-attach: --candidates $a: not a number from 0 to 12" ] ||
			{ echo "--candidates '$a': $out"; return 1; }
	done
}

# The bench's statistics (bench/stats.sh), on numbers with known answers.
# nums FILE N...: FILE holds N..., one a line.
nums() { local f=$tmp/$1; shift; printf '%s\n' "$@" > "$f"; }
t_bench_stats() (
	# shellcheck source=bench/stats.sh
	. "$repo/tools/testing/ftrace-args/bench/stats.sh"
	local got
	expect() { [ "$2" = "$3" ] || { echo "$1: got '$2', want '$3'"; exit 1; }; }
	expect "median, odd" "$(printf '5\n1\n3\n' | median)" 3
	expect "median, even" "$(printf '4\n1\n3\n2\n' | median)" 2.5
	expect "distance" "$(distance 3.5 5)" 1.5
	nums steady 100 101 99 100 102 98 100
	nums drift 1 2 1 3 1
	nums ratio 1.5 1.6 1.4 1.5 1.5
	expect "spread" "$(spread "$tmp/steady")" 1
	expect "noise: the drift between untraced loops" "$(noise "$tmp/steady" "$tmp/drift")" 1.0
	clear_of_noise "$tmp/steady" "$tmp/drift" || { echo "100 +- 1 not clear"; exit 1; }
	expect "a clear row gives its ratio" \
		"$(ratio_or_noise "$tmp/ratio" "$tmp/drift" "$tmp/steady" "$tmp/steady")" 1.50
	# make bench's old string row: overheads that go negative in a path
	# whose untraced spread is thousands of ns
	nums swamped 1557.7 -467.4 -86.9 300 -900 2000 120
	nums wide 3000 4200 2500 3900 3100
	! clear_of_noise "$tmp/swamped" "$tmp/wide" || { echo "swamped row is clear"; exit 1; }
	expect "a swamped row is flagged" \
		"$(ratio_or_noise "$tmp/ratio" "$tmp/wide" "$tmp/steady" "$tmp/swamped")" "noise(+-3100.0)"
	# below 3 times its noise, even when positive
	nums small 10 12 9 11 10
	nums drift5 4 4 5 4 4
	! clear_of_noise "$tmp/small" "$tmp/drift5" || { echo "10 +- 4 is clear"; exit 1; }
	nums negative -50 -52 -49 -51 -50
	nums zero 0 0 0 0 0
	! clear_of_noise "$tmp/negative" "$tmp/zero" || { echo "a negative overhead is clear"; exit 1; }
	# times: a ratio needs 3 repetitions, each time 3 times its spread
	nums t_a 200 210 190
	nums t_b 100 101 99
	expect "time ratio" "$(time_ratio "$tmp/t_a" "$tmp/t_b")" 2.00
	nums t_one 200
	expect "one measurement" "$(time_ratio "$tmp/t_one" "$tmp/t_b")" "noise(+-1.0)"
	nums t_wild 10 300 40 900 5
	got=$(time_ratio "$tmp/t_wild" "$tmp/t_b")
	case $got in noise*) ;; *) echo "a wild time gave ratio $got"; exit 1 ;; esac
)


reset_tracing() { :; }
run_test "host: install-packages --missing: not installed and unknown names, in order" t_missing
run_test "host: install-packages --check: installed / missing / unknown" t_check
run_test "host: install-packages: nothing missing runs no apt-get, needs no root" t_nothing_missing
run_test "host: install-packages: an unknown package is named, nothing installed" t_unknown_named
run_test "host: install-packages: installs the missing ones, checks they arrived" t_installs_missing
run_test "host: install-packages: no root says 'sudo make deps' (or the list's target)" t_no_root
run_test "host: install-packages: no registry says so, with apt's reason" t_offline
run_test "host: install-packages: an unreadable list is named" t_bad_list
run_test "host: install-packages: the project's lists parse" t_project_lists
run_test "host: check-space: refuses with a clear message" t_space
run_test "host: project-files: git's files, not what a build left in the checkout" t_project_files
run_test "host: bench statistics: ratios only for rows clear of their noise" t_bench_stats
if [ -n "$src" ]; then
	run_test "host: Kconfig: arm64 leaves out function_args and the batch interface" t_kconfig_arch
	run_test "host: make export: the series applies in order and gives the tested tree" t_export
	run_test "host: make export: refuses an EXPORT_DIR of other files, and keeps them" t_export_own_dir
	run_test "host: make deb: Debian's config, the fragments, Debian's key options kept" t_deb_config
	run_test "host: multitrace: make install puts the program and its man page, which matches --help" \
		t_multitrace_install
	run_test "host: plugin: crafted and truncated func_args and funcgraph_entry records print as documented, no over-read (ASan)" \
		t_plugin_records
	run_test "host: plugin: make install puts it where trace-cmd finds it without TRACEEVENT_PLUGIN_DIR" \
		t_plugin_install
	run_test "host: fta-bpf-attach --candidates: a bad MAXARGS exits 2 and says why" \
		t_bpf_attach_args
fi
# run-tests counts a host test run that ends before this line as a failure
echo "==== host tests: all run"
