// SPDX-License-Identifier: GPL-2.0
/* A tracing multi link on functions of vmlinux and of bpf_testmod together */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <stdbool.h>

char _license[] SEC("license") = "GPL";

#define NR_SLOTS	8

int pid;

/*
 * Function N of the link (0 to 7), set by the test: its address from
 * kallsyms, its argument count, first argument and return value.  Its
 * cookie is N + 1.
 */
__u64 func_addr[NR_SLOTS];
__u64 func_cnt[NR_SLOTS];
__u64 func_arg0[NR_SLOTS];
__u64 func_ret[NR_SLOTS];

/* Per function: calls whose count, first argument, return and cookie were right */
__u64 entry_result[NR_SLOTS];
__u64 exit_result[NR_SLOTS];

static __always_inline int func_idx(__u64 ip)
{
	int i;

	for (i = 0; i < NR_SLOTS; i++) {
		if (func_addr[i] && func_addr[i] == ip)
			return i;
	}
	return -1;
}

static __always_inline void check(void *ctx, bool is_return)
{
	__u64 cnt = bpf_get_func_arg_cnt(ctx);
	int i = func_idx(bpf_get_func_ip(ctx));
	__u64 a0 = 0, ret = 0;
	bool ok;

	if (bpf_get_current_pid_tgid() >> 32 != pid || i < 0)
		return;
	bpf_get_func_arg(ctx, 0, &a0);
	if (is_return)
		bpf_get_func_ret(ctx, &ret);
	ok = cnt == func_cnt[i] && (int)a0 == (int)func_arg0[i] &&
	     (!is_return || (int)ret == (int)func_ret[i]) &&
	     bpf_get_attach_cookie(ctx) == i + 1;
	if (is_return)
		exit_result[i] += ok;
	else
		entry_result[i] += ok;
}

/* Attached by the test, to ids of two BTFs */
SEC("fentry.multi")
int BPF_PROG(fentry_mixed)
{
	check(ctx, false);
	return 0;
}

SEC("fexit.multi")
int BPF_PROG(fexit_mixed)
{
	check(ctx, true);
	return 0;
}
