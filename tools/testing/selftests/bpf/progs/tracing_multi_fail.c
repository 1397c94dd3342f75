// SPDX-License-Identifier: GPL-2.0
/*
 * Session kfuncs where the verifier must refuse them: in a tracepoint
 * program that claims fsession.multi's expected attach type, and in a
 * timer callback of an fsession.multi program, or a global function that
 * such a callback calls.  The test loads each one
 * alone.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <stdbool.h>
#include "bpf_kfuncs.h"

char _license[] SEC("license") = "GPL";

/* The test sets expected_attach_type to BPF_TRACE_FSESSION_MULTI */
SEC("?tp/syscalls/sys_enter_getpgid")
int tp_session_cookie(void *ctx)
{
	__u64 *cookie = bpf_session_cookie();

	*cookie = 1;
	return 0;
}

struct elem {
	struct bpf_timer timer;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} timers SEC(".maps");

/* Runs in softirq, outside any call of a traced function */
static int timer_cb(void *map, int *key, struct elem *val)
{
	__u64 *cookie = bpf_session_cookie();

	*cookie = 1;
	return 0;
}

/* Verified on its own: the verifier cannot tell who calls it */
__noinline int set_cookie(void)
{
	__u64 *cookie = bpf_session_cookie();

	*cookie = 1;
	return 0;
}

static int timer_cb_global(void *map, int *key, struct elem *val)
{
	return set_cookie();
}

#define CLOCK_MONOTONIC 1

/* Inlined into each program, so that @cb is a constant there */
static __always_inline int arm_timer(void *cb)
{
	struct elem *val;
	int key = 0;

	val = bpf_map_lookup_elem(&timers, &key);
	if (!val)
		return 0;
	bpf_timer_init(&val->timer, &timers, CLOCK_MONOTONIC);
	bpf_timer_set_callback(&val->timer, cb);
	return 0;
}

SEC("?fsession.multi")
int BPF_PROG(fsession_timer)
{
	return arm_timer(timer_cb);
}

SEC("?fsession.multi")
int BPF_PROG(fsession_timer_global)
{
	return arm_timer(timer_cb_global);
}
