// SPDX-License-Identifier: GPL-2.0
/* Tracing multi links: one fentry.multi/fexit.multi program on many functions */
#include <test_progs.h>
#include <bpf/btf.h>
#include <sys/syscall.h>
#include "tracing_multi.skel.h"
#include "tracing_multi_testmod.skel.h"
#include "tracing_multi_sleepable.skel.h"
#include "tracing_multi_mixed.skel.h"
#include "tracing_multi_struct.skel.h"
#include "tracing_multi_sample.skel.h"
#include "tracing_multi_fail.skel.h"
#include "cap_helpers.h"
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
static const int struct_nums[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

#define NR_TESTMOD ARRAY_SIZE(testmod_nums)

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

/* The BTF ids of the functions that @fmt with @nums names, in @btf */
static int find_ids(struct btf *btf, const char *fmt, const int *nums, int cnt,
		    __u32 *ids)
{
	char name[64];
	int i, id;

	for (i = 0; i < cnt; i++) {
		snprintf(name, sizeof(name), fmt, nums[i]);
		id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
		if (!ASSERT_GT(id, 0, name))
			return -1;
		ids[i] = id;
	}
	return 0;
}

/* The BTF ids of bpf_fentry_test1..9 */
static int get_ids(__u32 *ids)
{
	struct btf *btf;
	int err;

	btf = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(btf, "btf__load_vmlinux_btf"))
		return -1;
	err = find_ids(btf, "bpf_fentry_test%d", fentry_nums, NR_FUNCS, ids);
	btf__free(btf);
	return err;
}

/* The most functions that check_link_info() reads back */
#define MAX_INFO 16

/*
 * The info of link @fd: a tracing multi link of @type on the @cnt
 * functions @ids, in order, each at the address that @addrs gives (NULL:
 * any but 0) and with the cookie that @cookies gives (NULL: unchecked).
 */
static void check_link_info(int fd, enum bpf_attach_type type, __u32 cnt,
			    const __u32 *ids, const __u64 *addrs,
			    const __u64 *cookies)
{
	__u64 info_addrs[MAX_INFO], info_cookies[MAX_INFO];
	struct bpf_link_info info = {};
	__u32 info_ids[MAX_INFO], len = sizeof(info), i;

	if (!ASSERT_LE(cnt, MAX_INFO, "functions in the link info"))
		return;
	info.tracing_multi.ids = ptr_to_u64(info_ids);
	info.tracing_multi.addrs = ptr_to_u64(info_addrs);
	info.tracing_multi.cookies = ptr_to_u64(info_cookies);
	info.tracing_multi.count = cnt;
	if (!ASSERT_OK(bpf_link_get_info_by_fd(fd, &info, &len), "link info"))
		return;
	ASSERT_EQ(info.type, BPF_LINK_TYPE_TRACING_MULTI, "link type");
	ASSERT_EQ(info.tracing_multi.attach_type, type, "attach type");
	ASSERT_EQ(info.tracing_multi.count, cnt, "count");
	for (i = 0; i < cnt; i++) {
		ASSERT_EQ(info_ids[i], ids[i], "id");
		if (addrs)
			ASSERT_EQ(info_addrs[i], addrs[i], "addr");
		else
			ASSERT_NEQ(info_addrs[i], 0, "addr");
		if (cookies)
			ASSERT_EQ(info_cookies[i], cookies[i], "cookie");
	}
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
	/*
	 * the program type must match the link's attach type: link_create()
	 * refuses a BPF_PROG_TYPE_TRACING program whose expected_attach_type
	 * is not the link's with EINVAL, a fentry.multi program as a fexit or
	 * fsession multi link, and a single fentry program as a multi link
	 */
	{
		LIBBPF_OPTS(bpf_link_create_opts, opts);

		opts.tracing_multi.ids = ids;
		opts.tracing_multi.cnt = NR_FUNCS;
		fd = bpf_link_create(prog_fd, 0, BPF_TRACE_FEXIT_MULTI, &opts);
		if (!ASSERT_LT(fd, 0, "attach type mismatch"))
			close(fd);
		else
			ASSERT_EQ(errno, EINVAL, "attach type mismatch errno");
		fd = bpf_link_create(prog_fd, 0, BPF_TRACE_FSESSION_MULTI, &opts);
		if (!ASSERT_LT(fd, 0, "fsession mismatch"))
			close(fd);
		else
			ASSERT_EQ(errno, EINVAL, "fsession mismatch errno");
		fd = bpf_link_create(bpf_program__fd(skel->progs.fentry_single), 0,
				     BPF_TRACE_FENTRY_MULTI, &opts);
		if (!ASSERT_LT(fd, 0, "single fentry as multi"))
			close(fd);
		else
			ASSERT_EQ(errno, EINVAL, "single fentry as multi errno");
	}

	/* the union's bytes past tracing_multi are for later fields: 0 */
	{
		union bpf_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.link_create.prog_fd = prog_fd;
		attr.link_create.attach_type = BPF_TRACE_FENTRY_MULTI;
		attr.link_create.tracing_multi.ids = (__u64)(unsigned long)ids;
		attr.link_create.tracing_multi.cnt = NR_FUNCS;
		attr.link_create.uprobe_multi.pid = 1;
		fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
		if (!ASSERT_LT(fd, 0, "union tail not 0"))
			close(fd);
		else
			ASSERT_EQ(errno, EINVAL, "union tail not 0 errno");
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

/* Load @name of tracing_multi_fail alone; the verifier must refuse it */
static void load_refused(const char *name, enum bpf_attach_type type,
			 const char *msg)
{
	struct tracing_multi_fail *skel;
	struct bpf_program *prog;
	char log[8192] = {};
	int err;

	skel = tracing_multi_fail__open();
	if (!ASSERT_OK_PTR(skel, "open"))
		return;
	prog = bpf_object__find_program_by_name(skel->obj, name);
	if (!ASSERT_OK_PTR(prog, name))
		goto out;
	bpf_program__set_autoload(prog, true);
	bpf_program__set_log_buf(prog, log, sizeof(log));
	if (type)
		bpf_program__set_expected_attach_type(prog, type);
	err = tracing_multi_fail__load(skel);
	if (!ASSERT_ERR(err, name))
		goto out;
	if (!ASSERT_HAS_SUBSTR(log, msg, name))
		fprintf(stderr, "%s: the verifier said:\n%s\n", name, log);
out:
	tracing_multi_fail__destroy(skel);
}

/*
 * The session kfuncs read the run context of an fsession program's own
 * run: a tracepoint program (which shares the tracing kfunc hook) that
 * claims fsession.multi's attach type may not call them, nor may a timer
 * callback of an fsession.multi program, or a global function (which the
 * verifier checks apart from its callers) that the callback calls.
 */
static void test_session_kfuncs(void)
{
	load_refused("tp_session_cookie", BPF_TRACE_FSESSION_MULTI,
		     "calling kernel function bpf_session_cookie is not allowed");
	load_refused("fsession_timer", 0,
		     "bpf_session_cookie cannot be called from an async callback or a global function");
	load_refused("fsession_timer_global", 0,
		     "bpf_session_cookie cannot be called from an async callback or a global function");
}

/*
 * The link's last close may come from a task without CAP_BPF, over
 * net.core.bpf_jit_limit: the detach still builds bpf_fentry_test1's
 * image without the multi program (a single fentry stays there), and
 * returns.  Before, it retried that build for ever.
 */
static void test_detach_jit_limit(void)
{
	const char *path = "/proc/sys/net/core/bpf_jit_limit";
	__u64 caps = 1ULL << CAP_BPF | 1ULL << CAP_SYS_ADMIN |
		     1ULL << CAP_PERFMON, old_caps = 0;
	struct bpf_link *multi, *single = NULL;
	struct tracing_multi *skel;
	char limit[32] = {};
	FILE *f;

	skel = load();
	if (!skel)
		return;
	f = fopen(path, "r");
	if (!ASSERT_OK_PTR(f, "open bpf_jit_limit"))
		goto out;
	if (!ASSERT_OK_PTR(fgets(limit, sizeof(limit), f), "read bpf_jit_limit")) {
		fclose(f);
		goto out;
	}
	fclose(f);
	single = bpf_program__attach(skel->progs.fentry_single);
	multi = bpf_program__attach_tracing_multi(skel->progs.fentry_manual,
						  "bpf_fentry_test?", NULL);
	if (!ASSERT_OK_PTR(single, "attach single") ||
	    !ASSERT_OK_PTR(multi, "attach multi")) {
		bpf_link__destroy(multi);
		goto out;
	}
	trigger(skel);
	check(skel->bss->entry_result, 1, "multi attached");

	f = fopen(path, "w");
	if (!ASSERT_OK_PTR(f, "open bpf_jit_limit for writing")) {
		bpf_link__destroy(multi);
		goto out;
	}
	fputs("1", f);
	ASSERT_OK(fclose(f), "bpf_jit_limit 1");
	ASSERT_OK(cap_disable_effective(caps, &old_caps), "drop CAP_BPF");
	bpf_link__destroy(multi);
	ASSERT_OK(cap_enable_effective(old_caps, NULL), "restore caps");
	f = fopen(path, "w");
	if (ASSERT_OK_PTR(f, "open bpf_jit_limit again")) {
		fputs(limit, f);
		ASSERT_OK(fclose(f), "bpf_jit_limit restored");
	}

	reset(skel);
	trigger(skel);
	check(skel->bss->entry_result, 0, "multi detached");
	ASSERT_EQ(skel->bss->single_result, 1, "single fentry stays");
out:
	bpf_link__destroy(single);
	tracing_multi__destroy(skel);
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

/* Call bpf_fentry_test1..9 once each, through @prog's BPF_PROG_TEST_RUN */
static void trigger_prog(const struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &topts);
	ASSERT_OK(err, "test_run");
	ASSERT_EQ(topts.retval, 0, "test_run retval");
}

/*
 * Sleepable fexit.multi.s and fsession.multi.s programs, as test_sleepable
 * does for fentry.multi.s: refused with EINVAL on bpf_fentry_test2, which
 * neither allows error injection nor is a sleepable fmod_ret kfunc, and on
 * a pattern that names it beside bpf_fentry_test1 (all or nothing);
 * attached to bpf_fentry_test1, they read user memory and see its
 * argument and its return value.
 */
static void test_sleepable_exit(bool session)
{
	struct tracing_multi_sleepable *skel;
	struct bpf_program *prog;
	struct bpf_link *link;
	struct ksyms *ksyms;
	char x = 'x';

	skel = tracing_multi_sleepable__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	skel->bss->pid = getpid();
	skel->bss->user_ptr = (__u64)(unsigned long)&x;
	ksyms = load_kallsyms_local();
	if (!ASSERT_OK_PTR(ksyms, "load_kallsyms_local"))
		goto cleanup;
	skel->bss->func_addr = ksym_get_addr_local(ksyms, "bpf_fentry_test1");
	free_kallsyms_local(ksyms);
	if (!ASSERT_NEQ(skel->bss->func_addr, 0, "bpf_fentry_test1"))
		goto cleanup;
	prog = session ? skel->progs.fsession_sleepable : skel->progs.fexit_sleepable;

	link = bpf_program__attach_tracing_multi(prog, "bpf_fentry_test2", NULL);
	if (!ASSERT_ERR_PTR(link, "not on bpf_fentry_test2"))
		bpf_link__destroy(link);
	else
		ASSERT_EQ(libbpf_get_error(link), -EINVAL, "errno");
	link = bpf_program__attach_tracing_multi(prog, "bpf_fentry_test?", NULL);
	if (!ASSERT_ERR_PTR(link, "not on bpf_fentry_test?"))
		bpf_link__destroy(link);
	else
		ASSERT_EQ(libbpf_get_error(link), -EINVAL, "pattern errno");
	/* neither refusal left the program on bpf_fentry_test1 */
	trigger_prog(prog);
	ASSERT_EQ(skel->bss->entry_result, 0, "entry after refusals");
	ASSERT_EQ(skel->bss->exit_result, 0, "exit after refusals");

	link = bpf_program__attach_tracing_multi(prog, "bpf_fentry_test1", NULL);
	if (!ASSERT_OK_PTR(link, "on bpf_fentry_test1"))
		goto cleanup;
	trigger_prog(prog);
	trigger_prog(prog);
	ASSERT_EQ(skel->bss->entry_result, session ? 2 : 0, "sleepable entry runs");
	ASSERT_EQ(skel->bss->exit_result, 2, "sleepable exit runs");

	/* Detached: nothing counts any more */
	bpf_link__destroy(link);
	trigger_prog(prog);
	ASSERT_EQ(skel->bss->exit_result, 2, "exit after detach");
cleanup:
	tracing_multi_sleepable__destroy(skel);
}

/*
 * Module @mod's BTF object: its fd, which BPF_LINK_CREATE takes in
 * btf_fds, and its types (split on @vmlinux) in @btf.  Returns the fd or -1.
 */
static int module_btf(const char *mod, struct btf *vmlinux, struct btf **btf)
{
	struct bpf_btf_info info;
	char name[64];
	__u32 id = 0, len;
	int fd;

	while (!bpf_btf_get_next_id(id, &id)) {
		fd = bpf_btf_get_fd_by_id(id);
		if (fd < 0)
			continue;
		len = sizeof(info);
		memset(&info, 0, sizeof(info));
		info.name = ptr_to_u64(name);
		info.name_len = sizeof(name);
		if (!bpf_btf_get_info_by_fd(fd, &info, &len) && info.kernel_btf &&
		    !strcmp(name, mod)) {
			*btf = btf__load_from_kernel_by_id_split(id, vmlinux);
			if (ASSERT_OK_PTR(*btf, "module BTF"))
				return fd;
			*btf = NULL;
			close(fd);
			return -1;
		}
		close(fd);
	}
	PRINT_FAIL("no BTF object of %s\n", mod);
	return -1;
}

/* Module @mod's reference count, from sysfs; -1 if unknown */
static int module_refcnt(const char *mod)
{
	char path[128];
	FILE *f;
	int cnt;

	snprintf(path, sizeof(path), "/sys/module/%s/refcnt", mod);
	f = fopen(path, "r");
	if (!ASSERT_OK_PTR(f, path))
		return -1;
	if (fscanf(f, "%d", &cnt) != 1)
		cnt = -1;
	fclose(f);
	return cnt;
}

/*
 * bpf_testmod's functions by id, with the module's BTF object in btf_fds:
 * each call is seen with its arguments (stack arguments included), the
 * link info gives the ids and the addresses, and each link holds the
 * module once.  The module's ids without its BTF name nothing in
 * vmlinux's BTF: EINVAL.
 */
static void test_testmod_ids(void)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	__u32 ids[NR_TESTMOD], btf_fds[NR_TESTMOD];
	__u64 addrs[NR_TESTMOD];
	struct tracing_multi_testmod *skel = NULL;
	struct btf *vmlinux, *mod_btf = NULL;
	int mod_fd, fd, entry_fd = -1, exit_fd = -1;
	int i, err, refcnt;

	vmlinux = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(vmlinux, "btf__load_vmlinux_btf"))
		return;
	mod_fd = module_btf("bpf_testmod", vmlinux, &mod_btf);
	if (mod_fd < 0 || find_ids(mod_btf, "bpf_testmod_fentry_test%d",
				   testmod_nums, NR_TESTMOD, ids))
		goto cleanup;
	for (i = 0; i < NR_TESTMOD; i++)
		btf_fds[i] = mod_fd;

	skel = tracing_multi_testmod__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		goto cleanup;
	skel->bss->pid = getpid();
	if (set_addrs(skel->bss->func_addr, "bpf_testmod_fentry_test%d",
		      testmod_nums, NR_TESTMOD))
		goto cleanup;

	/* without the module's BTF */
	opts.tracing_multi.ids = ids;
	opts.tracing_multi.cnt = NR_TESTMOD;
	fd = bpf_link_create(bpf_program__fd(skel->progs.fentry_testmod), 0,
			     BPF_TRACE_FENTRY_MULTI, &opts);
	if (!ASSERT_LT(fd, 0, "module ids without btf_fds"))
		close(fd);
	else
		ASSERT_EQ(errno, EINVAL, "module ids without btf_fds errno");

	refcnt = module_refcnt("bpf_testmod");
	opts.tracing_multi.btf_fds = btf_fds;
	entry_fd = bpf_link_create(bpf_program__fd(skel->progs.fentry_testmod), 0,
				   BPF_TRACE_FENTRY_MULTI, &opts);
	exit_fd = bpf_link_create(bpf_program__fd(skel->progs.fexit_testmod), 0,
				  BPF_TRACE_FEXIT_MULTI, &opts);
	if (!ASSERT_GE(entry_fd, 0, "attach entry") ||
	    !ASSERT_GE(exit_fd, 0, "attach exit"))
		goto cleanup;

	ASSERT_OK(trigger_module_test_read(1), "trigger_read");
	for (i = 1; i <= 11; i++) {
		__u64 want = i <= 3 || i == 7 || i == 11;

		ASSERT_EQ(skel->bss->entry_result[i], want, "testmod entry");
		ASSERT_EQ(skel->bss->exit_result[i], want, "testmod exit");
	}

	/* The link's info: the module's ids, and the functions' addresses */
	for (i = 0; i < NR_TESTMOD; i++)
		addrs[i] = skel->bss->func_addr[testmod_nums[i]];
	check_link_info(entry_fd, BPF_TRACE_FENTRY_MULTI, NR_TESTMOD, ids, addrs,
			NULL);

	/* Each link holds the module once, as a single fentry does */
	ASSERT_EQ(module_refcnt("bpf_testmod"), refcnt + 2, "bpf_testmod refcnt");
	err = syscall(__NR_delete_module, "bpf_testmod", O_NONBLOCK);
	ASSERT_ERR(err, "bpf_testmod unload refused");
	ASSERT_EQ(errno, EWOULDBLOCK, "unload errno");
cleanup:
	if (entry_fd >= 0)
		close(entry_fd);
	if (exit_fd >= 0)
		close(exit_fd);
	tracing_multi_testmod__destroy(skel);
	btf__free(mod_btf);
	btf__free(vmlinux);
	if (mod_fd >= 0)
		close(mod_fd);
}

/* The functions of the mixed link, their argument count, first argument and return */
static const struct {
	const char *name;
	bool testmod;
	__u64 cnt, arg0, ret;
} mixed_funcs[] = {
	{ "bpf_fentry_test1", false, 1, 1, 2 },
	{ "bpf_fentry_test2", false, 2, 2, 5 },
	{ "bpf_fentry_test6", false, 6, 16, 111 },
	{ "bpf_testmod_fentry_test1", true, 1, 1, 2 },
	{ "bpf_testmod_fentry_test2", true, 2, 2, 5 },
	{ "bpf_testmod_fentry_test7", true, 7, 16, 133 },
	{ "bpf_testmod_fentry_test11", true, 11, 16, 231 },
};

#define NR_MIXED ARRAY_SIZE(mixed_funcs)

/*
 * One link on functions of two BTFs, vmlinux's and bpf_testmod's, by ids
 * and btf_fds (0 for vmlinux), with a cookie each: every function's calls
 * are seen with the right arguments and cookie, the link info lists them
 * in order, the link holds the module, and detaching the fentry link
 * leaves the fexit link on both kinds.
 */
static void test_mixed_btfs(void)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	__u32 ids[NR_MIXED], btf_fds[NR_MIXED];
	__u64 cookies[NR_MIXED];
	struct tracing_multi_mixed *skel = NULL;
	struct btf *vmlinux, *mod_btf = NULL;
	int mod_fd, entry_fd = -1, exit_fd = -1;
	struct ksyms *ksyms;
	int i, id, err;
	bool ok;

	vmlinux = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(vmlinux, "btf__load_vmlinux_btf"))
		return;
	mod_fd = module_btf("bpf_testmod", vmlinux, &mod_btf);
	if (mod_fd < 0)
		goto cleanup;
	for (i = 0; i < NR_MIXED; i++) {
		id = btf__find_by_name_kind(mixed_funcs[i].testmod ? mod_btf : vmlinux,
					    mixed_funcs[i].name, BTF_KIND_FUNC);
		if (!ASSERT_GT(id, 0, mixed_funcs[i].name))
			goto cleanup;
		ids[i] = id;
		btf_fds[i] = mixed_funcs[i].testmod ? mod_fd : 0;
		cookies[i] = i + 1;
	}

	skel = tracing_multi_mixed__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		goto cleanup;
	skel->bss->pid = getpid();
	ksyms = load_kallsyms_local();
	if (!ASSERT_OK_PTR(ksyms, "load_kallsyms_local"))
		goto cleanup;
	for (i = 0; i < NR_MIXED; i++) {
		skel->bss->func_addr[i] = ksym_get_addr_local(ksyms, mixed_funcs[i].name);
		skel->bss->func_cnt[i] = mixed_funcs[i].cnt;
		skel->bss->func_arg0[i] = mixed_funcs[i].arg0;
		skel->bss->func_ret[i] = mixed_funcs[i].ret;
	}
	free_kallsyms_local(ksyms);
	for (i = 0; i < NR_MIXED; i++) {
		if (!ASSERT_NEQ(skel->bss->func_addr[i], 0, mixed_funcs[i].name))
			goto cleanup;
	}

	opts.tracing_multi.ids = ids;
	opts.tracing_multi.btf_fds = btf_fds;
	opts.tracing_multi.cookies = cookies;
	opts.tracing_multi.cnt = NR_MIXED;
	entry_fd = bpf_link_create(bpf_program__fd(skel->progs.fentry_mixed), 0,
				   BPF_TRACE_FENTRY_MULTI, &opts);
	exit_fd = bpf_link_create(bpf_program__fd(skel->progs.fexit_mixed), 0,
				  BPF_TRACE_FEXIT_MULTI, &opts);
	if (!ASSERT_GE(entry_fd, 0, "attach entry") ||
	    !ASSERT_GE(exit_fd, 0, "attach exit"))
		goto cleanup;

	trigger_prog(skel->progs.fentry_mixed);
	ASSERT_OK(trigger_module_test_read(1), "trigger_read");
	for (i = 0; i < NR_MIXED; i++) {
		ok = ASSERT_EQ(skel->bss->entry_result[i], 1, "mixed entry");
		ok = ASSERT_EQ(skel->bss->exit_result[i], 1, "mixed exit") && ok;
		if (!ok)
			fprintf(stderr, "mixed: %s\n", mixed_funcs[i].name);
	}

	/* The link's info: both BTFs' ids, in order, with addresses and cookies */
	check_link_info(exit_fd, BPF_TRACE_FEXIT_MULTI, NR_MIXED, ids,
			skel->bss->func_addr, cookies);

	/* The link holds the module */
	err = syscall(__NR_delete_module, "bpf_testmod", O_NONBLOCK);
	ASSERT_ERR(err, "bpf_testmod unload refused");
	ASSERT_EQ(errno, EWOULDBLOCK, "unload errno");

	/* The fentry link goes: the fexit link stays on both kinds */
	close(entry_fd);
	entry_fd = -1;
	memset(skel->bss->entry_result, 0, sizeof(skel->bss->entry_result));
	memset(skel->bss->exit_result, 0, sizeof(skel->bss->exit_result));
	trigger_prog(skel->progs.fentry_mixed);
	ASSERT_OK(trigger_module_test_read(1), "trigger_read");
	for (i = 0; i < NR_MIXED; i++) {
		ok = ASSERT_EQ(skel->bss->entry_result[i], 0, "entry detached");
		ok = ASSERT_EQ(skel->bss->exit_result[i], 1, "exit after entry") && ok;
		if (!ok)
			fprintf(stderr, "mixed: %s\n", mixed_funcs[i].name);
	}
cleanup:
	if (entry_fd >= 0)
		close(entry_fd);
	if (exit_fd >= 0)
		close(exit_fd);
	tracing_multi_mixed__destroy(skel);
	btf__free(mod_btf);
	btf__free(vmlinux);
	if (mod_fd >= 0)
		close(mod_fd);
}

/*
 * Struct arguments: fentry.multi and fexit.multi on bpf_testmod's
 * bpf_testmod_test_struct_arg_1..9, as tracing_struct does with single
 * links.  A struct of up to 16 bytes passed by value takes one slot per
 * 8 bytes: bpf_get_func_arg_cnt() counts the slots (the trampoline's
 * nr_regs, as for a single fentry), bpf_get_func_arg() reads one slot,
 * and 7..9 have their struct, or arguments after it, on the stack.
 */
static void test_struct_args(void)
{
	/* argument slots of bpf_testmod_test_struct_arg_N */
	static const __u64 want_cnt[] = { 0, 4, 4, 4, 6, 0, 1, 7, 8, 10 };
	struct tracing_multi_struct *skel;
	bool ok;
	int i;

	skel = tracing_multi_struct__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		return;
	skel->bss->pid = getpid();
	if (set_addrs(skel->bss->func_addr, "bpf_testmod_test_struct_arg_%d",
		      struct_nums, ARRAY_SIZE(struct_nums)))
		goto cleanup;
	if (!ASSERT_OK(tracing_multi_struct__attach(skel), "attach"))
		goto cleanup;
	ASSERT_OK(trigger_module_test_read(1), "trigger_read");
	for (i = 1; i <= 9; i++) {
		ok = ASSERT_EQ(skel->bss->arg_cnt[i], want_cnt[i], "arg cnt");
		ok = ASSERT_EQ(skel->bss->entry_result[i], 1, "struct entry") && ok;
		ok = ASSERT_EQ(skel->bss->exit_result[i], 1, "struct exit") && ok;
		if (!ok)
			fprintf(stderr, "struct: bpf_testmod_test_struct_arg_%d\n", i);
	}
cleanup:
	tracing_multi_struct__destroy(skel);
}

/* The project's sample module, ftrace-direct-batch */
#define SAMPLE_MOD	"ftrace_direct_batch"
#define SAMPLE_DIR	"/sys/module/" SAMPLE_MOD
#define NR_READS	5

/*
 * Load the sample module with @args.  False, the subtest skipped, if it
 * cannot be, or if it is loaded already: it may have functions of its own
 * attached, and the subtest unloads it.
 */
static bool sample_load(const char *args)
{
	char cmd[128];

	if (!access(SAMPLE_DIR, F_OK)) {
		printf("%s:SKIP:%s is loaded already\n", __func__, SAMPLE_MOD);
		test__skip();
		return false;
	}
	snprintf(cmd, sizeof(cmd), "modprobe ftrace-direct-batch %s", args);
	if (system(cmd)) {
		printf("%s:SKIP:'%s' failed: no sample module\n", __func__, cmd);
		test__skip();
		return false;
	}
	return true;
}

/* Unload the sample module if it is there, as the subtest loaded it */
static void sample_unload(void)
{
	if (!access(SAMPLE_DIR, F_OK))
		unload_module(SAMPLE_MOD, env.verbosity > VERBOSE_NONE);
}

/* Read the sample module's "attached" parameter: attached_get runs once */
static int read_attached(void)
{
	char buf[32];
	int fd, n;

	fd = open(SAMPLE_DIR "/parameters/attached", O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? 0 : -EIO;
}

/* The sample module is in its exit function: MODULE_STATE_GOING */
static bool sample_going(void)
{
	char buf[16] = {};
	bool going;
	FILE *f;

	f = fopen(SAMPLE_DIR "/initstate", "r");
	if (!f)
		return false;
	going = fgets(buf, sizeof(buf), f) && !strcmp(buf, "going\n");
	fclose(f);
	return going;
}

/*
 * The address of function @name of module @mod (NULL: vmlinux), from
 * /proc/kallsyms, where a module's symbols end in "[MOD]"; 0 if none.
 */
static __u64 kallsyms_addr(const char *mod, const char *name)
{
	char line[256], sym[128], owner[64];
	unsigned long long addr;
	__u64 found = 0;
	FILE *f;
	int n;

	f = fopen("/proc/kallsyms", "r");
	if (!ASSERT_OK_PTR(f, "/proc/kallsyms"))
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%llx %*c %127s [%63[^]]]", &addr, sym, owner);
		if (n < 2 || strcmp(sym, name))
			continue;
		if (mod ? n == 3 && !strcmp(owner, mod) : n == 2)
			found = addr;
	}
	fclose(f);
	return found;
}

/* The functions of the sample's link by ids, their module (NULL: vmlinux) */
static const struct {
	const char *name, *mod;
} sample_funcs[] = {
	{ "attached_get", SAMPLE_MOD },
	{ "bpf_testmod_fentry_test1", "bpf_testmod" },
	{ "bpf_fentry_test1", NULL },
};

#define NR_SAMPLE ARRAY_SIZE(sample_funcs)

/*
 * The project's sample module: its attached_get, which a read of its
 * "attached" parameter calls, by pattern, then by id in one link with a
 * function of bpf_testmod and one of vmlinux, each with its cookie.  The
 * program sees every call at the function's kallsyms address, each link
 * holds the modules it names, and once the links are gone the sample
 * module unloads.
 */
static void test_sample_module(void)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	__u32 ids[NR_SAMPLE], btf_fds[NR_SAMPLE];
	__u64 cookies[NR_SAMPLE];
	struct btf *vmlinux = NULL, *sample_btf = NULL, *mod_btf = NULL;
	struct tracing_multi_sample *skel = NULL;
	int sample_fd = -1, mod_fd = -1, fd = -1;
	int i, id, err, refcnt, mod_refcnt;
	struct bpf_link *link = NULL;
	struct btf *btf;
	bool ok;

	if (!sample_load(""))
		return;
	skel = tracing_multi_sample__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		goto cleanup;
	skel->bss->pid = getpid();
	for (i = 0; i < NR_SAMPLE; i++) {
		skel->bss->func_addr[i] = kallsyms_addr(sample_funcs[i].mod,
							sample_funcs[i].name);
		if (!ASSERT_NEQ(skel->bss->func_addr[i], 0, sample_funcs[i].name))
			goto cleanup;
	}

	/* By pattern: every read is seen, at attached_get's address */
	refcnt = module_refcnt(SAMPLE_MOD);
	link = bpf_program__attach_tracing_multi(skel->progs.fentry_sample,
						 SAMPLE_MOD ":attached_get", NULL);
	if (!ASSERT_OK_PTR(link, "attach by pattern"))
		goto cleanup;
	for (i = 0; i < NR_READS; i++)
		ASSERT_OK(read_attached(), "read attached");
	ASSERT_EQ(skel->bss->total, NR_READS, "calls by pattern");
	ASSERT_EQ(skel->bss->calls[0], NR_READS, "attached_get calls");
	ASSERT_EQ(skel->bss->last_ip, skel->bss->func_addr[0], "attached_get ip");

	/* The link holds the module, once */
	ASSERT_EQ(module_refcnt(SAMPLE_MOD), refcnt + 1, "sample refcnt");
	err = syscall(__NR_delete_module, SAMPLE_MOD, O_NONBLOCK);
	ASSERT_ERR(err, "sample unload refused");
	ASSERT_EQ(errno, EWOULDBLOCK, "unload errno");
	bpf_link__destroy(link);
	link = NULL;
	ASSERT_EQ(module_refcnt(SAMPLE_MOD), refcnt, "sample refcnt after detach");
	skel->bss->total = 0;
	skel->bss->calls[0] = 0;
	ASSERT_OK(read_attached(), "read attached");
	ASSERT_EQ(skel->bss->total, 0, "calls after detach");

	/* By id: two modules' BTFs and vmlinux's in one link */
	vmlinux = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(vmlinux, "btf__load_vmlinux_btf"))
		goto cleanup;
	sample_fd = module_btf(SAMPLE_MOD, vmlinux, &sample_btf);
	mod_fd = module_btf("bpf_testmod", vmlinux, &mod_btf);
	if (sample_fd < 0 || mod_fd < 0)
		goto cleanup;
	for (i = 0; i < NR_SAMPLE; i++) {
		if (!sample_funcs[i].mod) {
			btf = vmlinux;
			btf_fds[i] = 0;
		} else if (!strcmp(sample_funcs[i].mod, SAMPLE_MOD)) {
			btf = sample_btf;
			btf_fds[i] = sample_fd;
		} else {
			btf = mod_btf;
			btf_fds[i] = mod_fd;
		}
		id = btf__find_by_name_kind(btf, sample_funcs[i].name, BTF_KIND_FUNC);
		if (!ASSERT_GT(id, 0, sample_funcs[i].name))
			goto cleanup;
		ids[i] = id;
		cookies[i] = 0x1000 + i;
	}
	refcnt = module_refcnt(SAMPLE_MOD);
	mod_refcnt = module_refcnt("bpf_testmod");
	opts.tracing_multi.ids = ids;
	opts.tracing_multi.btf_fds = btf_fds;
	opts.tracing_multi.cookies = cookies;
	opts.tracing_multi.cnt = NR_SAMPLE;
	fd = bpf_link_create(bpf_program__fd(skel->progs.fentry_sample), 0,
			     BPF_TRACE_FENTRY_MULTI, &opts);
	if (!ASSERT_GE(fd, 0, "attach by ids"))
		goto cleanup;

	ASSERT_OK(read_attached(), "read attached");
	ASSERT_OK(trigger_module_test_read(1), "trigger_read");
	trigger_prog(skel->progs.fentry_sample);
	ASSERT_EQ(skel->bss->total, NR_SAMPLE, "calls by ids");
	for (i = 0; i < NR_SAMPLE; i++) {
		ok = ASSERT_EQ(skel->bss->calls[i], 1, "calls");
		ok = ASSERT_EQ(skel->bss->cookie[i], cookies[i], "cookie") && ok;
		if (!ok)
			fprintf(stderr, "sample: %s\n", sample_funcs[i].name);
	}

	/* The link's info: the three BTFs' ids, in order */
	check_link_info(fd, BPF_TRACE_FENTRY_MULTI, NR_SAMPLE, ids,
			skel->bss->func_addr, cookies);

	/* The link holds both modules */
	ASSERT_EQ(module_refcnt(SAMPLE_MOD), refcnt + 1, "sample refcnt");
	ASSERT_EQ(module_refcnt("bpf_testmod"), mod_refcnt + 1, "bpf_testmod refcnt");
	err = syscall(__NR_delete_module, SAMPLE_MOD, O_NONBLOCK);
	ASSERT_ERR(err, "sample unload refused");
	ASSERT_EQ(errno, EWOULDBLOCK, "sample unload errno");
	err = syscall(__NR_delete_module, "bpf_testmod", O_NONBLOCK);
	ASSERT_ERR(err, "bpf_testmod unload refused");
	ASSERT_EQ(errno, EWOULDBLOCK, "bpf_testmod unload errno");

	/* Once the link is gone, the sample module unloads */
	close(fd);
	fd = -1;
	ASSERT_EQ(module_refcnt("bpf_testmod"), mod_refcnt, "bpf_testmod refcnt after");
	ASSERT_OK(unload_module(SAMPLE_MOD, env.verbosity > VERBOSE_NONE),
		  "sample unloads");
	ASSERT_ERR(access(SAMPLE_DIR, F_OK), "sample gone");
cleanup:
	if (fd >= 0)
		close(fd);
	bpf_link__destroy(link);
	tracing_multi_sample__destroy(skel);
	btf__free(sample_btf);
	btf__free(mod_btf);
	btf__free(vmlinux);
	if (sample_fd >= 0)
		close(sample_fd);
	if (mod_fd >= 0)
		close(mod_fd);
	sample_unload();
}

/*
 * A module going away: while the sample module's exit function runs
 * (exit_ms keeps it there), its BTF still registered, an attach to its
 * attached_get fails with ENODEV by id and fails by pattern, and leaves
 * no link; the module then goes.
 */
static void test_module_going(void)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	struct btf *vmlinux = NULL, *sysfs_btf = NULL, *btf = NULL;
	struct tracing_multi_sample *skel = NULL;
	int btf_fd = -1, fd, i, id, err, status = 0;
	bool going = false;
	struct bpf_link *link;
	__u32 ids[1], btf_fds[1];
	pid_t child = -1;

	if (!sample_load("exit_ms=3000"))
		return;
	if (access(SAMPLE_DIR "/parameters/exit_ms", F_OK)) {
		printf("%s:SKIP:the sample module has no exit_ms\n", __func__);
		test__skip();
		goto cleanup;
	}
	vmlinux = btf__load_vmlinux_btf();
	if (!ASSERT_OK_PTR(vmlinux, "btf__load_vmlinux_btf"))
		goto cleanup;
	/* The id, from sysfs; the BTF object's fd, by its name */
	sysfs_btf = btf__load_module_btf(SAMPLE_MOD, vmlinux);
	if (!ASSERT_OK_PTR(sysfs_btf, "btf__load_module_btf"))
		goto cleanup;
	id = btf__find_by_name_kind(sysfs_btf, "attached_get", BTF_KIND_FUNC);
	if (!ASSERT_GT(id, 0, "attached_get"))
		goto cleanup;
	btf_fd = module_btf(SAMPLE_MOD, vmlinux, &btf);
	if (btf_fd < 0)
		goto cleanup;
	ASSERT_EQ(btf__find_by_name_kind(btf, "attached_get", BTF_KIND_FUNC), id,
		  "attached_get in the BTF object");
	skel = tracing_multi_sample__open_and_load();
	if (!ASSERT_OK_PTR(skel, "open_and_load"))
		goto cleanup;
	skel->bss->pid = getpid();

	/* rmmod, in a child: it stays in the exit function for 3 s */
	child = fork();
	if (!ASSERT_GE(child, 0, "fork"))
		goto cleanup;
	if (!child)
		_exit(syscall(__NR_delete_module, SAMPLE_MOD, O_NONBLOCK) ? errno : 0);
	for (i = 0; i < 200; i++) {
		going = sample_going();
		if (going)
			break;
		usleep(10000);
	}
	if (!ASSERT_TRUE(going, "module going within 2 s"))
		goto wait;

	ids[0] = id;
	btf_fds[0] = btf_fd;
	opts.tracing_multi.ids = ids;
	opts.tracing_multi.btf_fds = btf_fds;
	opts.tracing_multi.cnt = 1;
	fd = bpf_link_create(bpf_program__fd(skel->progs.fentry_sample), 0,
			     BPF_TRACE_FENTRY_MULTI, &opts);
	if (!ASSERT_LT(fd, 0, "attach by id, module going"))
		close(fd);
	else
		ASSERT_EQ(errno, ENODEV, "attach by id, module going errno");
	ASSERT_TRUE(sample_going(), "still going after the attach");

	link = bpf_program__attach_tracing_multi(skel->progs.fentry_sample,
						 SAMPLE_MOD ":attached_get", NULL);
	err = libbpf_get_error(link);
	going = sample_going();
	if (!ASSERT_ERR_PTR(link, "attach by pattern, module going")) {
		bpf_link__destroy(link);
	} else {
		printf("%s: attach by pattern, module %s: %d\n", __func__,
		       going ? "going" : "gone", err);
		/*
		 * Still going: the kernel refused the module (ENODEV), or
		 * libbpf found its functions gone from the list of those
		 * that ftrace traces (ENOENT).  Gone: any refusal will do.
		 */
		if (going && err != -ENOENT)
			ASSERT_EQ(err, -ENODEV, "attach by pattern, module going errno");
	}
wait:
	/* The rmmod finishes, and the module is gone */
	for (i = 0; i < 1000; i++) {
		if (waitpid(child, &status, WNOHANG) == child)
			break;
		usleep(10000);
	}
	if (!ASSERT_LT(i, 1000, "rmmod within 10 s"))
		waitpid(child, &status, 0);
	if (ASSERT_TRUE(WIFEXITED(status), "rmmod exited"))
		ASSERT_EQ(WEXITSTATUS(status), 0, "rmmod errno");
	ASSERT_ERR(access(SAMPLE_DIR, F_OK), "module gone");
cleanup:
	tracing_multi_sample__destroy(skel);
	btf__free(btf);
	btf__free(sysfs_btf);
	btf__free(vmlinux);
	if (btf_fd >= 0)
		close(btf_fd);
	sample_unload();
}

/*
 * Serial: the module subtests count bpf_testmod's and the sample's
 * references, and unload the sample.
 */
void serial_test_tracing_multi(void)
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
	if (test__start_subtest("session_kfuncs"))
		test_session_kfuncs();
	if (test__start_subtest("detach_jit_limit"))
		test_detach_jit_limit();
	if (test__start_subtest("testmod"))
		test_testmod();
	if (test__start_subtest("sleepable"))
		test_sleepable();
	if (test__start_subtest("fsession"))
		test_fsession();
	if (test__start_subtest("sleepable_fexit"))
		test_sleepable_exit(false);
	if (test__start_subtest("sleepable_fsession"))
		test_sleepable_exit(true);
	if (test__start_subtest("testmod_ids"))
		test_testmod_ids();
	if (test__start_subtest("mixed_btfs"))
		test_mixed_btfs();
	if (test__start_subtest("struct_args"))
		test_struct_args();
	if (test__start_subtest("sample_module"))
		test_sample_module();
	if (test__start_subtest("module_going"))
		test_module_going();
}
