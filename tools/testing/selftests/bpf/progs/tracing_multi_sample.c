// SPDX-License-Identifier: GPL-2.0
/* Tracing multi links on the sample module ftrace_direct_batch, and beside it */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

#define NR_SLOTS	4

int pid;

/* Function N of the link, set by the test: its address from kallsyms */
__u64 func_addr[NR_SLOTS];

/* Per function: its calls, and the cookie of the last one */
__u64 calls[NR_SLOTS];
__u64 cookie[NR_SLOTS];

/* Every call, whichever function: how many, and the last one's address */
__u64 total;
__u64 last_ip;

/* Attached by the test, by pattern or by ids */
SEC("fentry.multi")
int BPF_PROG(fentry_sample)
{
	__u64 ip = bpf_get_func_ip(ctx);
	int i;

	if (bpf_get_current_pid_tgid() >> 32 != pid)
		return 0;
	total++;
	last_ip = ip;
	for (i = 0; i < NR_SLOTS; i++) {
		if (func_addr[i] && func_addr[i] == ip) {
			calls[i]++;
			cookie[i] = bpf_get_attach_cookie(ctx);
			break;
		}
	}
	return 0;
}
