#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# harness.sh RELEASE: guest-side checks of the test harness itself.  Each
# one can fail: it asserts real output of the booted kernel.
. "$(dirname "$0")/lib.sh"

release=$1

# The booted kernel's config: /proc/config.gz, or, as Debian's config
# has no IKCONFIG, the image package's (FTA_KCONFIG, run-tests --deb)
kconfig=/proc/config.gz
[ -r $kconfig ] || kconfig=${FTA_KCONFIG:-}

t_release() {
	[ "$(uname -r)" = "$release" ] || { echo "uname -r is $(uname -r), want $release"; return 1; }
	grep -qF "Linux version $release " /proc/version || { echo "/proc/version: $(cat /proc/version)"; return 1; }
	[ -r "$kconfig" ] || { echo "no /proc/config.gz and no FTA_KCONFIG"; return 1; }
	zcat -f "$kconfig" | grep -qx 'CONFIG_DYNAMIC_FTRACE_WITH_ARGS=y' ||
		{ echo "$kconfig lacks DYNAMIC_FTRACE_WITH_ARGS"; return 1; }
}

# The guest machine (see vm-run): 2 CPUs, which the cpumask and hotplug
# cases need (on microvm the kernel finds them in qboot's MP table);
# virtio (on MMIO, or on PCI for make deb's own kernel); and the TSC as
# clock at the right rate (on microvm the rate that vm-run gives, as
# there is no ACPI, HPET or PIT gate to calibrate it), or the clock is
# jiffies or runs at the wrong speed.
t_machine() {
	local n cs
	n=$(nproc)
	[ "$n" -ge 2 ] || { echo "the guest has $n CPU(s), vm-run asks for 2"; return 1; }
	grep -q virtio /proc/interrupts || { echo "no virtio interrupt"; return 1; }
	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
	[ "$cs" = tsc ] || { echo "clocksource is $cs, not tsc"; return 1; }
	# ... at the right rate: 3 s of the RTC, which counts the host's time,
	# are 3 s of the guest's clock (within a fifth).  Builtins only: a
	# program started in the loop takes up to a second on the debug
	# kernel, which would be counted too.
	local r=/sys/class/rtc/rtc0/since_epoch e v t0 t1 ms
	read -r e < $r
	v=$e
	while [ "$v" = "$e" ]; do read -r v < $r; done
	t0=${EPOCHREALTIME/./}
	e=$v
	while [ "$v" -lt $((e + 3)) ]; do read -r v < $r; done
	t1=${EPOCHREALTIME/./}
	ms=$(((t1 - t0) / 1000))
	[ $ms -ge 2400 ] && [ $ms -le 3600 ] ||
		{ echo "3 s of the RTC took $ms ms of the guest's clock: wrong tsc_early_khz?"; return 1; }
}

t_tracefs() {
	grep -q '^nodev /sys/kernel/tracing tracefs' /proc/mounts || { echo "tracefs not mounted"; return 1; }
	grep -qw function $TRACING/available_tracers || { echo "no function tracer: $(cat $TRACING/available_tracers)"; return 1; }
	grep -qw function_graph $TRACING/available_tracers || { echo "no function_graph tracer"; return 1; }
}

t_function_vfs_read() {
	echo vfs_read > $TRACING/set_ftrace_filter || return 1
	[ "$(cat $TRACING/set_ftrace_filter)" = vfs_read ] || { echo "filter: $(cat $TRACING/set_ftrace_filter)"; return 1; }
	echo function > $TRACING/current_tracer || return 1
	cat /etc/hostname > /dev/null
	echo 0 > $TRACING/tracing_on
	grep -E ' cat-[0-9]+ .* vfs_read <-ksys_read$' $TRACING/trace > /dev/null ||
		{ echo "no 'cat ... vfs_read <-ksys_read' line in trace:"; head -n 20 $TRACING/trace; return 1; }
	# Only the filtered function may show up.
	if grep -v '^#' $TRACING/trace | grep -v ' vfs_read <-' | grep -q .; then
		echo "trace has functions other than vfs_read:"
		grep -v '^#' $TRACING/trace | grep -v ' vfs_read <-' | head -n 5
		return 1
	fi
}

t_trace_cmd() {
	command -v trace-cmd > /dev/null || { echo "trace-cmd is not installed on the host"; return 2; }
	cd /tmp || return 1
	trace-cmd record -q -p function -l vfs_read -o /tmp/tc.dat cat /etc/hostname > /dev/null 2>/tmp/tc.err ||
		{ cat /tmp/tc.err; return 1; }
	trace-cmd report -O parent=1 -i /tmp/tc.dat > /tmp/tc.txt 2>&1 || { tail -n 5 /tmp/tc.txt; return 1; }
	grep -qE 'cat-[0-9]+ .*function: +vfs_read <-- ksys_read' /tmp/tc.txt ||
		{ echo "report lacks 'cat ... vfs_read <-- ksys_read':"; head -n 20 /tmp/tc.txt; return 1; }
}

t_modules() {
	[ -d "/lib/modules/$release/kernel" ] || { echo "no /lib/modules/$release"; return 1; }
	modprobe trace-events-sample || return 1
	grep -q '^trace_events_sample ' /proc/modules || { echo "module not in /proc/modules"; return 1; }
	[ -d $TRACING/events/sample-trace ] || { echo "no events/sample-trace after load"; return 1; }
	rmmod trace-events-sample || return 1
	! grep -q '^trace_events_sample ' /proc/modules || { echo "module still loaded after rmmod"; return 1; }
}

# Shard 0 of make test-full and make test-debug boots with the startup
# selftests (FTRACE_STARTUP_TEST; make test leaves them out): every
# tracer's selftest ran at boot, function_args' among them, and the batch
# direct interface's.
t_startup_selftest() {
	grep -qw 'ftrace=nop' /proc/cmdline &&
		{ echo "booted with ftrace=nop: this guest runs no startup selftests (shard 0 of make test-full and make test-debug does)"; return 2; }
	# a kernel without them (make deb's own: Debian's config) has none
	if [ -r "$kconfig" ] && ! zcat -f "$kconfig" | grep -qx 'CONFIG_FTRACE_STARTUP_TEST=y'; then
		echo "$kconfig has no FTRACE_STARTUP_TEST: this kernel runs no startup selftests"
		return 2
	fi
	dmesg | grep -E 'FAILED' &&
		{ echo "a startup selftest failed"; return 1; }
	dmesg | grep -q 'Testing tracer function_args: PASSED' ||
		{ echo "no 'Testing tracer function_args: PASSED' in dmesg"; return 1; }
	dmesg | grep -q 'Testing ftrace direct batch: PASSED' ||
		{ echo "no 'Testing ftrace direct batch: PASSED' in dmesg"; return 1; }
	# The struct-returned-in-memory check passes without checking when
	# pahole left its function out of BTF: that is no pass here.
	dmesg | grep 'function_args selftest: .* not checked' &&
		{ echo "a function_args selftest was skipped"; return 1; }
	return 0
}

reset_tracing
run_test "harness: booted release $release" t_release
run_test "harness: the guest machine: 2 CPUs, virtio interrupts, TSC clock" t_machine
run_test "harness: startup selftests, function_args and direct batch included" t_startup_selftest
run_test "harness: tracefs mounted with function tracers" t_tracefs
run_test "harness: function tracer records vfs_read" t_function_vfs_read
run_test "harness: host trace-cmd records and reports in the guest" t_trace_cmd
run_test "harness: module load and unload" t_modules
