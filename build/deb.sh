#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb.sh config|build REPO SRC DEBDIR [MODULES]
#
# The patched kernel as Debian packages, from Debian's own 6.12 amd64
# config (package linux-config-6.12) with build/ftrace-args.config and
# build/kernel-deb.config merged on top.  Its output lives in DEBDIR: the
# build in DEBDIR/obj, the packages (bindeb-pkg) in DEBDIR, and the image
# package unpacked in DEBDIR/root.
#
# MODULES says which kernel:
#   debian  (default; `make deb`) Debian's config and all of its 4000-odd
#           modules: the packages install on a Debian 12 machine (hours
#           to build on 2 cores).
#   test    (`make test-deb`) for QEMU: build/kernel-deb-test.config on
#           top, none of Debian's modules, only those the tests load.
#           Everything Debian builds in (=y) stays as Debian has it, but
#           for the fragment's QEMU drivers; the test boots
#           DEBDIR/root/boot/vmlinuz-* with the packaged modules.
# Either way the config step fails when one of Debian's key options (the
# list below) comes out otherwise.  DEB_EXTRA_CONFIG names a fragment of
# your own, merged last.
set -euo pipefail

cmd=$1 repo=$2 src=$3 dir=$4 modules=${5:-debian}
[ -n "$dir" ] || { echo "deb: ERROR: no folder (DEBDIR or DEBTESTDIR is empty)" >&2; exit 1; }
dir=$(realpath -m -- "$dir")
obj=$dir/obj
debcfg=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
frags=("$repo/build/ftrace-args.config" "$repo/build/kernel-deb.config")
[ "$modules" = test ] && frags+=("$repo/build/kernel-deb-test.config")
say() { echo "deb: $*"; }
die() { echo "deb: ERROR: $*" >&2; exit 1; }

# DEB_EXTRA_CONFIG: a fragment of your own, merged last (the merge runs
# in SRC: a relative path is taken from where make ran)
if [ -n "${DEB_EXTRA_CONFIG:-}" ]; then
	[ -f "$DEB_EXTRA_CONFIG" ] ||
		die "DEB_EXTRA_CONFIG=$DEB_EXTRA_CONFIG is not a file"
	extra=$(realpath -- "$DEB_EXTRA_CONFIG")
	frags+=("$extra")
fi
# DIR gets obj/, root/ and the packages, and loses the packages and root/
# of a build before: a new or empty folder, or one of an earlier build
# (obj/config.debian, which config() writes first)
if [ -d "$dir" ] && [ ! -f "$obj/config.debian" ] && [ -n "$(ls -A "$dir")" ]; then
	die "$dir holds files that no make deb wrote: DEBDIR (DEBTESTDIR) names a folder of its own, new or empty"
fi

case $modules in
test | debian) ;;
*) die "DEB_MODULES=$modules: not 'test' or 'debian'" ;;
esac

# Debian's options that must come out as Debian has them: the ones that
# change how every function is entered, returns and is traced.
key_options='PREEMPT_BUILD PREEMPT_VOLUNTARY PREEMPT_DYNAMIC PREEMPT_RCU
X86_KERNEL_IBT CPU_MITIGATIONS MITIGATION_RETPOLINE MITIGATION_RETHUNK
MITIGATION_UNRET_ENTRY MITIGATION_CALL_DEPTH_TRACKING MITIGATION_SRSO
MITIGATION_SLS MITIGATION_PAGE_TABLE_ISOLATION MITIGATION_ITS
SECURITY_LOCKDOWN_LSM LSM BPF_LSM BPF_JIT_ALWAYS_ON BPF_UNPRIV_DEFAULT_OFF
RANDOMIZE_BASE RANDOMIZE_MEMORY STACKPROTECTOR_STRONG INIT_STACK_ALL_ZERO
FUNCTION_TRACER FUNCTION_GRAPH_TRACER DYNAMIC_FTRACE_WITH_DIRECT_CALLS
FPROBE KPROBES DEBUG_INFO_BTF MODULE_SIG HZ_250'

# What the config is made of: Debian's config, the fragments, MODULES
inputs() {
	{ echo "$modules"; xzcat "$debcfg"; cat "${frags[@]}"; } | sha256sum
}

config() {
	[ -r "$debcfg" ] || die "$debcfg is missing: run 'sudo make deps-deb' (package linux-config-6.12)"
	mkdir -p "$obj"
	xzcat "$debcfg" > "$obj/config.debian"
	if [ "$modules" = test ]; then
		sed 's/^\(CONFIG_[A-Za-z0-9_]*\)=m$/# \1 is not set/' "$obj/config.debian" > "$obj/.config"
	else
		cp "$obj/config.debian" "$obj/.config"
	fi
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "${frags[@]}") \
		> "$obj/merge_config.log"
	make -s -C "$src" O="$obj" olddefconfig > /dev/null
	"$repo/build/check-config.sh" "${frags[@]}" "$obj/.config"
	# What of Debian's built-in set changed: the options that the
	# fragments name are meant to; any other is listed, and a key one
	# fails the build.
	local named lost o bad=0
	named=$(sed -n -e 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' \
		-e 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1/p' "${frags[@]}" | sort -u)
	lost=$(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=[^m].*/\1/p' "$obj/config.debian" | sort -u |
		comm -23 - <(echo "$named") |
		comm -23 - <(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' "$obj/.config" | sort -u))
	for o in $key_options; do
		if [ "$(grep "^CONFIG_$o=" "$obj/config.debian" || true)" != "$(grep "^CONFIG_$o=" "$obj/.config" || true)" ]; then
			echo "deb: $o: Debian '$(grep "^CONFIG_$o=" "$obj/config.debian" || echo unset)'," \
				"here '$(grep "^CONFIG_$o=" "$obj/.config" || echo unset)'" >&2
			bad=1
		fi
	done
	[ $bad = 0 ] || die "Debian's key options changed (above)"
	inputs > "$obj/deb-inputs"
	say "config: Debian's from linux-config-6.12" \
		"$(dpkg-query -W -f='${Version}' linux-config-6.12 2> /dev/null || echo '(version unknown)')"
	say "config: Debian's $(xzcat "$debcfg" | grep -c '=y$') built-in options," \
		"$(grep -c '=y$' "$obj/.config") here, modules: $modules ($(grep -c '=m$' "$obj/.config") =m)"
	if [ -n "$lost" ]; then
		say "Debian's non-module options that depend on a module left out ($(echo "$lost" | wc -l)):" \
			"$(echo "$lost" | head -n 12 | paste -sd' ')$([ "$(echo "$lost" | wc -l)" -gt 12 ] && echo ' ...')"
		echo "$lost" > "$obj/deb-lost-options"
	fi
}

# Exported symbols that Module.symvers gives CRC 0: an object whose build
# was stopped (a session's end) after its compile and before genksyms
# wrote its versions to its .cmd file is taken as built, and modpost
# writes 0 for its exports; no module that uses them then loads ("no
# symbol version for ...").
zero_crcs() {
	grep -qx 'CONFIG_MODVERSIONS=y' "$obj/.config" || return 0
	awk '$1 == "0x00000000" { print $2 }' "$obj/Module.symvers" 2> /dev/null || true
}

# repair_crcs: remove the objects compiled from a source that export
# symbols and have no versions in their .cmd file, to be built again
repair_crcs() {
	local n
	say "$(zero_crcs | wc -l) exported symbols have no CRC ($(zero_crcs | head -n 3 | paste -sd' ') ...):" \
		"an earlier build was stopped mid-way; building their objects again"
	# (grep -L and nm fail for some files, which is no error here)
	(
		set +o pipefail
		cd "$obj"
		# (objects compiled from a source: not those that ld -r links)
		find . -name '.*.o.cmd' ! -name '.*.mod.o.cmd' -print0 |
			xargs -0 grep -L -Z '^#SYMVER ' |
			xargs -0 -r grep -l -Z '^source_' |
			sed -z 's|/\.\([^/]*\)\.cmd$|/\1|' |
			xargs -0 -r nm -A 2> /dev/null |
			awk '/ __export_symbol_/ { sub(/:.*/, ""); print }' | sort -u
	) > "$obj/deb-nocrc-objects"
	n=$(wc -l < "$obj/deb-nocrc-objects")
	[ "$n" -gt 0 ] || die "no object to build again; remove $obj/Module.symvers and the objects that export $(zero_crcs | head -n 1)"
	say "removing $n objects: $(head -n 5 "$obj/deb-nocrc-objects" | paste -sd' ')"
	(cd "$obj" && tr '\n' '\0' < deb-nocrc-objects | xargs -0 rm -f)
}

build() {
	local rel t0=$SECONDS
	# A new config when there is none, or when Debian's config, a
	# fragment or MODULES changed
	[ -f "$obj/.config" ] && [ "$(cat "$obj/deb-inputs" 2> /dev/null)" = "$(inputs)" ] || config
	say "building in $obj (Debian's config, modules: $modules)"
	# Built first with ccache, as the other kernels; bindeb-pkg then finds
	# it built (CC on the command line reaches its sub-makes).
	make -C "$src" O="$obj" CC="ccache gcc" -j"${JOBS:-$(nproc)}" bzImage modules
	if [ -n "$(zero_crcs)" ]; then
		repair_crcs
		make -C "$src" O="$obj" CC="ccache gcc" -j"${JOBS:-$(nproc)}" bzImage modules
		[ -z "$(zero_crcs)" ] || die "still exported symbols without a CRC: $(zero_crcs | head -n 5 | paste -sd' ')"
	fi
	# the build writes the release; before it, kernelrelease may give
	# the previous config's
	rel=$(cat "$obj/include/config/kernel.release")
	say "kernel built in $((SECONDS - t0)) s; packaging"
	rm -f "$dir"/*.deb "$dir"/*.buildinfo "$dir"/*.changes
	# No -dbg package (the whole vmlinux with DWARF): the image package
	# holds the kernel, its modules and the BTF.
	make -C "$src" O="$obj" CC="ccache gcc" -j"${JOBS:-$(nproc)}" \
		KDEB_PKGVERSION="$rel-1" \
		DPKG_FLAGS="--build-profiles=pkg.linux-upstream.nokerneldbg" bindeb-pkg
	# (not while make test-deb-image's guests use root/: run-tests holds
	# this lock shared)
	exec 7> "$dir/.root.lock"
	flock -n 7 || { say "waiting for the guests that use $dir/root"; flock 7; }
	rm -rf "$dir/root"
	dpkg-deb -x "$dir/linux-image-${rel}_${rel}-1_amd64.deb" "$dir/root"
	[ -f "$dir/root/boot/vmlinuz-$rel" ] || die "no /boot/vmlinuz-$rel in the image package"
	[ -f "$dir/root/lib/modules/$rel/modules.dep" ] || die "no modules.dep in the image package"
	say "packages ($((SECONDS - t0)) s in all):"
	ls -l "$dir"/*.deb | sed 's/^/deb:   /'
	if [ "$modules" = debian ]; then
		say "install on a Debian 12 machine: sudo apt install $dir/linux-image-${rel}_${rel}-1_amd64.deb"
		say "(its modules are signed with a key of this build: not for Secure Boot)"
	else
		say "for QEMU only (no storage or file system modules): make test-deb boots it"
	fi
}

case $cmd in
config) config ;;
build) build ;;
*) die "usage: deb.sh config|build REPO SRC DEBDIR [debian|test]" ;;
esac
