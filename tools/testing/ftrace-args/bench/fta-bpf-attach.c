// SPDX-License-Identifier: GPL-2.0
/*
 * fta-bpf-attach: the BPF attach rows of `make bench`.
 *
 *   fta-bpf-attach --candidates [MAXARGS]
 *	prints the vmlinux functions that a fentry or fexit program can
 *	attach to, as far as user space can tell: in vmlinux BTF, with a
 *	prototype that a trampoline takes (at most 12 arguments, or MAXARGS
 *	when given: bpftrace 0.17's kfunc takes 6; each and
 *	the return value an int, enum or pointer, or void for the return),
 *	in available_filter_functions, of a name that kallsyms has once,
 *	and not on the verifier's deny lists.  Functions with struct
 *	arguments, which a trampoline may take too, are left out.
 *
 *   fta-bpf-attach [--multi] [--entry-only] FILE
 *	attaches an empty fentry program and an empty fexit program
 *	(only the fentry one with --entry-only) to each function named in
 *	FILE, one line a name: one program and one link per function and
 *	kind, or with --multi one fentry.multi and one fexit.multi program,
 *	one link each.  Then it closes the links, which detaches them.  It
 *	prints, on one line, times in microseconds:
 *
 *	  funcs=N links=L load_us=T attach_us=T detach_us=T [images=I image_bytes=B]
 *
 *	load_us: loading the programs; attach_us: making the links;
 *	detach_us: closing them.  With --multi, images and image_bytes are
 *	the trampoline images of the functions and their size, summed from
 *	the links' fdinfo while both are attached.
 *
 * Exits 1 when anything fails, with a line that says what.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#define T "/sys/kernel/tracing/"

/* r0 = 0; exit */
static const struct bpf_insn empty_prog[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

/*
 * verifier.c: btf_id_deny (with rcu_read_unlock_special, which this
 * series adds to it), and noreturn_deny for fexit
 */
static const char *const deny[] = {
	"migrate_disable", "migrate_enable", "rcu_read_unlock_strict",
	"preempt_count_add", "preempt_count_sub", "__rcu_read_lock",
	"__rcu_read_unlock", "__x64_sys_exit", "__x64_sys_exit_group",
	"__ia32_sys_exit", "__ia32_sys_exit_group", "do_exit",
	"do_group_exit", "kthread_complete_and_exit", "kthread_exit",
	"make_task_dead", "__module_put_and_kthread_exit", "__kunit_abort",
	"kunit_try_catch_throw", "rcu_read_unlock_special",
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void die(const char *what, const char *name, int err)
{
	fprintf(stderr, "fta-bpf-attach: %s%s%s: %s\n", what, name ? " " : "",
		name ? name : "", strerror(err));
	exit(1);
}

/* An argument or return type that a trampoline surely takes */
static int tramp_type(const struct btf *btf, __u32 id, int is_ret)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	if (!id)
		return is_ret;	/* void: a return, not an argument */
	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t)
		return 0;
	return btf_is_int(t) || btf_is_any_enum(t) || btf_is_ptr(t);
}

/* A sorted set of names, looked up with bsearch() */
struct names {
	char **v;
	int n, cap;
};

static void names_add(struct names *s, const char *name)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			die("memory", NULL, ENOMEM);
	}
	s->v[s->n] = strdup(name);
	if (!s->v[s->n++])
		die("memory", NULL, ENOMEM);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int names_has(const struct names *s, const char *name)
{
	return !!bsearch(&name, s->v, s->n, sizeof(*s->v), cmp_str);
}

static int candidates(int max_args)
{
	struct names once = { 0 }, dup = { 0 };
	char line[512], name[512], type, *prev = NULL;
	unsigned long long addr;
	const struct btf_param *p;
	const struct btf_type *t;
	struct btf *btf;
	FILE *f;
	int i, id, ok;

	btf = btf__load_vmlinux_btf();
	if (!btf)
		die("vmlinux BTF", NULL, errno);
	/* vmlinux text symbols, those of one name apart */
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		die("open", "/proc/kallsyms", errno);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %511s", &addr, &type, name) != 3 ||
		    (type != 't' && type != 'T') || strchr(line, '['))
			continue;
		names_add(&once, name);
	}
	fclose(f);
	qsort(once.v, once.n, sizeof(*once.v), cmp_str);
	for (i = 1; i < once.n; i++) {
		if (!strcmp(once.v[i], once.v[i - 1]) &&
		    (!dup.n || strcmp(dup.v[dup.n - 1], once.v[i])))
			names_add(&dup, once.v[i]);
	}

	f = fopen(T "available_filter_functions", "r");
	if (!f)
		die("open", T "available_filter_functions", errno);
	while (fgets(line, sizeof(line), f)) {
		if (strchr(line, '[') || sscanf(line, "%511s", name) != 1)
			continue;
		/* a name listed twice is two functions */
		if (prev && !strcmp(prev, name))
			continue;
		free(prev);
		prev = strdup(name);
		if (names_has(&dup, name))
			continue;
		for (i = 0, ok = 1; ok && i < (int)(sizeof(deny) / sizeof(*deny)); i++)
			ok = strcmp(deny[i], name);
		id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
		if (!ok || id < 0)
			continue;
		t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
		if (!t || !btf_is_func_proto(t) || btf_vlen(t) > max_args ||
		    !tramp_type(btf, t->type, 1))
			continue;
		p = btf_params(t);
		for (i = 0; ok && i < btf_vlen(t); i++)
			ok = tramp_type(btf, p[i].type, 0);
		if (ok)
			printf("%s\n", name);
	}
	fclose(f);
	return 0;
}

/* The trampoline images of a multi link's functions, from its fdinfo */
static void add_images(int link, long *images, long *bytes)
{
	char path[64], line[256];
	long v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", link);
	f = fopen(path, "r");
	if (!f)
		die("open", path, errno);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "images: %ld", &v) == 1)
			*images = v;
		else if (sscanf(line, "image_bytes: %ld", &v) == 1)
			*bytes = v;
	}
	fclose(f);
}

/* --candidates' MAXARGS: a whole number of arguments, 0 to 12 */
static int candidates_arg(const char *arg)
{
	char *end;
	long max;

	errno = 0;
	max = strtol(arg, &end, 10);
	if (errno || end == arg || *end || max < 0 || max > 12) {
		fprintf(stderr, "fta-bpf-attach: --candidates %s: not a number from 0 to 12\n",
			arg);
		return 2;
	}
	return candidates(max);
}

int main(int argc, char **argv)
{
	int i, k, nfunc = 0, nkind = 2, multi = 0, nlinks = 0, *links;
	static const enum bpf_attach_type kinds[2][2] = {
		{ BPF_TRACE_FENTRY, BPF_TRACE_FEXIT },
		{ BPF_TRACE_FENTRY_MULTI, BPF_TRACE_FEXIT_MULTI },
	};
	double t, load = 0, attach = 0, detach;
	long images = -1, bytes = -1;
	struct names funcs = { 0 };
	union bpf_attr attr;
	struct rlimit rl;
	struct btf *btf;
	char name[512];
	__u32 *ids;
	FILE *f;
	struct bpf_prog_load_opts opts = { .sz = sizeof(opts) };
	int prog;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--candidates"))
			return candidates_arg(i + 1 < argc ? argv[i + 1] : "12");
		else if (!strcmp(argv[i], "--multi"))
			multi = 1;
		else if (!strcmp(argv[i], "--entry-only"))
			nkind = 1;
		else
			break;
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: fta-bpf-attach --candidates [MAXARGS]\n"
			"       fta-bpf-attach [--multi] [--entry-only] FILE\n");
		return 2;
	}
	f = fopen(argv[i], "r");
	if (!f)
		die("open", argv[i], errno);
	while (fscanf(f, "%511s", name) == 1)
		names_add(&funcs, name);
	fclose(f);
	nfunc = funcs.n;

	btf = btf__load_vmlinux_btf();
	if (!btf)
		die("vmlinux BTF", NULL, errno);
	ids = calloc(nfunc, sizeof(*ids));
	links = calloc(nfunc * nkind, sizeof(*links));
	if (!ids || !links)
		die("memory", NULL, ENOMEM);
	for (i = 0; i < nfunc; i++) {
		int id = btf__find_by_name_kind(btf, funcs.v[i], BTF_KIND_FUNC);

		if (id < 0)
			die("not in vmlinux BTF:", funcs.v[i], ENOENT);
		ids[i] = id;
	}
	/* A link's descriptor each, the programs' closed once linked */
	if (getrlimit(RLIMIT_NOFILE, &rl))
		die("getrlimit", NULL, errno);
	if (!multi && rl.rlim_cur < (rlim_t)nfunc * nkind + 256) {
		rl.rlim_cur = (rlim_t)nfunc * nkind + 256;
		if (rl.rlim_max < rl.rlim_cur)
			rl.rlim_max = rl.rlim_cur;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			die("setrlimit", NULL, errno);
	}

	for (k = 0; k < nkind; k++) {
		opts.expected_attach_type = kinds[multi][k];
		if (multi) {
			t = now_us();
			prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "fta_multi",
					     "GPL", empty_prog, 2, &opts);
			load += now_us() - t;
			if (prog < 0)
				die("load", NULL, -prog);
			/* the host's libbpf may not know the multi link */
			memset(&attr, 0, sizeof(attr));
			attr.link_create.prog_fd = prog;
			attr.link_create.attach_type = kinds[multi][k];
			attr.link_create.tracing_multi.ids = (unsigned long)ids;
			attr.link_create.tracing_multi.cnt = nfunc;
			t = now_us();
			links[nlinks] = syscall(__NR_bpf, BPF_LINK_CREATE, &attr,
						sizeof(attr));
			attach += now_us() - t;
			if (links[nlinks] < 0)
				die("attach", NULL, errno);
			nlinks++;
			close(prog);
			continue;
		}
		for (i = 0; i < nfunc; i++) {
			opts.attach_btf_id = ids[i];
			t = now_us();
			prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "fta_one",
					     "GPL", empty_prog, 2, &opts);
			load += now_us() - t;
			if (prog < 0)
				die("load", funcs.v[i], -prog);
			t = now_us();
			links[nlinks] = bpf_raw_tracepoint_open(NULL, prog);
			attach += now_us() - t;
			if (links[nlinks] < 0)
				die("attach", funcs.v[i], -links[nlinks]);
			nlinks++;
			close(prog);
		}
	}
	if (multi)
		add_images(links[nlinks - 1], &images, &bytes);

	t = now_us();
	for (i = 0; i < nlinks; i++)
		close(links[i]);
	detach = now_us() - t;

	printf("funcs=%d links=%d load_us=%.0f attach_us=%.0f detach_us=%.0f",
	       nfunc, nlinks, load, attach, detach);
	if (multi)
		printf(" images=%ld image_bytes=%ld", images, bytes);
	printf("\n");
	return 0;
}
