// SPDX-License-Identifier: GPL-2.0
/* Tracing multi links: one program on bpf_fentry_test1..9 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <stdbool.h>
#include "bpf_kfuncs.h"

char _license[] SEC("license") = "GPL";

int pid;
bool test_cookie;

/* Per function N (1 to 9): calls whose arguments, count and return were right */
__u64 entry_result[10];
__u64 exit_result[10];
__u64 single_result;

/* The address of bpf_fentry_testN, from kallsyms: set by the test */
__u64 func_addr[10];

static __always_inline int func_idx(__u64 ip)
{
	int i;

	for (i = 1; i < 10; i++) {
		if (func_addr[i] == ip)
			return i;
	}
	return 0;
}

static __always_inline void check(void *ctx, bool is_return)
{
	__u64 a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, ret = 0;
	__u64 cnt = bpf_get_func_arg_cnt(ctx);
	int i = func_idx(bpf_get_func_ip(ctx));
	bool ok;

	if (bpf_get_current_pid_tgid() >> 32 != pid || !i)
		return;
	bpf_get_func_arg(ctx, 0, &a0);
	bpf_get_func_arg(ctx, 1, &a1);
	bpf_get_func_arg(ctx, 2, &a2);
	bpf_get_func_arg(ctx, 3, &a3);
	bpf_get_func_arg(ctx, 4, &a4);
	bpf_get_func_arg(ctx, 5, &a5);
	if (is_return)
		bpf_get_func_ret(ctx, &ret);

	switch (i) {
	case 1:
		ok = cnt == 1 && (int)a0 == 1 && (!is_return || (int)ret == 2);
		break;
	case 2:
		ok = cnt == 2 && (int)a0 == 2 && a1 == 3 &&
		     (!is_return || (int)ret == 5);
		break;
	case 3:
		ok = cnt == 3 && (char)a0 == 4 && (int)a1 == 5 && a2 == 6 &&
		     (!is_return || (int)ret == 15);
		break;
	case 4:
		ok = cnt == 4 && a0 == 7 && (char)a1 == 8 && (int)a2 == 9 &&
		     a3 == 10 && (!is_return || (int)ret == 34);
		break;
	case 5:
		ok = cnt == 5 && a0 == 11 && a1 == 12 && (short)a2 == 13 &&
		     (int)a3 == 14 && a4 == 15 && (!is_return || (int)ret == 65);
		break;
	case 6:
		ok = cnt == 6 && a0 == 16 && a1 == 17 && (short)a2 == 18 &&
		     (int)a3 == 19 && a4 == 20 && a5 == 21 &&
		     (!is_return || (int)ret == 111);
		break;
	case 7:
		ok = cnt == 1 && a0 == 0 && (!is_return || (int)ret == 0);
		break;
	default:
		/* bpf_fentry_test8 and 9 take a pointer to the caller's stack */
		ok = cnt == 1 && a0 && (!is_return || (int)ret == 0);
		break;
	}
	if (test_cookie)
		ok = ok && bpf_get_attach_cookie(ctx) == i;
	if (is_return)
		exit_result[i] += ok;
	else
		entry_result[i] += ok;
}

SEC("fentry.multi/bpf_fentry_test?")
int BPF_PROG(fentry_auto)
{
	check(ctx, false);
	return 0;
}

SEC("fexit.multi/bpf_fentry_test?")
int BPF_PROG(fexit_auto)
{
	check(ctx, true);
	return 0;
}

/* Attached by the test, to a pattern or to ids */
SEC("fentry.multi")
int BPF_PROG(fentry_manual)
{
	check(ctx, false);
	return 0;
}

SEC("fexit.multi")
int BPF_PROG(fexit_manual)
{
	check(ctx, true);
	return 0;
}

/* A single fentry on a function that multi links share */
SEC("fentry/bpf_fentry_test1")
int BPF_PROG(fentry_single, int a)
{
	if (bpf_get_current_pid_tgid() >> 32 == pid && a == 1)
		single_result++;
	return 0;
}

/* Sleepable: bpf_copy_from_user() is for sleepable programs only */
__u64 user_ptr;
__u64 sleepable_result;

SEC("fentry.multi.s")
int BPF_PROG(fentry_sleepable)
{
	char c;

	if (bpf_get_current_pid_tgid() >> 32 != pid)
		return 0;
	if (!bpf_copy_from_user(&c, 1, (void *)user_ptr) && c == 'x' &&
	    bpf_get_func_ip(ctx) == func_addr[0])
		sleepable_result++;
	return 0;
}

/*
 * fsession: one program at entry and at exit of bpf_fentry_test1..9.  The
 * entry run leaves a cookie for the exit run, and skips the exit run of
 * bpf_fentry_test2.  bpf_kfuncs.h declares the session kfuncs.
 */
__u64 session_entry[10];
__u64 session_exit[10];
__u64 session_ret1;

SEC("fsession.multi/bpf_fentry_test?")
int BPF_PROG(fsession_auto)
{
	int i = func_idx(bpf_get_func_ip(ctx));
	__u64 *cookie = bpf_session_cookie();
	__u64 ret = 0;

	if (bpf_get_current_pid_tgid() >> 32 != pid || !i)
		return 0;
	if (!bpf_session_is_return()) {
		*cookie = 0xc0 + i;
		session_entry[i]++;
		return i == 2;
	}
	bpf_get_func_ret(ctx, &ret);
	if (i == 1)
		session_ret1 = ret;
	if (*cookie == 0xc0 + i)
		session_exit[i]++;
	return 0;
}
