// SPDX-License-Identifier: GPL-2.0
/* Sleepable fexit.multi.s and fsession.multi.s programs on bpf_fentry_test1 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <stdbool.h>
#include "bpf_kfuncs.h"

char _license[] SEC("license") = "GPL";

int pid;

/* A byte of the test's memory: bpf_copy_from_user() is for sleepable programs only */
__u64 user_ptr;

/* The address of bpf_fentry_test1, from kallsyms: set by the test */
__u64 func_addr;

/* Runs at entry and at exit that saw bpf_fentry_test1(1), and its return 2 */
__u64 entry_result;
__u64 exit_result;

/* Our call of bpf_fentry_test1, and a read of our memory that may fault worked */
static __always_inline bool ours(void *ctx)
{
	char c;

	if (bpf_get_current_pid_tgid() >> 32 != pid ||
	    bpf_get_func_ip(ctx) != func_addr)
		return false;
	return !bpf_copy_from_user(&c, 1, (void *)user_ptr) && c == 'x';
}

SEC("fexit.multi.s")
int BPF_PROG(fexit_sleepable)
{
	__u64 a0 = 0, ret = 0;

	if (!ours(ctx))
		return 0;
	bpf_get_func_arg(ctx, 0, &a0);
	bpf_get_func_ret(ctx, &ret);
	if ((int)a0 == 1 && (int)ret == 2)
		exit_result++;
	return 0;
}

/* The entry run leaves a cookie for the exit run */
SEC("fsession.multi.s")
int BPF_PROG(fsession_sleepable)
{
	__u64 *cookie = bpf_session_cookie();
	__u64 a0 = 0, ret = 0;

	if (!ours(ctx))
		return 0;
	bpf_get_func_arg(ctx, 0, &a0);
	if (!bpf_session_is_return()) {
		*cookie = 0x5eed;
		if ((int)a0 == 1)
			entry_result++;
		return 0;
	}
	bpf_get_func_ret(ctx, &ret);
	if ((int)a0 == 1 && (int)ret == 2 && *cookie == 0x5eed)
		exit_result++;
	return 0;
}
