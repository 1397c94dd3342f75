// SPDX-License-Identifier: GPL-2.0
/* Tracing multi links on bpf_testmod's functions, stack arguments included */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <stdbool.h>

char _license[] SEC("license") = "GPL";

int pid;

/* Indexed by the function's number: 1, 2, 3, 7, 11 */
__u64 entry_result[12];
__u64 exit_result[12];

/* The address of bpf_testmod_fentry_testN, from kallsyms: set by the test */
__u64 func_addr[12];

static __always_inline int func_idx(__u64 ip)
{
	int i;

	for (i = 1; i < 12; i++) {
		if (func_addr[i] && func_addr[i] == ip)
			return i;
	}
	return 0;
}

static __always_inline void check(void *ctx, bool is_return)
{
	__u64 a[11] = {};
	__u64 ret = 0;
	__u64 cnt = bpf_get_func_arg_cnt(ctx);
	int i = func_idx(bpf_get_func_ip(ctx));
	int n;
	bool ok;

	if (bpf_get_current_pid_tgid() >> 32 != pid || !i)
		return;
	for (n = 0; n < 11; n++)
		bpf_get_func_arg(ctx, n, &a[n]);
	if (is_return)
		bpf_get_func_ret(ctx, &ret);

	switch (i) {
	case 1:
		ok = cnt == 1 && (int)(a[0]) == 1 && (!is_return || (int)ret == 2);
		break;
	case 2:
		ok = cnt == 2 && (int)(a[0]) == 2 && a[1] == 3 &&
		     (!is_return || (int)ret == 5);
		break;
	case 3:
		ok = cnt == 3 && (char)(a[0]) == 4 && (int)(a[1]) == 5 && a[2] == 6 &&
		     (!is_return || (int)ret == 15);
		break;
	case 7:
		/* the seventh argument is on the stack */
		ok = cnt == 7 && a[0] == 16 && a[1] == 17 && (short)(a[2]) == 18 &&
		     (int)(a[3]) == 19 && a[4] == 20 && (char)(a[5]) == 21 &&
		     (int)(a[6]) == 22 && (!is_return || (int)ret == 133);
		break;
	default:
		/* five arguments on the stack */
		ok = cnt == 11 && a[0] == 16 && (char)(a[5]) == 21 &&
		     (int)(a[6]) == 22 && (unsigned int)(a[7]) == 23 && a[8] == 24 &&
		     a[9] == 25 && a[10] == 26 && (!is_return || (int)ret == 231);
		break;
	}
	if (is_return)
		exit_result[i] += ok;
	else
		entry_result[i] += ok;
}

SEC("fentry.multi/bpf_testmod:bpf_testmod_fentry_test*")
int BPF_PROG(fentry_testmod)
{
	check(ctx, false);
	return 0;
}

SEC("fexit.multi/bpf_testmod:bpf_testmod_fentry_test*")
int BPF_PROG(fexit_testmod)
{
	check(ctx, true);
	return 0;
}
