// SPDX-License-Identifier: GPL-2.0
/* Tracing multi links on bpf_testmod's functions with struct arguments */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <stdbool.h>

char _license[] SEC("license") = "GPL";

int pid;

/* Per function N (1 to 9): calls whose arguments, count and return were right */
__u64 entry_result[10];
__u64 exit_result[10];

/* bpf_get_func_arg_cnt() at entry of function N: argument slots, not arguments */
__u64 arg_cnt[10];

/* The address of bpf_testmod_test_struct_arg_N, from kallsyms: set by the test */
__u64 func_addr[10];

static __always_inline int func_idx(__u64 ip)
{
	int i;

	for (i = 1; i < 10; i++) {
		if (func_addr[i] && func_addr[i] == ip)
			return i;
	}
	return 0;
}

/*
 * The values that bpf_testmod_test_read() passes (tracing_struct.c reads
 * them with single links).  A struct of up to 16 bytes passed by value
 * takes one 8-byte slot per 8 bytes: bpf_testmod_struct_arg_1 {int a} =
 * {10} one; bpf_testmod_struct_arg_2 {long a; long b} = {2, 3} two;
 * bpf_testmod_struct_arg_4 {u64 a; int b} = {21, 22} two;
 * bpf_testmod_struct_arg_5 {char a; short b; int c; long d} =
 * {23, 24, 25, 26} two, a, b and c sharing the first.
 */
static __always_inline void check(void *ctx, bool is_return)
{
	__u64 cnt = bpf_get_func_arg_cnt(ctx);
	int i = func_idx(bpf_get_func_ip(ctx));
	__u64 a[10] = {}, ret = 0;
	int n, b0 = 0;
	bool ok;

	if (bpf_get_current_pid_tgid() >> 32 != pid || !i)
		return;
	for (n = 0; n < 10; n++)
		bpf_get_func_arg(ctx, n, &a[n]);
	if (is_return)
		bpf_get_func_ret(ctx, &ret);
	else
		arg_cnt[i] = cnt;

	switch (i) {
	case 1:
		/* (struct bpf_testmod_struct_arg_2 a, int b, int c) */
		ok = cnt == 4 && a[0] == 2 && a[1] == 3 && (int)(a[2]) == 1 &&
		     (int)(a[3]) == 4 && (!is_return || (int)ret == 10);
		break;
	case 2:
		/* (int a, struct bpf_testmod_struct_arg_2 b, int c) */
		ok = cnt == 4 && (int)(a[0]) == 1 && a[1] == 2 && a[2] == 3 &&
		     (int)(a[3]) == 4 && (!is_return || (int)ret == 10);
		break;
	case 3:
		/* (int a, int b, struct bpf_testmod_struct_arg_2 c) */
		ok = cnt == 4 && (int)(a[0]) == 1 && (int)(a[1]) == 4 &&
		     a[2] == 2 && a[3] == 3 && (!is_return || (int)ret == 10);
		break;
	case 4:
		/* (struct bpf_testmod_struct_arg_1 a, int b, int c, int d,
		 *  struct bpf_testmod_struct_arg_2 e)
		 */
		ok = cnt == 6 && (int)(a[0]) == 10 && (int)(a[1]) == 1 &&
		     (int)(a[2]) == 2 && (int)(a[3]) == 3 && a[4] == 2 &&
		     a[5] == 3 && (!is_return || (int)ret == 21);
		break;
	case 5:
		/* (void) */
		ok = cnt == 0 && (!is_return || (int)ret == 1);
		break;
	case 6:
		/* (struct bpf_testmod_struct_arg_3 *a), a->b[0] == 1 */
		ok = cnt == 1 && a[0] &&
		     !bpf_probe_read_kernel(&b0, sizeof(b0), (void *)(a[0] + 4)) &&
		     b0 == 1 && (!is_return || (int)ret == 1);
		break;
	case 7:
		/* (u64 a, void *b, short c, int d, void *e,
		 *  struct bpf_testmod_struct_arg_4 f): f is on the stack
		 */
		ok = cnt == 7 && a[0] == 16 && a[1] == 17 && (short)(a[2]) == 18 &&
		     (int)(a[3]) == 19 && a[4] == 20 && a[5] == 21 &&
		     (int)(a[6]) == 22 && (!is_return || (int)ret == 133);
		break;
	case 8:
		/* as 7, then int g */
		ok = cnt == 8 && a[0] == 16 && a[1] == 17 && (short)(a[2]) == 18 &&
		     (int)(a[3]) == 19 && a[4] == 20 && a[5] == 21 &&
		     (int)(a[6]) == 22 && (int)(a[7]) == 23 &&
		     (!is_return || (int)ret == 156);
		break;
	default:
		/* (u64 a, void *b, short c, int d, void *e, char f, short g,
		 *  struct bpf_testmod_struct_arg_5 h, long i): g, h, i on the stack
		 */
		ok = cnt == 10 && a[0] == 16 && a[1] == 17 && (short)(a[2]) == 18 &&
		     (int)(a[3]) == 19 && a[4] == 20 && (char)(a[5]) == 21 &&
		     (short)(a[6]) == 22 && (char)(a[7]) == 23 &&
		     (short)(a[7] >> 16) == 24 && (int)(a[7] >> 32) == 25 &&
		     a[8] == 26 && a[9] == 27 && (!is_return || (int)ret == 258);
		break;
	}
	if (is_return)
		exit_result[i] += ok;
	else
		entry_result[i] += ok;
}

SEC("fentry.multi/bpf_testmod:bpf_testmod_test_struct_arg_*")
int BPF_PROG(fentry_struct)
{
	check(ctx, false);
	return 0;
}

SEC("fexit.multi/bpf_testmod:bpf_testmod_test_struct_arg_*")
int BPF_PROG(fexit_struct)
{
	check(ctx, true);
	return 0;
}
