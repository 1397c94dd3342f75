# SPDX-License-Identifier: GPL-2.0
# Helpers of the direct-* cases, which source this file (ftracetest runs
# only *.tc files).

# check_agree: every function in direct_functions has D in
# enabled_functions, and every D is in direct_functions
check_agree() {
	cut -d' ' -f1 direct_functions | sort > $TMPDIR/df
	grep -E '^[^ ]+ \([0-9]+\)( R|  )( I|  ) D' enabled_functions |
		cut -d' ' -f1 | sort > $TMPDIR/ef
	diff $TMPDIR/df $TMPDIR/ef
}

# ntramp: the BPF trampoline images, as kallsyms lists them
# (bpf_trampoline_KEY [bpf]; bpf_jit_kallsyms must be on)
ntramp() {
	grep -c ' bpf_trampoline_[0-9][0-9]*	\[bpf\]$' /proc/kallsyms || true
}
# wait_ntramp N: wait up to 20 s for ntramp to be N or less (an image goes
# after the grace periods that cover it, from a workqueue)
wait_ntramp() {
	for i in $(seq 200); do
		[ "$(ntramp)" -le "$1" ] && return 0
		sleep 0.1
	done
	echo "$(ntramp) BPF trampoline images, more than $1"
	return 1
}
