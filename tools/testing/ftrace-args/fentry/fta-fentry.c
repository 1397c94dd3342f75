// SPDX-License-Identifier: GPL-2.0
/*
 * fta-fentry [OPTIONS] FUNC... -- CMD [ARG...]
 *
 * Attaches BPF programs to the kernel functions FUNC, runs CMD while they
 * are attached, then exits, which detaches them.  The tests use it to see
 * BPF trampolines without a BPF compiler: the programs are a few
 * instructions, loaded with libbpf's low-level calls.
 *
 * Without options: an empty fentry program on each function, one link
 * each (--fexit: fexit programs; --fmod-ret: fmod_ret programs that
 * return 0, which lets the function run; --lsm: BPF LSM programs on
 * the bpf_lsm_* hooks FUNC, which allow).  With --multi: one fentry.multi program (fexit.multi with
 * --fexit) on all of them through one tracing multi link.  It counts the
 * calls of each function and records what bpf_get_func_ip(),
 * bpf_get_func_arg_cnt() and bpf_get_attach_cookie() give there; after
 * CMD, --counts FILE gets a line per function:
 *
 *   FUNC CALLS ip=ok|bad args=N
 *
 * "ip=ok" when the program saw the address that the link's info gives
 * for the function, and /proc/kallsyms has FUNC at that address.
 * --list FUNC... prints the functions whose BTF arguments all go in
 * registers, and attaches nothing.
 *
 * --cnt N sends N ids (the functions repeated) to test the limits;
 * --ctx-read loads a program that reads its context instead, which the
 * verifier refuses.
 *
 * --kprobe-multi (--kretprobe-multi): one BPF kprobe_multi program on
 * all of FUNC, through one link (by symbol, function i with cookie
 * 1000 + i), for the fprobe tests.  It copies the pt_regs of the last
 * call, or with --match REG=VALUE of the last call where REG (a pt_regs
 * field: di, dx, ax, ...) had VALUE; --regs FILE gets them after CMD,
 * one "REG VALUE" line each (hex), then "hits N" (the number of such
 * calls), "func_ip" and "cookie" (what bpf_get_func_ip() and
 * bpf_get_attach_cookie() gave), "ipoff" (ip - func_ip, decimal), "ret"
 * (the word at sp, read with bpf_probe_read_kernel()) and "stack0" and
 * "stack1" (the first two frames of bpf_get_stack() on the context).
 * --override VALUE: the program also calls bpf_override_return(VALUE) on
 * each such call (the function must allow error injection).
 * --kprobe-session: the same program as a kprobe.session program, which
 * bpf_session_is_return() tells where it runs: at entry it records as
 * above and returns 0 on the calls that match (so that it also runs at
 * their exit), 1 on the others; at exit it records into a second slot,
 * which --regs writes to FILE.exit.
 *
 * Exits with CMD's status, or 2 when an attach fails (the error is
 * printed as "attach: MESSAGE").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

/* What the single programs are: --fexit, --fmod-ret, --lsm, or fentry */
static enum bpf_attach_type single_type = BPF_TRACE_FENTRY;

static int attach_fentry(const struct btf *btf, const char *func)
{
	/* r0 = 0; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int id, prog, link;

	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	if (id < 0) {
		fprintf(stderr, "fta-fentry: %s: not in vmlinux BTF\n", func);
		return -1;
	}
	opts.expected_attach_type = single_type;
	opts.attach_btf_id = id;
	prog = bpf_prog_load(single_type == BPF_LSM_MAC ? BPF_PROG_TYPE_LSM :
			     BPF_PROG_TYPE_TRACING, "fta_fentry", "GPL",
			     insns, 2, &opts);
	if (prog < 0) {
		fprintf(stderr, "fta-fentry: %s: load: %s\n", func,
			strerror(-prog));
		return -1;
	}
	link = bpf_raw_tracepoint_open(NULL, prog);
	if (link < 0) {
		fprintf(stderr, "fta-fentry: %s: attach: %s\n", func,
			strerror(-link));
		return -1;
	}
	return 0;
}

/* What the multi program records for each function, by its cookie */
struct fta_slot {
	__u64 calls;
	__u64 ip;
	__u64 nargs;
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
#define CALL(f)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, (f))
#define MOV64(d, s)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, (d), (s), 0, 0)

/* --ctx-read: load a program that reads its context, which is refused */
static int ctx_read_prog;

/* The multi program: slots[cookie] gets one more call, the ip and nargs */
static int load_multi(int map, enum bpf_attach_type type, char *log,
		      size_t log_size)
{
	const struct bpf_insn insns[] = {
		MOV64(BPF_REG_6, BPF_REG_1),
		CALL(BPF_FUNC_get_attach_cookie),
		INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_0, -4, 0),
		INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD,
		     0, map),
		INSN(0, 0, 0, 0, 0),
		MOV64(BPF_REG_2, BPF_REG_10),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 9, 0),
		MOV64(BPF_REG_7, BPF_REG_0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_7, BPF_REG_1, 0,
		     BPF_ADD),
		MOV64(BPF_REG_1, BPF_REG_6),
		CALL(BPF_FUNC_get_func_ip),
		INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_0, 8, 0),
		MOV64(BPF_REG_1, BPF_REG_6),
		CALL(BPF_FUNC_get_func_arg_cnt),
		INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_0, 16, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	/* r0 = *(u64 *)(r1 + 0): the first argument, read from the context */
	const struct bpf_insn ctx_read[] = {
		INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_0, BPF_REG_1, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);

	opts.expected_attach_type = type;
	opts.log_buf = log;
	opts.log_size = log_size;
	opts.log_level = 1;
	if (ctx_read_prog)
		return bpf_prog_load(BPF_PROG_TYPE_TRACING, "fta_multi", "GPL",
				     ctx_read, 3, &opts);
	return bpf_prog_load(BPF_PROG_TYPE_TRACING, "fta_multi", "GPL", insns,
			     ARRAY_SIZE(insns), &opts);
}

/* The fields of struct pt_regs (x86-64), in order: the program's context */
static const char *const regs_names[] = {
	"r15", "r14", "r13", "r12", "bp", "bx", "r11", "r10", "r9", "r8",
	"ax", "cx", "dx", "si", "di", "orig_ax", "ip", "cs", "flags", "sp",
	"ss",
};

#define NR_REGS		ARRAY_SIZE(regs_names)

struct kmulti {
	int match_reg;			/* index in regs_names, -1: none */
	long long match_val;
	int override;			/* --override given */
	int override_val;
	int session;			/* --kprobe-session */
	int is_return_id;		/* bpf_session_is_return()'s BTF id */
	int map, link;
};

static int reg_index(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < NR_REGS; i++) {
		if (strlen(regs_names[i]) == len &&
		    !strncmp(regs_names[i], name, len))
			return i;
	}
	return -1;
}

/*
 * The kprobe_multi program: on a call where the context's register
 * match_reg holds match_val (on every call without --match), copy the
 * whole context to the map's one value, then what bpf_get_func_ip() and
 * bpf_get_attach_cookie() give, the word at sp and two frames of
 * bpf_get_stack(), and count the call; with --override,
 * make the function return override_val without running it.
 */
#define KM_HITS		NR_REGS
#define KM_FUNC_IP	(NR_REGS + 1)
#define KM_COOKIE	(NR_REGS + 2)
#define KM_RET		(NR_REGS + 3)
#define KM_STACK	(NR_REGS + 4)	/* two frames */
#define KM_WORDS	(NR_REGS + 6)

static int load_kmulti(struct kmulti *k, char *log, size_t log_size)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	struct bpf_insn insns[2 * NR_REGS + 48];
	unsigned int n = 0, i, skip_match = 0, skip_lookup, skip_entry = 0;

	insns[n++] = MOV64(BPF_REG_6, BPF_REG_1);
	if (k->session) {
		/* the map's key: 0 at entry, 1 at exit; the exit skips --match */
		insns[n++] = INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL,
				  0, k->is_return_id);
		insns[n++] = INSN(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10,
				  BPF_REG_0, -4, 0);
		skip_entry = n;
		insns[n++] = INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_0, 0, 0, 0);
	}
	if (k->match_reg >= 0) {
		insns[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1,
				  BPF_REG_6, k->match_reg * 8, 0);
		skip_match = n;
		insns[n++] = INSN(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_1, 0, 0,
				  (int)k->match_val);
	}
	if (skip_entry)
		insns[skip_entry].off = n - skip_entry - 1;
	else
		insns[n++] = INSN(BPF_ST | BPF_MEM | BPF_W, BPF_REG_10, 0, -4,
				  0);
	insns[n++] = INSN(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1,
			  BPF_PSEUDO_MAP_FD, 0, k->map);
	insns[n++] = INSN(0, 0, 0, 0, 0);
	insns[n++] = MOV64(BPF_REG_2, BPF_REG_10);
	insns[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, -4);
	insns[n++] = CALL(BPF_FUNC_map_lookup_elem);
	skip_lookup = n;
	insns[n++] = INSN(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0, 0);
	insns[n++] = MOV64(BPF_REG_7, BPF_REG_0);
	for (i = 0; i < NR_REGS; i++) {
		insns[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_1,
				  BPF_REG_6, i * 8, 0);
		insns[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_7,
				  BPF_REG_1, i * 8, 0);
	}
	insns[n++] = MOV64(BPF_REG_1, BPF_REG_6);
	insns[n++] = CALL(BPF_FUNC_get_func_ip);
	insns[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_0,
			  KM_FUNC_IP * 8, 0);
	insns[n++] = MOV64(BPF_REG_1, BPF_REG_6);
	insns[n++] = CALL(BPF_FUNC_get_attach_cookie);
	insns[n++] = INSN(BPF_STX | BPF_MEM | BPF_DW, BPF_REG_7, BPF_REG_0,
			  KM_COOKIE * 8, 0);
	/* ret: the word at sp, the return address into the caller */
	insns[n++] = MOV64(BPF_REG_1, BPF_REG_7);
	insns[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0,
			  KM_RET * 8);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 8);
	insns[n++] = INSN(BPF_LDX | BPF_MEM | BPF_DW, BPF_REG_3, BPF_REG_6,
			  reg_index("sp", 2) * 8, 0);
	insns[n++] = CALL(BPF_FUNC_probe_read_kernel);
	/* stack0, stack1: the unwind that starts from the context */
	insns[n++] = MOV64(BPF_REG_1, BPF_REG_6);
	insns[n++] = MOV64(BPF_REG_2, BPF_REG_7);
	insns[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0,
			  KM_STACK * 8);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, 16);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_4, 0, 0, 0);
	insns[n++] = CALL(BPF_FUNC_get_stack);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1);
	insns[n++] = INSN(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_REG_7, BPF_REG_1,
			  KM_HITS * 8, BPF_ADD);
	if (k->override) {
		insns[n++] = MOV64(BPF_REG_1, BPF_REG_6);
		insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0,
				  k->override_val);
		insns[n++] = CALL(BPF_FUNC_override_return);
	}
	/* a failed lookup lands here, and a call that does not match */
	insns[skip_lookup].off = n - skip_lookup - 1;
	if (skip_match && !k->session)
		insns[skip_match].off = n - skip_match - 1;
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	insns[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	/* a session's entry that does not match: no run at its exit */
	if (skip_match && k->session) {
		insns[skip_match].off = n - skip_match - 1;
		insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0,
				  1);
		insns[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	}

	opts.expected_attach_type = k->session ? BPF_TRACE_KPROBE_SESSION :
				    BPF_TRACE_KPROBE_MULTI;
	opts.log_buf = log;
	opts.log_size = log_size;
	opts.log_level = 1;
	return bpf_prog_load(BPF_PROG_TYPE_KPROBE, "fta_kmulti", "GPL", insns,
			     n, &opts);
}

static int attach_kmulti(struct kmulti *k, char **funcs, int nfunc, int ret)
{
	static char log[65536];
	union bpf_attr attr;
	__u64 *cookies;
	struct btf *btf;
	int prog, i;

	if (k->session) {
		btf = btf__load_vmlinux_btf();
		k->is_return_id = btf ? btf__find_by_name_kind(btf,
				"bpf_session_is_return", BTF_KIND_FUNC) : -1;
		btf__free(btf);
		if (k->is_return_id < 0) {
			fprintf(stderr,
				"fta-fentry: no bpf_session_is_return in vmlinux BTF\n");
			return -1;
		}
	}
	k->map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "fta_kmulti", sizeof(__u32),
				KM_WORDS * sizeof(__u64), 1 + k->session,
				NULL);
	if (k->map < 0) {
		fprintf(stderr, "fta-fentry: map: %s\n", strerror(-k->map));
		return -1;
	}
	prog = load_kmulti(k, log, sizeof(log));
	if (prog < 0) {
		fprintf(stderr, "fta-fentry: load: %s\n%s", strerror(-prog),
			log);
		return -1;
	}
	/* function i's cookie is 1000 + i */
	cookies = calloc(nfunc, sizeof(*cookies));
	if (!cookies)
		return -1;
	for (i = 0; i < nfunc; i++)
		cookies[i] = 1000 + i;
	/*
	 * By the system call: the host's libbpf may predate kprobe.session,
	 * and would then not pass the functions on
	 */
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog;
	attr.link_create.attach_type = k->session ? BPF_TRACE_KPROBE_SESSION :
				       BPF_TRACE_KPROBE_MULTI;
	attr.link_create.kprobe_multi.syms = (unsigned long)funcs;
	attr.link_create.kprobe_multi.cookies = (unsigned long)cookies;
	attr.link_create.kprobe_multi.cnt = nfunc;
	attr.link_create.kprobe_multi.flags = ret ? BPF_F_KPROBE_MULTI_RETURN :
					      0;
	k->link = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	free(cookies);
	if (k->link < 0) {
		fprintf(stderr, "fta-fentry: attach: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/* The registers and the rest of slot @key (1: a session's exit) */
static int write_regs(struct kmulti *k, const char *path, __u32 key)
{
	__u64 slot[KM_WORDS];
	unsigned int i;
	FILE *f;

	if (bpf_map_lookup_elem(k->map, &key, slot))
		return -1;
	f = fopen(path, "w");
	if (!f)
		return -1;
	for (i = 0; i < NR_REGS; i++)
		fprintf(f, "%s 0x%llx\n", regs_names[i],
			(unsigned long long)slot[i]);
	fprintf(f, "hits %llu\nfunc_ip 0x%llx\nipoff %lld\ncookie %llu\n",
		(unsigned long long)slot[KM_HITS],
		(unsigned long long)slot[KM_FUNC_IP],
		(long long)(slot[16] /* ip */ - slot[KM_FUNC_IP]),
		(unsigned long long)slot[KM_COOKIE]);
	fprintf(f, "ret 0x%llx\nstack0 0x%llx\nstack1 0x%llx\n",
		(unsigned long long)slot[KM_RET],
		(unsigned long long)slot[KM_STACK],
		(unsigned long long)slot[KM_STACK + 1]);
	return fclose(f);
}

/* Is @func at @addr in /proc/kallsyms? */
static int kallsyms_has(const char *func, unsigned long long addr)
{
	unsigned long long a;
	char name[512], type;
	FILE *f = fopen("/proc/kallsyms", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fscanf(f, "%llx %c %511s%*[^\n]", &a, &type, name) == 3)
		found = a == addr && !strcmp(name, func);
	fclose(f);
	return found;
}

/* A type that a trampoline passes in one register: int, enum, pointer */
static int is_reg_type(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	return t && (btf_is_int(t) || btf_is_enum(t) || btf_is_ptr(t));
}

/*
 * --list: print the FUNCs that are in vmlinux BTF with at most six
 * arguments, each an int, enum or pointer, and such a return value or
 * none: functions that a multi link surely attaches to, as far as BTF
 * goes.
 */
static int list_funcs(const struct btf *btf, char **funcs, int n)
{
	const struct btf_param *p;
	const struct btf_type *t;
	int i, j, id, ok;

	for (i = 0; i < n; i++) {
		id = btf__find_by_name_kind(btf, funcs[i], BTF_KIND_FUNC);
		if (id < 0)
			continue;
		t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
		if (!t || !btf_is_func_proto(t) || btf_vlen(t) > 6)
			continue;
		ok = !t->type || is_reg_type(btf, t->type);
		p = btf_params(t);
		for (j = 0; ok && j < btf_vlen(t); j++)
			ok = p[j].type && is_reg_type(btf, p[j].type);
		if (ok)
			printf("%s\n", funcs[i]);
	}
	return 0;
}

struct multi {
	int nfunc, link, map;
	char **funcs;
	__u64 *addrs;
};

static int attach_multi(struct multi *m, const struct btf *btf,
			enum bpf_attach_type type, unsigned int cnt)
{
	static char log[65536];
	union bpf_attr attr;
	__u64 *cookies;
	__u32 *ids;
	unsigned int i;
	int prog, id;

	if (!cnt)
		cnt = m->nfunc;
	ids = calloc(cnt, sizeof(*ids));
	cookies = calloc(cnt, sizeof(*cookies));
	if (!ids || !cookies)
		return -1;
	/* Each function once: a BTF lookup walks all of its types */
	for (i = 0; i < cnt; i++) {
		const char *func = m->funcs[i % m->nfunc];

		if (i >= (unsigned int)m->nfunc) {
			ids[i] = ids[i % m->nfunc];
		} else {
			id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
			if (id < 0) {
				fprintf(stderr, "fta-fentry: %s: not in vmlinux BTF\n",
					func);
				return -1;
			}
			ids[i] = id;
		}
		cookies[i] = i % m->nfunc;
	}
	m->map = bpf_map_create(BPF_MAP_TYPE_ARRAY, "fta_multi", sizeof(__u32),
				sizeof(struct fta_slot), m->nfunc, NULL);
	if (m->map < 0) {
		fprintf(stderr, "fta-fentry: map: %s\n", strerror(-m->map));
		return -1;
	}
	prog = load_multi(m->map, type, log, sizeof(log));
	if (prog < 0) {
		fprintf(stderr, "fta-fentry: load: %s\n%s", strerror(-prog),
			log);
		return -1;
	}

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog;
	attr.link_create.attach_type = type;
	attr.link_create.tracing_multi.ids = (unsigned long)ids;
	attr.link_create.tracing_multi.cookies = (unsigned long)cookies;
	attr.link_create.tracing_multi.cnt = cnt;
	m->link = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	if (m->link < 0) {
		fprintf(stderr, "fta-fentry: attach: %s\n", strerror(errno));
		return -1;
	}
	free(ids);
	free(cookies);
	return 0;
}

/* The link's own view of its functions: their addresses */
static int link_addrs(struct multi *m)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);

	m->addrs = calloc(m->nfunc, sizeof(*m->addrs));
	if (!m->addrs)
		return -1;
	memset(&info, 0, sizeof(info));
	info.tracing_multi.addrs = (unsigned long)m->addrs;
	info.tracing_multi.count = m->nfunc;
	if (bpf_obj_get_info_by_fd(m->link, &info, &len)) {
		fprintf(stderr, "fta-fentry: link info: %s\n", strerror(errno));
		return -1;
	}
	if (info.type != BPF_LINK_TYPE_TRACING_MULTI ||
	    info.tracing_multi.count != (__u32)m->nfunc) {
		fprintf(stderr, "fta-fentry: link info: type %u, %u functions\n",
			info.type, info.tracing_multi.count);
		return -1;
	}
	return 0;
}

static int write_counts(struct multi *m, const char *path)
{
	FILE *f = fopen(path, "w");
	struct fta_slot slot;
	__u32 i;

	if (!f)
		return -1;
	for (i = 0; i < (__u32)m->nfunc; i++) {
		if (bpf_map_lookup_elem(m->map, &i, &slot))
			return -1;
		fprintf(f, "%s %llu ip=%s args=%llu\n", m->funcs[i],
			(unsigned long long)slot.calls,
			slot.calls && slot.ip == m->addrs[i] &&
			kallsyms_has(m->funcs[i], slot.ip) ? "ok" : "bad",
			(unsigned long long)slot.nargs);
	}
	return fclose(f);
}

int main(int argc, char **argv)
{
	enum bpf_attach_type type = BPF_TRACE_FENTRY_MULTI;
	struct kmulti k = { .match_reg = -1 };
	const char *counts = NULL, *regs = NULL, *eq;
	int kmulti = 0, kret = 0;
	struct multi m = { 0 };
	unsigned int cnt = 0;
	int i, first, status, multi = 0, list = 0;
	struct btf *btf;
	pid_t pid;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2) && argv[i][2]; i++) {
		if (!strcmp(argv[i], "--multi")) {
			multi = 1;
		} else if (!strcmp(argv[i], "--list")) {
			list = 1;
		} else if (!strcmp(argv[i], "--ctx-read")) {
			ctx_read_prog = 1;
		} else if (!strcmp(argv[i], "--fexit")) {
			type = BPF_TRACE_FEXIT_MULTI;
			single_type = BPF_TRACE_FEXIT;
		} else if (!strcmp(argv[i], "--fmod-ret")) {
			single_type = BPF_MODIFY_RETURN;
		} else if (!strcmp(argv[i], "--lsm")) {
			single_type = BPF_LSM_MAC;
		} else if (!strcmp(argv[i], "--counts") && i + 1 < argc) {
			counts = argv[++i];
		} else if (!strcmp(argv[i], "--cnt") && i + 1 < argc) {
			cnt = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--kprobe-multi")) {
			kmulti = 1;
		} else if (!strcmp(argv[i], "--kretprobe-multi")) {
			kmulti = 1;
			kret = 1;
		} else if (!strcmp(argv[i], "--kprobe-session")) {
			kmulti = 1;
			k.session = 1;
		} else if (!strcmp(argv[i], "--override") && i + 1 < argc) {
			k.override = 1;
			k.override_val = strtol(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--regs") && i + 1 < argc) {
			regs = argv[++i];
		} else if (!strcmp(argv[i], "--match") && i + 1 < argc &&
			   strchr(argv[i + 1], '=')) {
			eq = strchr(argv[++i], '=');
			k.match_reg = reg_index(argv[i], eq - argv[i]);
			k.match_val = strtoll(eq + 1, NULL, 0);
			if (k.match_reg < 0 || k.match_val != (int)k.match_val) {
				fprintf(stderr, "fta-fentry: bad --match %s\n",
					argv[i]);
				return 2;
			}
		} else {
			fprintf(stderr, "fta-fentry: unknown option %s\n",
				argv[i]);
			return 2;
		}
	}
	first = i;
	for (; i < argc && strcmp(argv[i], "--"); i++)
		;
	if (multi && (single_type == BPF_MODIFY_RETURN || single_type == BPF_LSM_MAC)) {
		fprintf(stderr, "fta-fentry: --fmod-ret and --lsm have no multi form\n");
		return 2;
	}
	if (!kmulti && (regs || k.match_reg >= 0 || k.override)) {
		fprintf(stderr,
			"fta-fentry: --regs, --match and --override go with --kprobe-multi\n");
		return 2;
	}
	if (list) {
		btf = btf__load_vmlinux_btf();
		return btf ? list_funcs(btf, &argv[first], i - first) : 2;
	}
	if (i == first || i >= argc - 1) {
		fprintf(stderr,
			"usage: fta-fentry [--fexit | --fmod-ret | --lsm] FUNC... -- CMD [ARG...]\n"
			"       fta-fentry --multi [--fexit] [--counts FILE] [--cnt N] [--ctx-read]\n"
			"                  FUNC... -- CMD [ARG...]\n"
			"       fta-fentry --kprobe-multi|--kretprobe-multi|--kprobe-session\n"
			"                  [--match REG=VALUE] [--regs FILE] [--override VALUE]\n"
			"                  FUNC... -- CMD [ARG...]\n"
			"       fta-fentry --list FUNC...\n");
		return 2;
	}
	if (kmulti) {
		if (attach_kmulti(&k, &argv[first], i - first, kret))
			return 2;
		btf = NULL;
	} else {
		btf = btf__load_vmlinux_btf();
		if (!btf) {
			fprintf(stderr, "fta-fentry: no vmlinux BTF: %s\n",
				strerror(errno));
			return 2;
		}
	}
	if (kmulti) {
		/* attached above */
	} else if (multi) {
		m.funcs = &argv[first];
		m.nfunc = i - first;
		if (attach_multi(&m, btf, type, cnt) || link_addrs(&m))
			return 2;
	} else {
		for (i = first; strcmp(argv[i], "--"); i++) {
			if (attach_fentry(btf, argv[i]))
				return 2;
		}
	}

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		execvp(argv[i + 1], &argv[i + 1]);
		fprintf(stderr, "fta-fentry: %s: %s\n", argv[i + 1],
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 2;
	if (regs && write_regs(&k, regs, 0)) {
		fprintf(stderr, "fta-fentry: %s: %s\n", regs, strerror(errno));
		return 2;
	}
	if (regs && k.session) {
		char exit_path[4096];

		snprintf(exit_path, sizeof(exit_path), "%s.exit", regs);
		if (write_regs(&k, exit_path, 1)) {
			fprintf(stderr, "fta-fentry: %s: %s\n", exit_path,
				strerror(errno));
			return 2;
		}
	}
	if (counts && write_counts(&m, counts)) {
		fprintf(stderr, "fta-fentry: %s: %s\n", counts, strerror(errno));
		return 2;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
