// SPDX-License-Identifier: GPL-2.0
/* Tracing multi links: one fentry.multi/fexit.multi program on many functions */
#include <test_progs.h>
#include <bpf/btf.h>
#include <sys/syscall.h>
#include "tracing_multi.skel.h"
#include "tracing_multi_testmod.skel.h"
#include "trace_helpers.h"

#define NR_FUNCS 9

/* Tracing multi links are x86-64 only */
#define SYSCALL_GETPGID "__x64_sys_getpgid"

/* Tell the programs where the functions are: @fmt with N is a name */
static int set_addrs(__u64 *addrs, const char *fmt, const int *nums, int cnt)
{
	struct ksyms *ksyms = load_kallsyms_local();
	char name[64];
	int i, err = 0;

	if (!ASSERT_OK_PTR(ksyms, "load_kallsyms_local"))
		return -1;
	for (i = 0; i < cnt; i++) {
		snprintf(name, sizeof(name), fmt, nums[i]);
		addrs[nums[i]] = ksym_get_addr_local(ksyms, name);
		if (!ASSERT_NEQ(addrs[nums[i]], 0, name))
			err = -1;
	}
	free_kallsyms_local(ksyms);
	return err;
}

static const int fentry_nums[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const int testmod_nums[] = { 1, 2, 3, 7, 11 };

/* The skeleton, loaded, with the functions' addresses and our pid */
static struct tracing_multi *load(void)
{
	struct tracing_multi *skel = tracing_multi__open_and_load();

	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return NULL;
	skel->bss->pid = getpid();
	if (set_addrs(skel->bss->func_addr, "bpf_fentry_test%d", fentry_nums,
		      ARRAY_SIZE(fentry_nums))) {
		tracing_multi__destroy(skel);
		return NULL;
	}
	return skel;
}

static void reset(struct tracing_multi *skel)
{
	memset(skel->bss->entry_result, 0, sizeof(skel->bss->entry_result));
	memset(skel->bss->exit_result, 0, sizeof(skel->bss->exit_result));
	skel->bss->single_result = 0;
}

/* Call bpf_fentry_test1..9 once each, through BPF_PROG_TEST_RUN */
static void trigger(struct tracing_multi *skel)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.fentry_manual),
				     &topts);
	ASSERT_OK(err, "test_run");
	ASSERT_EQ(topts.retval, 0, "test_run retval");
}

/* Each of bpf_fentry_test1..9 was seen @want times with the right values */
static void check(__u64 *result, __u64 want, const char *name)
{
	int i;

	for (i = 1; i <= NR_FUNCS; i++) {
		if (!ASSERT_EQ(result[i], want, name))
			fprintf(stderr, "%s: bpf_fentry_test%d\n", name, i);
	}
}

static void test_skel_api(void)
{
	struct tracing_multi *skel;

	skel = load();
	if (!skel)
		return;
	bpf_program__set_autoattach(skel->progs.fentry_single, false);
	if (!ASSERT_OK(tracing_multi__attach(skel), "attach"))
		goto cleanup;
	ASSERT_OK_PTR(skel->links.fentry_auto, "fentry_auto link");
	ASSERT_OK_PTR(skel->links.fexit_auto, "fexit_auto link");
	ASSERT_OK_PTR(skel->links.fsession_auto, "fsession_auto link");
	ASSERT_NULL(skel->links.fentry_manual, "no auto-attach without pattern");

	trigger(skel);
	check(skel->bss->entry_result, 1, "entry");
	check(skel->bss->exit_result, 1, "exit");

	/* Detached: nothing counts any more */
	tracing_multi__detach(skel);
	reset(skel);
	trigger(skel);
	check(skel->bss->entry_result, 0, "entry after detach");
cleanup:
	tracing_multi__destroy(skel);
}

static void test_link_api_pattern(void)
{
	struct tracing_multi *skel;
	struct bpf_link *entry, *exit;

	skel = load();
	if (!skel)
		return;
	entry = bpf_program__attach_tracing_multi(skel->progs.fentry_manual,
						  "bpf_fentry_test?", NULL);
	exit = bpf_program__attach_tracing_multi(skel->progs.fexit_manual,
						 "bpf_fentry_test?", NULL);
	if (ASSERT_OK_PTR(entry, "attach entry") && ASSERT_OK_PTR(exit, "attach exit")) {
		trigger(skel);
		check(skel->bss->entry_result, 1, "entry");
		check(skel->bss->exit_result, 1, "exit");
	}
	bpf_link__destroy(entry);
	bpf_link__destroy(exit);

	/* A pattern that matches nothing */
	entry = bpf_program__attach_tracing_multi(skel->progs.fentry_manual,
						  "no_such_function_*", NULL);
	ASSERT_ERR_PTR(entry, "pattern matching nothing");
	ASSERT_EQ(errno, ENOENT, "pattern matching nothing errno");
	tracing_multi__destroy(skel);
}

/* The BTF ids of bpf_fentry_test1..9 */
static int get_ids(__u32 *ids)
{
	struct btf *btf;
	char name[32];
	int i, id;

	btf = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(btf, "btf__load_vmlinux_btf"))
		return -1;
	for (i = 0; i < NR_FUNCS; i++) {
		snprintf(name, sizeof(name), "bpf_fentry_test%d", i + 1);
		id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
		if (!ASSERT_GT(id, 0, name))
			break;
		ids[i] = id;
	}
	btf__free(btf);
	return i == NR_FUNCS ? 0 : -1;
}

static void test_link_api_ids(void)
{
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts);
	struct bpf_link_info info = {};
	__u32 ids[NR_FUNCS], info_ids[NR_FUNCS], len = sizeof(info);
	__u64 cookies[NR_FUNCS], addrs[NR_FUNCS], info_cookies[NR_FUNCS];
	struct tracing_multi *skel;
	struct bpf_link *link;
	int i, err;

	if (get_ids(ids))
		return;
	for (i = 0; i < NR_FUNCS; i++)
		cookies[i] = i + 1;
	skel = load();
	if (!skel)
		return;
	skel->bss->test_cookie = true;
	opts.ids = ids;
	opts.cookies = cookies;
	opts.cnt = NR_FUNCS;
	link = bpf_program__attach_tracing_multi(skel->progs.fexit_manual, NULL, &opts);
	if (!ASSERT_OK_PTR(link, "attach"))
		goto cleanup;
	trigger(skel);
	check(skel->bss->exit_result, 1, "exit with cookies");

	/* The link's info: its functions, their addresses and cookies */
	info.tracing_multi.ids = ptr_to_u64(info_ids);
	info.tracing_multi.addrs = ptr_to_u64(addrs);
	info.tracing_multi.cookies = ptr_to_u64(info_cookies);
	info.tracing_multi.count = NR_FUNCS;
	err = bpf_link_get_info_by_fd(bpf_link__fd(link), &info, &len);
	if (ASSERT_OK(err, "link info")) {
		ASSERT_EQ(info.type, BPF_LINK_TYPE_TRACING_MULTI, "link type");
		ASSERT_EQ(info.tracing_multi.attach_type, BPF_TRACE_FEXIT_MULTI,
			  "attach type");
		ASSERT_EQ(info.tracing_multi.count, NR_FUNCS, "count");
		for (i = 0; i < NR_FUNCS; i++) {
			ASSERT_EQ(info_ids[i], ids[i], "id");
			ASSERT_EQ(info_cookies[i], cookies[i], "cookie");
			ASSERT_NEQ(addrs[i], 0, "addr");
		}
	}
	/* Too short an array: ENOSPC, and the count */
	info.tracing_multi.count = 1;
	err = bpf_link_get_info_by_fd(bpf_link__fd(link), &info, &len);
	ASSERT_EQ(err, -ENOSPC, "link info, short array");
	bpf_link__destroy(link);
cleanup:
	tracing_multi__destroy(skel);
}

/*
 * One function, three programs: a single fentry and two multi links; each
 * sees each call, and detaching in either order leaves the others.
 */
static void test_intersect(void)
{
	struct bpf_link *single = NULL, *multi1 = NULL, *multi2 = NULL;
	struct tracing_multi *skel;

	skel = load();
	if (!skel)
		return;

	single = bpf_program__attach(skel->progs.fentry_single);
	multi1 = bpf_program__attach_tracing_multi(skel->progs.fentry_manual,
						   "bpf_fentry_test?", NULL);
	multi2 = bpf_program__attach_tracing_multi(skel->progs.fexit_manual,
						   "bpf_fentry_test1", NULL);
	if (!ASSERT_OK_PTR(single, "single") || !ASSERT_OK_PTR(multi1, "multi1") ||
	    !ASSERT_OK_PTR(multi2, "multi2"))
		goto cleanup;
	trigger(skel);
	ASSERT_EQ(skel->bss->single_result, 1, "single");
	check(skel->bss->entry_result, 1, "multi1");
	ASSERT_EQ(skel->bss->exit_result[1], 1, "multi2");

	/* The single link goes first: the multi links stay */
	bpf_link__destroy(single);
	single = NULL;
	reset(skel);
	trigger(skel);
	ASSERT_EQ(skel->bss->single_result, 0, "single detached");
	check(skel->bss->entry_result, 1, "multi1 after single");
	ASSERT_EQ(skel->bss->exit_result[1], 1, "multi2 after single");

	/* A multi link goes first: the single link stays */
	single = bpf_program__attach(skel->progs.fentry_single);
	bpf_link__destroy(multi1);
	multi1 = NULL;
	reset(skel);
	trigger(skel);
	if (ASSERT_OK_PTR(single, "single again"))
		ASSERT_EQ(skel->bss->single_result, 1, "single after multi1");
	check(skel->bss->entry_result, 0, "multi1 detached");
	ASSERT_EQ(skel->bss->exit_result[1], 1, "multi2 after multi1");
cleanup:
	bpf_link__destroy(single);
	bpf_link__destroy(multi1);
	bpf_link__destroy(multi2);
	tracing_multi__destroy(skel);
}

/* BPF_LINK_CREATE with @ids; returns the fd or -errno */
static int link_create(int prog_fd, const __u32 *ids, __u32 cnt)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	int fd;

	opts.tracing_multi.ids = ids;
	opts.tracing_multi.cnt = cnt;
	fd = bpf_link_create(prog_fd, 0, BPF_TRACE_FENTRY_MULTI, &opts);
	return fd < 0 ? -errno : fd;
}

/* All or nothing, with clear errnos; a failed attach leaves nothing */
static void test_attach_fail(void)
{
	__u32 ids[NR_FUNCS + 1], *many;
	struct tracing_multi *skel;
	struct btf *btf;
	int prog_fd, fd, denied, notrace, not_func;

	if (get_ids(ids))
		return;
	btf = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(btf, "btf__load_vmlinux_btf"))
		return;
	denied = btf__find_by_name_kind(btf, "migrate_disable", BTF_KIND_FUNC);
	notrace = btf__find_by_name_kind(btf, "ftrace_direct_batch_count",
					 BTF_KIND_FUNC);
	not_func = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	btf__free(btf);

	skel = load();
	if (!skel)
		return;
	prog_fd = bpf_program__fd(skel->progs.fentry_manual);

	/* a function twice */
	ids[NR_FUNCS] = ids[0];
	ASSERT_EQ(link_create(prog_fd, ids, NR_FUNCS + 1), -EINVAL, "duplicate");
	/* an id that is no function */
	if (ASSERT_GT(not_func, 0, "task_struct")) {
		ids[NR_FUNCS] = not_func;
		ASSERT_EQ(link_create(prog_fd, ids, NR_FUNCS + 1), -EINVAL, "not a FUNC");
	}
	/* a function that BPF must not trace */
	if (ASSERT_GT(denied, 0, "migrate_disable")) {
		ids[NR_FUNCS] = denied;
		ASSERT_EQ(link_create(prog_fd, ids, NR_FUNCS + 1), -EINVAL, "deny list");
	}
	/* a function that ftrace does not trace */
	if (ASSERT_GT(notrace, 0, "ftrace_direct_batch_count")) {
		ids[NR_FUNCS] = notrace;
		ASSERT_EQ(link_create(prog_fd, ids, NR_FUNCS + 1), -ENODEV, "notrace");
	}
	/* no ids, and too many */
	ASSERT_EQ(link_create(prog_fd, ids, 0), -EINVAL, "cnt 0");
	many = calloc(131073, sizeof(*many));
	if (ASSERT_OK_PTR(many, "calloc")) {
		ASSERT_EQ(link_create(prog_fd, many, 131073), -E2BIG, "cnt over the limit");
		free(many);
	}
	/* the program type must match the link's attach type */
	{
		LIBBPF_OPTS(bpf_link_create_opts, opts);

		opts.tracing_multi.ids = ids;
		opts.tracing_multi.cnt = NR_FUNCS;
		fd = bpf_link_create(prog_fd, 0, BPF_TRACE_FEXIT_MULTI, &opts);
		ASSERT_LT(fd, 0, "attach type mismatch");
		if (fd >= 0)
			close(fd);
	}

	/* None of those left anything: the functions attach, once each */
	fd = link_create(prog_fd, ids, NR_FUNCS);
	if (ASSERT_GE(fd, 0, "attach after failures")) {
		trigger(skel);
		check(skel->bss->entry_result, 1, "entry after failures");
		close(fd);
	}
	tracing_multi__destroy(skel);
}

/* A multi program that reads its context is refused, with a message */
static void test_verifier(void)
{
	struct bpf_insn insns[] = {
		BPF_LDX_MEM(BPF_DW, BPF_REG_0, BPF_REG_1, 0),
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	char log[4096] = {};
	int fd;

	opts.expected_attach_type = BPF_TRACE_FENTRY_MULTI;
	opts.log_buf = log;
	opts.log_size = sizeof(log);
	opts.log_level = 1;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "ctx_read", "GPL", insns,
			   ARRAY_SIZE(insns), &opts);
	if (!ASSERT_LT(fd, 0, "ctx read refused")) {
		close(fd);
		return;
	}
	ASSERT_HAS_SUBSTR(log, "reads its arguments with bpf_get_func_arg()",
			  "verifier message");

	/* and with an attach_btf_id, as a single fentry would have */
	insns[0] = BPF_MOV64_IMM(BPF_REG_0, 0);
	opts.attach_btf_id = 1;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "with_btf_id", "GPL", insns,
			   ARRAY_SIZE(insns), &opts);
	ASSERT_LT(fd, 0, "attach_btf_id refused");
	if (fd >= 0)
		close(fd);
}

static void test_testmod(void)
{
	struct tracing_multi_testmod *skel;
	int i, err;

	skel = tracing_multi_testmod__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	skel->bss->pid = getpid();
	if (set_addrs(skel->bss->func_addr, "bpf_testmod_fentry_test%d",
		      testmod_nums, ARRAY_SIZE(testmod_nums)))
		goto cleanup;
	if (!ASSERT_OK(tracing_multi_testmod__attach(skel), "attach"))
		goto cleanup;
	ASSERT_OK(trigger_module_test_read(1), "trigger_read");
	for (i = 1; i <= 11; i++) {
		__u64 want = i <= 3 || i == 7 || i == 11;

		ASSERT_EQ(skel->bss->entry_result[i], want, "testmod entry");
		ASSERT_EQ(skel->bss->exit_result[i], want, "testmod exit");
	}
	/* The links hold the module, as a single fentry does */
	err = syscall(__NR_delete_module, "bpf_testmod", O_NONBLOCK);
	ASSERT_ERR(err, "bpf_testmod unload refused");
	ASSERT_EQ(errno, EWOULDBLOCK, "unload errno");
cleanup:
	tracing_multi_testmod__destroy(skel);
}

/*
 * A sleepable multi program: on getpgid, which a sleepable fentry may
 * trace (a syscall allows error injection), not on bpf_fentry_test2
 * (bpf_fentry_test1 is a sleepable fmod_ret kfunc, which it may).
 */
static void test_sleepable(void)
{
	struct bpf_program *prog;
	struct tracing_multi *skel;
	struct bpf_link *link;
	struct ksyms *ksyms;
	char x = 'x';

	skel = load();
	if (!skel)
		return;
	prog = skel->progs.fentry_sleepable;
	skel->bss->user_ptr = (__u64)(unsigned long)&x;
	ksyms = load_kallsyms_local();
	if (!ASSERT_OK_PTR(ksyms, "load_kallsyms_local"))
		goto cleanup;
	skel->bss->func_addr[0] = ksym_get_addr_local(ksyms, SYSCALL_GETPGID);
	free_kallsyms_local(ksyms);

	link = bpf_program__attach_tracing_multi(prog, "bpf_fentry_test2", NULL);
	if (!ASSERT_ERR_PTR(link, "not on bpf_fentry_test2"))
		bpf_link__destroy(link);
	else
		ASSERT_EQ(libbpf_get_error(link), -EINVAL, "errno");
	link = bpf_program__attach_tracing_multi(prog, "bpf_fentry_test1", NULL);
	if (ASSERT_OK_PTR(link, "on bpf_fentry_test1"))
		bpf_link__destroy(link);

	link = bpf_program__attach_tracing_multi(prog, SYSCALL_GETPGID, NULL);
	if (!ASSERT_OK_PTR(link, "attach to getpgid"))
		goto cleanup;
	syscall(__NR_getpgid, 0);
	syscall(__NR_getpgid, 0);
	ASSERT_EQ(skel->bss->sleepable_result, 2, "sleepable calls");
	bpf_link__destroy(link);
cleanup:
	tracing_multi__destroy(skel);
}

/*
 * An fsession program with a fentry.multi and a fexit.multi program on
 * the same functions: each runs once a call, the session's exit run sees
 * its entry run's cookie, and returning 1 at entry skips the exit run.
 */
static void test_fsession(void)
{
	struct bpf_link *session, *entry = NULL, *exit = NULL;
	struct tracing_multi *skel;
	int i;

	skel = load();
	if (!skel)
		return;
	session = bpf_program__attach(skel->progs.fsession_auto);
	if (!ASSERT_OK_PTR(session, "attach fsession"))
		goto cleanup;
	entry = bpf_program__attach_tracing_multi(skel->progs.fentry_manual,
						  "bpf_fentry_test?", NULL);
	exit = bpf_program__attach_tracing_multi(skel->progs.fexit_manual,
						 "bpf_fentry_test?", NULL);
	if (!ASSERT_OK_PTR(entry, "attach fentry") ||
	    !ASSERT_OK_PTR(exit, "attach fexit"))
		goto cleanup;

	trigger(skel);
	for (i = 1; i <= NR_FUNCS; i++) {
		ASSERT_EQ(skel->bss->session_entry[i], 1, "session entry");
		ASSERT_EQ(skel->bss->session_exit[i], i != 2, "session exit");
	}
	ASSERT_EQ(skel->bss->session_ret1, 2, "bpf_fentry_test1 return");
	check(skel->bss->entry_result, 1, "entry beside fsession");
	check(skel->bss->exit_result, 1, "exit beside fsession");

	/* the session's link goes; the others stay */
	bpf_link__destroy(session);
	session = NULL;
	reset(skel);
	memset(skel->bss->session_entry, 0, sizeof(skel->bss->session_entry));
	trigger(skel);
	ASSERT_EQ(skel->bss->session_entry[1], 0, "session detached");
	check(skel->bss->entry_result, 1, "entry after fsession");
	check(skel->bss->exit_result, 1, "exit after fsession");
cleanup:
	bpf_link__destroy(session);
	bpf_link__destroy(entry);
	bpf_link__destroy(exit);
	tracing_multi__destroy(skel);
}

void test_tracing_multi(void)
{
	if (test__start_subtest("skel_api"))
		test_skel_api();
	if (test__start_subtest("link_api_pattern"))
		test_link_api_pattern();
	if (test__start_subtest("link_api_ids"))
		test_link_api_ids();
	if (test__start_subtest("intersect"))
		test_intersect();
	if (test__start_subtest("attach_fail"))
		test_attach_fail();
	if (test__start_subtest("verifier"))
		test_verifier();
	if (test__start_subtest("testmod"))
		test_testmod();
	if (test__start_subtest("sleepable"))
		test_sleepable();
	if (test__start_subtest("fsession"))
		test_fsession();
}
