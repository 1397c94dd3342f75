// SPDX-License-Identifier: GPL-2.0
/*
 * libtraceevent plugin for the function_args tracer's ftrace:func_args
 * records, so that trace-cmd report prints them as the trace file does:
 *
 *   vfs_read(file=0xffff..., buf=0x7ffd..., count=131072, pos=0xffff...) <-ksys_read
 *
 * The record holds only raw argument words; names and types come from
 * BTF.  The plugin reads /sys/kernel/btf/vmlinux (and module BTF next to
 * it), or the file named by the plugin option "function_args:btf" or the
 * environment variable FTRACE_ARGS_BTF.  Without BTF it prints the raw
 * words and says so.
 *
 * The argument layout (one word per argument of up to 8 bytes, two for 9
 * to 16 bytes), the argument locations (registers, then stack slots) and
 * the record flags must match kernel/trace/ftrace_args.c and
 * kernel/trace/trace_function_args.h.
 *
 * It also puts the arguments that funcgraph-args stores after an
 * ftrace:funcgraph_entry record (kernel/trace/trace_function_args_graph.c)
 * on trace-cmd's function_graph lines, as the trace file has them:
 *
 *   |  vfs_read(file=0xffff..., buf=0x7ffd..., count=832, pos=0xffa0...) {
 *   |    rw_verify_area(read_write=0, file=0xffff..., ...);
 *
 * trace-cmd prints function_graph with its own handlers (libtracecmd's
 * trace-ftrace.c: leaf merging, durations, depth), so the plugin wraps
 * the funcgraph_entry handler that was there before it rather than
 * replacing it (see "funcgraph-args" below).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "ftrace_args_btf.h"

#define FARGS_FL_STRINGS	0x01
#define FARGS_FL_RAW		0x02
#define FARGS_FL_NO_MODEL	0x04
#define FARGS_FL_RET		0x08
#define FARGS_FL_ENTRY_ONLY	0x10
/* Stack slots from the high byte's number on lie past the stack's end */
#define FARGS_FL_STACK_CUT	0x20
/* With FARGS_FL_ENTRY_ONLY: entered only, for want of stack */
#define FARGS_FL_LOW_STACK	0x40
#define FARGS_STACK_SHIFT	8
/* A FARGS_FL_RET record: the return value (two words), the duration in ns */
#define FARGS_RET_WORDS		3
#define FARGS_REASON_SHIFT	8

enum { FARGS_STR_OK, FARGS_STR_TRUNCATED, FARGS_STR_FAULT, FARGS_STR_NULL };

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_ARGS	12
#define ARG_SIZE_MAX	16
#define NR_ARG_REGS	6
#define CACHE_SIZE	4096

static const char * const reasons[] = {
	"", "no symbol", "no BTF", "variadic", "too many arguments",
	"unsupported argument type", "several prototypes",
};

static const char * const reg_names[] = {
	"di", "si", "dx", "cx", "r8", "r9",
};

enum arg_class {
	C_SIGNED, C_UNSIGNED, C_POINTER, C_STRING, C_BOOL, C_ENUM, C_STRUCT,
};

struct arg {
	const char	*name;
	__u32		type_id;
	unsigned int	size;
	enum arg_class	class;
	unsigned int	word;
	/* in stack slot @slot (and the next) rather than in registers */
	int		on_stack;
	unsigned int	slot;
};

/* A function's model in one tep handle: a trace file's addresses */
struct model {
	struct tep_handle	*tep;
	unsigned long long	ip;
	struct btf		*btf;	/* NULL: no usable model */
	unsigned int		nr_args;
	unsigned int		nr_words;
	struct arg		args[MAX_ARGS];
	/* the return value; name NULL for void, "" for a type not printed */
	struct arg		ret;
	/* a struct returned in memory: ret is the pointer to it */
	int			ret_in_memory;
	struct model		*next;
};

/*
 * Not TEP_PLUGIN_OPTIONS: libtraceevent applies that array as it loads
 * the plugin, and tep_plugin_add_options() (which "trace-cmd list -O"
 * needs) applies its array again, which toggles a bare boolean such as
 * "-O function_args:hex" back off.  libtraceevent's own plugins do the
 * same.
 */
static struct tep_plugin_option plugin_options[] = {
	{
		.name = "btf",
		.plugin_alias = "function_args",
		.description = "BTF file to read instead of /sys/kernel/btf/vmlinux",
		.value = "",
	},
	{
		.name = "hex",
		.plugin_alias = "function_args",
		.description = "Print every argument as raw hex",
	},
	{
		.name = "graph_noargs",
		.plugin_alias = "function_args",
		.description = "Leave the funcgraph-args arguments off function_graph lines",
	},
	{
		.name = NULL,
	}
};

static struct tep_plugin_option *btf_option = &plugin_options[0];
static struct tep_plugin_option *hex_option = &plugin_options[1];
static struct tep_plugin_option *graph_noargs_option = &plugin_options[2];

/*
 * A BTF and its own functions (a module's split BTF: not vmlinux's),
 * sorted by name and then by id, for find_func().  libbpf's
 * btf__find_by_name_kind() walks every type, vmlinux's included for a
 * module's BTF: 4 s for the models of the test kernel's 25265 functions,
 * and each function of a module walked vmlinux again per module BTF.
 */
struct btf_funcs {
	struct btf	*btf;
	__u32		*ids;	/* NULL: not indexed, walk the BTF */
	__u32		nr;
	__u32		first;	/* the BTF's first own type */
};

static struct btf *vmlinux_btf;
static struct btf_funcs vmlinux_funcs;
static struct btf_funcs *module_funcs;
static int nr_module_btf;
static int btf_loaded;
/*
 * The loads of the plugin not yet unloaded: one per tep handle (one per
 * trace file in trace-cmd report), or two in one handle that finds it in
 * both TRACEEVENT_PLUGIN_DIR and ~/.local under one name.  The options
 * and the BTF are theirs.
 */
static int nr_loads;
static struct model *cache[CACHE_SIZE];

static const char *func_name(const struct btf *btf, __u32 id)
{
	/* NULL for a name past the strings of a damaged BTF */
	const char *name = btf__name_by_offset(btf,
					       btf__type_by_id(btf, id)->name_off);

	return name ?: "";
}

static int func_cmp(const void *a, const void *b, void *arg)
{
	__u32 ia = *(const __u32 *)a, ib = *(const __u32 *)b;
	int ret = strcmp(func_name(arg, ia), func_name(arg, ib));

	return ret ? ret : (ia > ib) - (ia < ib);
}

/* Index @btf's functions from type @first on, in @f */
static void index_funcs(struct btf_funcs *f, struct btf *btf, __u32 first)
{
	__u32 i, n = btf__type_cnt(btf);

	f->btf = btf;
	f->nr = 0;
	f->first = first;
	f->ids = malloc((n - first + 1) * sizeof(*f->ids));
#ifdef FTA_PLUGIN_WALK_BTF
	/* make bench-plugin's other build: funcs_find() walks the BTF */
	free(f->ids);
	f->ids = NULL;
#endif
	if (!f->ids)
		return;
	for (i = first; i < n; i++)
		if (btf_is_func(btf__type_by_id(btf, i)))
			f->ids[f->nr++] = i;
	qsort_r(f->ids, f->nr, sizeof(*f->ids), func_cmp, btf);
}

/* Do FUNCs @a and @b return and take the same types, as fta_same_types()? */
static int same_types(const struct btf *btf, __u32 a, __u32 b)
{
	const struct btf_type *pa, *pb;
	const struct btf_param *qa, *qb;
	unsigned int i;

	pa = btf__type_by_id(btf, btf__type_by_id(btf, a)->type);
	pb = btf__type_by_id(btf, btf__type_by_id(btf, b)->type);
	if (pa == pb)
		return 1;
	if (!pa || !pb || !btf_is_func_proto(pa) || !btf_is_func_proto(pb) ||
	    pa->type != pb->type || btf_vlen(pa) != btf_vlen(pb))
		return 0;
	qa = btf_params(pa);
	qb = btf_params(pb);
	for (i = 0; i < btf_vlen(pa); i++)
		if (qa[i].type != qb[i].type)
			return 0;
	return 1;
}

/*
 * The function named @name in @f's BTF, as the kernel takes it
 * (ftrace_args.c's fta_find_vmlinux_func()): of several of one name, the
 * lowest id if their types agree; -2 if they differ (the kernel gives
 * them no model: it cannot tell which is at the address), -1 if there is
 * none.
 */
static __s32 funcs_find(const struct btf_funcs *f, const char *name)
{
	__u32 lo = 0, hi = f->nr, mid, i, n;
	__s32 id = -1;

	if (!f->ids) {
		/* The walk, which needs no memory (and make bench-plugin's) */
		n = btf__type_cnt(f->btf);
		for (i = f->first; i < n; i++) {
			if (!btf_is_func(btf__type_by_id(f->btf, i)) ||
			    strcmp(func_name(f->btf, i), name))
				continue;
			if (id < 0)
				id = i;
			else if (!same_types(f->btf, id, i))
				return -2;
		}
		return id;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(func_name(f->btf, f->ids[mid]), name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < f->nr; i++) {
		if (strcmp(func_name(f->btf, f->ids[i]), name))
			break;
		if (!same_types(f->btf, f->ids[lo], f->ids[i]))
			return -2;
	}
	return i > lo ? (__s32)f->ids[lo] : -1;
}

static void load_btf(void)
{
	const char *path = getenv("FTRACE_ARGS_BTF");
	struct dirent *d;
	char file[512];
	DIR *dir;

	if (btf_loaded)
		return;
	btf_loaded = 1;

	if (btf_option->value && *btf_option->value)
		path = btf_option->value;
	/* libbpf 1.x returns NULL on error */
	vmlinux_btf = btf__parse(path && *path ? path :
				 "/sys/kernel/btf/vmlinux", NULL);
	if (!vmlinux_btf)
		return;
	index_funcs(&vmlinux_funcs, vmlinux_btf, 1);
	if (path && *path)
		return;

	dir = opendir("/sys/kernel/btf");
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		struct btf_funcs *more;
		struct btf *btf;

		if (d->d_name[0] == '.' || !strcmp(d->d_name, "vmlinux"))
			continue;
		snprintf(file, sizeof(file), "/sys/kernel/btf/%s", d->d_name);
		btf = btf__parse_split(file, vmlinux_btf);
		if (!btf)
			continue;
		more = realloc(module_funcs,
			       (nr_module_btf + 1) * sizeof(*module_funcs));
		if (!more) {
			btf__free(btf);
			break;
		}
		module_funcs = more;
		index_funcs(&module_funcs[nr_module_btf++], btf,
			    btf__type_cnt(vmlinux_btf));
	}
	closedir(dir);
}

/* A const char: a string the function reads, as fta_const_char() decides */
static int const_char(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int is_const = 0;

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		if (btf_is_const(t))
			is_const = 1;
		t = btf__type_by_id(btf, t->type);
	}
	return is_const && t && btf_is_int(t) && t->size == 1 &&
	       !strcmp(btf__name_by_offset(btf, t->name_off), "char");
}

static int classify(const struct btf *btf, __u32 type_id, struct arg *a)
{
	const struct btf_type *t = fta_skip_mods(btf, type_id, &a->type_id);

	if (!t)
		return -1;
	if (btf_is_int(t)) {
		a->size = t->size;
		if (btf_int_encoding(t) & BTF_INT_BOOL)
			a->class = C_BOOL;
		else if (btf_int_encoding(t) & BTF_INT_SIGNED)
			a->class = C_SIGNED;
		else
			a->class = C_UNSIGNED;
		return 0;
	}
	if (btf_is_ptr(t)) {
		a->size = 8;
		a->class = C_POINTER;
		if (const_char(btf, t->type))
			a->class = C_STRING;
		return 0;
	}
	if (btf_is_enum(t) || btf_is_enum64(t)) {
		a->size = t->size;
		a->class = C_ENUM;
		return 0;
	}
	if (btf_is_composite(t) && t->size && t->size <= ARG_SIZE_MAX) {
		a->size = t->size;
		a->class = C_STRUCT;
		return 0;
	}
	return -1;
}

/*
 * The function named @name: in vmlinux's BTF, else in the modules'.  A
 * record gives no module name (libtraceevent has it, but does not give
 * it to plugins).  The kernel writes raw records for a function of
 * vmlinux whose name has several prototypes there, so a typed record of
 * such a name comes from a module: the modules are searched then too.
 */
static __s32 find_func(struct btf **btfp, const char *name)
{
	__s32 id;
	int i;

	if (!vmlinux_btf)
		return -1;
	id = funcs_find(&vmlinux_funcs, name);
	if (id > 0) {
		*btfp = vmlinux_btf;
		return id;
	}
	for (i = 0; i < nr_module_btf; i++) {
		id = funcs_find(&module_funcs[i], name);
		if (id > 0) {
			*btfp = module_funcs[i].btf;
			return id;
		}
	}
	return -1;
}

static int members_aligned(const struct btf *btf, const struct btf_type *t,
			   unsigned int off);

/*
 * Is every scalar of a value of type @id, @off bytes into an aggregate, at
 * its natural alignment?  As fta_aligned() decides it: array elements
 * count, and the first two elements of an array show it for all.
 */
static int aligned(const struct btf *btf, __u32 id, unsigned int off)
{
	const struct btf_type *t = fta_skip_mods(btf, id, NULL);
	const struct btf_array *arr;
	unsigned int i, size;
	__s64 esize;

	if (!t)
		return 0;
	if (btf_is_composite(t))
		return members_aligned(btf, t, off);
	if (btf_is_array(t)) {
		arr = btf_array(t);
		esize = btf__resolve_size(btf, arr->type);
		if (esize < 0)
			return 0;
		for (i = 0; i < arr->nelems && i < 2; i++) {
			if (!aligned(btf, arr->type, off + i * esize))
				return 0;
		}
		return 1;
	}
	if (!btf_is_int(t) && !btf_is_ptr(t) && !btf_is_enum(t) &&
	    !btf_is_enum64(t))
		return 0;
	size = btf_is_ptr(t) ? 8 : t->size;
	return size && (size > 8 || off % size == 0);
}

/* The members of the struct or union @t, which is @off bytes in */
static int members_aligned(const struct btf *btf, const struct btf_type *t,
			   unsigned int off)
{
	const struct btf_member *m = btf_members(t);
	unsigned int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (btf_member_bitfield_size(t, i))
			continue;
		if (!aligned(btf, m->type,
			     off + btf_member_bit_offset(t, i) / 8))
			return 0;
	}
	return 1;
}

/*
 * Does a struct returned by value come back in memory, through a hidden
 * pointer in the first argument register?  As fta_classify() and
 * fta_struct_in_regs() decide it in kernel/trace/ftrace_args.c: when it
 * is larger than 16 bytes, or when a scalar in it, in a nested struct or
 * in an array included, is not at its natural alignment.
 */
static int in_memory(const struct btf *btf, const struct btf_type *t)
{
	return t->size > ARG_SIZE_MAX || !members_aligned(btf, t, 0);
}

/* The same layout as ftrace_args_read() produces. */
static void build_model(struct model *m, const char *name)
{
	const struct btf_type *fn, *proto, *rt;
	const struct btf_param *p;
	struct btf *btf;
	unsigned int i, word = 0, reg = 0, slot = 0, words;
	int ret_in_memory;
	__s32 id;

	load_btf();
	id = name ? find_func(&btf, name) : -1;
	if (id < 0)
		return;
	fn = btf__type_by_id(btf, id);
	proto = btf__type_by_id(btf, fn->type);
	if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) > MAX_ARGS)
		return;

	/* A struct returned in memory takes the first register. */
	rt = proto->type ? fta_skip_mods(btf, proto->type, NULL) : NULL;
	ret_in_memory = rt && btf_is_composite(rt) && in_memory(btf, rt);
	reg = ret_in_memory;

	p = btf_params(proto);
	for (i = 0; i < btf_vlen(proto); i++, p++) {
		struct arg *a = &m->args[i];

		if (!p->type || classify(btf, p->type, a))
			return;
		a->name = btf__name_by_offset(btf, p->name_off);
		a->word = word;
		words = a->size > 8 ? 2 : 1;
		word += words;
		if (reg + words <= NR_ARG_REGS) {
			reg += words;
			continue;
		}
		/* 16-byte integers are 16-byte aligned on the stack. */
		if (words == 2 && a->class != C_STRUCT)
			slot = (slot + 1) & ~1U;
		a->on_stack = 1;
		a->slot = slot;
		slot += words;
	}
	m->nr_args = i;
	m->nr_words = word;
	m->btf = btf;
	if (ret_in_memory) {
		/* %rax returns the hidden pointer */
		fta_skip_mods(btf, proto->type, &m->ret.type_id);
		m->ret.class = C_POINTER;
		m->ret.size = 8;
		m->ret.name = "";
		m->ret_in_memory = 1;
	} else if (proto->type && !classify(btf, proto->type, &m->ret)) {
		m->ret.name = "";
	}
}

/* A struct returned in memory: the pointer to it, and its type */
static void print_ret_in_memory(struct trace_seq *s, const struct btf *btf,
				__u32 type_id, unsigned long long ptr)
{
	const struct btf_type *t = btf__type_by_id(btf, type_id);
	const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;

	trace_seq_printf(s, "(%s%s%s *)0x%llx",
			 t && btf_is_union(t) ? "union" : "struct",
			 name && *name ? " " : "", name ? name : "", ptr);
}

static struct model *get_model(struct tep_handle *tep, unsigned long long ip)
{
	unsigned int h = (ip >> 4) % CACHE_SIZE;
	struct model *m;

	/*
	 * Keyed by handle too: trace-cmd report -i a.dat -i b.dat has one
	 * for each file, and an address of one may be another function in
	 * the other (two boots, KASLR).  A handle's models go when the
	 * plugin unloads from it, which trace-cmd does before it frees the
	 * handle (tracecmd_close()): no later handle at the same address
	 * finds them.
	 */
	for (m = cache[h]; m; m = m->next)
		if (m->ip == ip && m->tep == tep)
			return m;

	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->tep = tep;
	m->ip = ip;
	build_model(m, tep_find_function(tep, ip));
	m->next = cache[h];
	cache[h] = m;
	return m;
}

static unsigned long long extract(const unsigned char *img,
				  unsigned int bit_off, unsigned int bits)
{
	unsigned long long val = 0;
	unsigned int i;

	for (i = 0; i < 8 && bit_off / 8 + i < ARG_SIZE_MAX; i++)
		val |= (unsigned long long)img[bit_off / 8 + i] << (i * 8);
	val >>= bit_off % 8;
	if (bits < 64)
		val &= (1ULL << bits) - 1;
	return val;
}

static long long sext(unsigned long long val, unsigned int bits)
{
	return bits >= 64 ? (long long)val :
		(long long)(val << (64 - bits)) >> (64 - bits);
}

static void print_enum(struct trace_seq *s, const struct btf *btf,
		       const struct btf_type *t, unsigned long long val)
{
	unsigned int i;

	if (btf_is_enum(t)) {
		const struct btf_enum *e = btf_enum(t);

		for (i = 0; i < btf_vlen(t); i++, e++)
			if ((__u32)e->val == (__u32)val) {
				trace_seq_puts(s, btf__name_by_offset(btf, e->name_off));
				return;
			}
	} else {
		const struct btf_enum64 *e = btf_enum64(t);

		for (i = 0; i < btf_vlen(t); i++, e++)
			if (btf_enum64_value(e) == val) {
				trace_seq_puts(s, btf__name_by_offset(btf, e->name_off));
				return;
			}
	}
	if (btf_kflag(t))
		trace_seq_printf(s, "%lld", sext(val, t->size * 8));
	else
		trace_seq_printf(s, "%llu", val);
}

static void print_type(struct trace_seq *s, const struct btf *btf, __u32 id,
		       const unsigned char *img, unsigned int bit_off,
		       unsigned int bits, int depth)
{
	const struct btf_type *t = fta_skip_mods(btf, id, NULL);
	unsigned int i, size;
	unsigned long long val;

	if (!t || depth > 4) {
		trace_seq_puts(s, "?");
		return;
	}
	if (btf_is_composite(t)) {
		const struct btf_member *m = btf_members(t);

		trace_seq_putc(s, '{');
		for (i = 0; i < btf_vlen(t); i++, m++) {
			const char *name = btf__name_by_offset(btf, m->name_off);

			if (i)
				trace_seq_puts(s, ", ");
			if (name && *name)
				trace_seq_printf(s, "%s=", name);
			print_type(s, btf, m->type, img,
				   bit_off + btf_member_bit_offset(t, i),
				   btf_member_bitfield_size(t, i), depth + 1);
		}
		trace_seq_putc(s, '}');
		return;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		const struct btf_type *et = fta_skip_mods(btf, a->type, NULL);

		size = et && et->size ? et->size : 1;
		trace_seq_putc(s, '[');
		for (i = 0; i < a->nelems &&
		     bit_off / 8 + (i + 1) * size <= ARG_SIZE_MAX; i++) {
			if (i)
				trace_seq_puts(s, ", ");
			print_type(s, btf, a->type, img, bit_off + i * size * 8,
				   0, depth + 1);
		}
		trace_seq_putc(s, ']');
		return;
	}

	size = btf_is_ptr(t) ? 8 : t->size;
	if (!bits)
		bits = (size < 8 ? size : 8) * 8;
	val = extract(img, bit_off, bits);

	if (hex_option->set || btf_is_ptr(t))
		trace_seq_printf(s, "0x%llx", val);
	else if (btf_is_enum(t) || btf_is_enum64(t))
		print_enum(s, btf, t, val);
	else if (btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_BOOL))
		trace_seq_puts(s, val ? "true" : "false");
	else if (btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_SIGNED))
		trace_seq_printf(s, "%lld", sext(val, bits));
	else if (btf_is_int(t))
		trace_seq_printf(s, "%llu", val);
	else
		trace_seq_printf(s, "0x%llx", val);
}

static const char *print_str(struct trace_seq *s, const char *p,
			     const char *end, unsigned long long ptr)
{
	unsigned char status;
	size_t len;

	if (!p || p + 2 > end) {
		trace_seq_printf(s, "0x%llx", ptr);
		return p;
	}
	status = *p++;
	len = strnlen(p, end - p);
	if (status == FARGS_STR_NULL) {
		trace_seq_puts(s, "(null)");
	} else if (status == FARGS_STR_FAULT) {
		trace_seq_printf(s, "0x%llx(fault)", ptr);
	} else {
		const char *c;

		trace_seq_putc(s, '"');
		for (c = p; c < p + len; c++) {
			if (*c == '"' || *c == '\\')
				trace_seq_printf(s, "\\%c", *c);
			else if (isprint((unsigned char)*c))
				trace_seq_putc(s, *c);
			else
				trace_seq_printf(s, "\\x%02x", (unsigned char)*c);
		}
		trace_seq_putc(s, '"');
		if (status == FARGS_STR_TRUNCATED)
			trace_seq_puts(s, "...");
	}
	return p + len + 1;
}

static void print_arg(struct trace_seq *s, const struct btf *btf,
		      const struct arg *a, const unsigned long long *w,
		      const char **str, const char *end)
{
	unsigned long long val = w[0];
	unsigned char img[ARG_SIZE_MAX];
	unsigned int i;

	if (a->size < 8)
		val &= (1ULL << (a->size * 8)) - 1;
	if (a->size > 8 && (hex_option->set || a->class != C_STRUCT)) {
		trace_seq_printf(s, "0x%llx%016llx", w[1], w[0]);
		return;
	}
	if (hex_option->set) {
		trace_seq_printf(s, "0x%llx", val);
		return;
	}
	switch (a->class) {
	case C_SIGNED:
		trace_seq_printf(s, "%lld", sext(val, a->size * 8));
		break;
	case C_UNSIGNED:
		trace_seq_printf(s, "%llu", val);
		break;
	case C_BOOL:
		trace_seq_puts(s, (val & 0xff) ? "true" : "false");
		break;
	case C_STRING:
		if (*str) {
			*str = print_str(s, *str, end, val);
			break;
		}
		trace_seq_printf(s, "0x%llx", val);
		break;
	case C_ENUM:
		print_enum(s, btf, btf__type_by_id(btf, a->type_id), val);
		break;
	case C_STRUCT:
		/*
		 * The value's bytes as the x86-64 kernel had them in memory,
		 * whatever the byte order of the host that reads the trace:
		 * extract() reads them little-endian.
		 */
		memset(img, 0, sizeof(img));
		for (i = 0; i < 8; i++) {
			img[i] = w[0] >> (8 * i);
			if (a->size > 8)
				img[8 + i] = w[1] >> (8 * i);
		}
		print_type(s, btf, a->type_id, img, 0, 0, 0);
		break;
	default:
		trace_seq_printf(s, "0x%llx", val);
	}
}

static void print_sym(struct trace_seq *s, struct tep_handle *tep,
		      unsigned long long addr)
{
	const char *name = tep_find_function(tep, addr);

	if (name)
		trace_seq_puts(s, name);
	else
		trace_seq_printf(s, "0x%llx", addr);
}

/*
 * The arguments of @m, from @words, as fargs_print_named() prints them;
 * @flags those of a func_args record (0 for a funcgraph_entry).
 */
static void print_named(struct trace_seq *s, const struct model *m,
			const unsigned long long *words,
			unsigned long long flags, const char *str,
			const char *end)
{
	unsigned int i;

	for (i = 0; i < m->nr_args; i++) {
		const struct arg *a = &m->args[i];

		if (i)
			trace_seq_puts(s, ", ");
		if (*a->name)
			trace_seq_printf(s, "%s=", a->name);
		/* A slot past the stack's end: not read, no string */
		if ((flags & FARGS_FL_STACK_CUT) && a->on_stack &&
		    a->slot + (a->size > 8 ? 2 : 1) > flags >> FARGS_STACK_SHIFT)
			trace_seq_puts(s, "<bad>");
		else
			print_arg(s, m->btf, a, &words[a->word], &str, end);
	}
}

/* Words without a model: registers by name, or w0, w1, ... */
static void print_raw(struct trace_seq *s, const unsigned long long *words,
		      unsigned int nr_words, int regs)
{
	unsigned int i;

	for (i = 0; i < nr_words; i++) {
		if (i)
			trace_seq_puts(s, ", ");
		if (regs && i < ARRAY_SIZE(reg_names))
			trace_seq_printf(s, "%s=", reg_names[i]);
		else
			trace_seq_printf(s, "w%u=", i);
		trace_seq_printf(s, "0x%llx", words[i]);
	}
}

static int fargs_handler(struct trace_seq *s, struct tep_record *record,
			 struct tep_event *event, void *context)
{
	unsigned long long ip, parent, flags, nr_words, nr_read;
	unsigned long long words[2 * MAX_ARGS + FARGS_RET_WORDS];
	struct tep_format_field *field;
	const char *end = (const char *)record->data + record->size;
	const char *str = NULL;
	struct model *m;
	unsigned int i;

	/*
	 * The fixed fields come before args: a record too short for them,
	 * or a format without them, is printed with the event's print fmt
	 * (a handler that returns nonzero asks for it).
	 */
	field = tep_find_field(event, "args");
	if (!field || record->size < field->offset ||
	    tep_get_field_val(s, event, "ip", record, &ip, 0) ||
	    tep_get_field_val(s, event, "parent_ip", record, &parent, 0) ||
	    tep_get_field_val(s, event, "flags", record, &flags, 0) ||
	    tep_get_field_val(s, event, "nr_words", record, &nr_words, 0))
		return 1;
	nr_read = nr_words + (flags & FARGS_FL_RET ? FARGS_RET_WORDS : 0);
	if (nr_words > 2 * MAX_ARGS ||
	    field->offset + nr_read * 8 > (unsigned long long)record->size) {
		nr_words = 0;
		nr_read = 0;
		flags &= ~FARGS_FL_RET;
	}
	for (i = 0; i < nr_read; i++)
		words[i] = tep_read_number(event->tep,
					   (char *)record->data + field->offset + i * 8, 8);

	print_sym(s, event->tep, ip);
	trace_seq_putc(s, '(');
	m = (flags & FARGS_FL_RAW) ? NULL : get_model(event->tep, ip);
	if (m && m->btf && m->nr_words == nr_words) {
		if (flags & FARGS_FL_STRINGS)
			str = (const char *)record->data + field->offset + nr_words * 8;
		print_named(s, m, words, flags, str, end);
	} else {
		print_raw(s, words, nr_words, flags & FARGS_FL_RAW);
	}
	trace_seq_putc(s, ')');
	/* Call-through: the return value, typed, unless void */
	if (flags & FARGS_FL_RET) {
		if (m && m->btf && m->nr_words == nr_words && m->ret.name) {
			const char *nostr = NULL;

			trace_seq_puts(s, " = ");
			if (m->ret_in_memory)
				print_ret_in_memory(s, m->btf, m->ret.type_id,
						    words[nr_words]);
			else
				print_arg(s, m->btf, &m->ret, &words[nr_words],
					  &nostr, end);
		} else if (!m || !m->btf || m->nr_words != nr_words) {
			trace_seq_printf(s, " = 0x%llx", words[nr_words]);
		}
	}
	if (parent) {
		trace_seq_puts(s, " <-");
		print_sym(s, event->tep, parent);
	}
	if (flags & FARGS_FL_RET) {
		unsigned long long ns = words[nr_words + 2];

		trace_seq_printf(s, " (%llu.%03llu us)", ns / 1000, ns % 1000);
	}
	if (flags & FARGS_FL_LOW_STACK)
		trace_seq_puts(s, " [entry only: low stack]");
	else if (flags & FARGS_FL_ENTRY_ONLY)
		trace_seq_puts(s, " [entry only: stack arguments]");
	if (flags & FARGS_FL_NO_MODEL) {
		trace_seq_puts(s, " [raw: no model]");
	} else if (flags & FARGS_FL_RAW) {
		unsigned int r = flags >> FARGS_REASON_SHIFT;

		trace_seq_printf(s, " [raw: %s]",
				 r < ARRAY_SIZE(reasons) ?
				 reasons[r] : "unknown");
	} else if (!m || !m->btf || m->nr_words != nr_words) {
		trace_seq_puts(s, vmlinux_btf ? " [raw: no BTF model]" :
					       " [raw: no BTF]");
	}
	return 0;
}

/*
 * funcgraph-args.  A funcgraph_entry record is 6.12's packed entry (func,
 * depth) followed, when the option recorded them, by the argument words,
 * 8 bytes each and unaligned: the format ends with "u8 args[]; offset:20;
 * size:0;" and the record's size says how many words there are.
 *
 * trace-cmd registers its function_graph handlers (libtracecmd's
 * tracecmd_ftrace_overrides()) before it loads the plugins, and both come
 * before the event formats are parsed: they wait in libtraceevent's list
 * of handlers, and the event gets the newest one for its name when it is
 * parsed.  A plugin that registered its own would replace trace-cmd's
 * (leaf merging, durations, depth) and could not reach it through the
 * event, whose handler and context it takes only later.  So the plugin
 * takes the handler out first: from the event if it is parsed already,
 * else by parsing a probe event of that system and name with an id that
 * no record carries (common_type is 16 bits), which takes the waiting
 * handler as the real event would (a format without fields of its own
 * fails to parse before that).  It then registers its wrapper, which
 * calls that handler and puts the arguments between the parentheses of
 * the "func()" that it printed.  A record without words gets the wrapped
 * handler's line unchanged.  A copy of the plugin loaded twice (from
 * TRACEEVENT_PLUGIN_DIR and from ~/.local) wraps the other copy's
 * wrapper, finds no "func()" left in its line and adds nothing.
 */
#define FGRAPH_PROBE_ID		0x7fff0000
#define FGRAPH_PROBE_NAME	"fgraph_probe"
#define FGRAPH_PROBE_FMT \
	"name: funcgraph_entry\n" \
	"ID: %d\n" \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n" \
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n" \
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n" \
	"\n" \
	"print fmt: \"plugin_function_args: probe for the funcgraph_entry handler\"\n"

/* The funcgraph_entry handler wrapped in one tep handle */
struct fgraph_wrap {
	struct tep_handle	*tep;
	tep_event_handler_func	handler;	/* NULL: none to wrap */
	void			*context;
	struct fgraph_wrap	*next;
};

static struct fgraph_wrap *fgraph_wraps;

static int fgraph_args_handler(struct trace_seq *s, struct tep_record *record,
			       struct tep_event *event, void *context);

/*
 * The parsed ftrace:funcgraph_entry event of @tep, not a probe.  Not
 * tep_find_event_by_name(): it would cache a probe that it found.
 */
static struct tep_event *fgraph_find_event(struct tep_handle *tep)
{
	int i, nr = tep_get_events_count(tep);
	struct tep_event *event;

	for (i = 0; i < nr; i++) {
		event = tep_get_event(tep, i);
		if (event && event->id < FGRAPH_PROBE_ID &&
		    !strcmp(event->name, "funcgraph_entry") &&
		    !strcmp(event->system, "ftrace"))
			return event;
	}
	return NULL;
}

/*
 * Take the funcgraph_entry handler that is in force in @tep into @w.
 * Return: 1 if it was waiting for the event (the probe took it out of
 * libtraceevent's list), 0 if the event has it, -1 on failure.
 */
static int fgraph_take_handler(struct tep_handle *tep, struct fgraph_wrap *w)
{
	struct tep_event *event = fgraph_find_event(tep);
	char fmt[sizeof(FGRAPH_PROBE_FMT) + 16];
	int id = FGRAPH_PROBE_ID, len;

	if (event) {
		w->handler = event->handler;
		w->context = event->context;
		return 0;
	}
	/* The plugin loaded twice: the other copy's probe is there */
	while (tep_find_event(tep, id))
		id++;
	len = snprintf(fmt, sizeof(fmt), FGRAPH_PROBE_FMT, id);
	event = NULL;
	if (tep_parse_format(tep, &event, fmt, len, "ftrace") || !event)
		return -1;
	w->handler = event->handler;
	w->context = event->context;
	event->handler = NULL;
	event->context = NULL;
	/*
	 * Rename the probe (in place: the name is libtraceevent's), or
	 * handlers registered for funcgraph_entry from now on would go to
	 * it rather than wait for the real event.
	 */
	if (strlen(event->name) >= strlen(FGRAPH_PROBE_NAME))
		memcpy(event->name, FGRAPH_PROBE_NAME, sizeof(FGRAPH_PROBE_NAME));
	return 1;
}

static void fgraph_wrap_init(struct tep_handle *tep)
{
	struct fgraph_wrap *w = calloc(1, sizeof(*w));

	if (!w)
		return;
	if (fgraph_take_handler(tep, w) < 0) {
		free(w);
		return;
	}
	w->tep = tep;
	w->next = fgraph_wraps;
	fgraph_wraps = w;
	tep_register_event_handler(tep, -1, "ftrace", "funcgraph_entry",
				   fgraph_args_handler, w);
}

static void fgraph_wrap_exit(struct tep_handle *tep)
{
	struct fgraph_wrap **p, *w;
	struct tep_event *event;

	for (p = &fgraph_wraps; *p && (*p)->tep != tep; p = &(*p)->next)
		;
	w = *p;
	if (!w)
		return;
	*p = w->next;
	event = fgraph_find_event(tep);
	if (event && event->handler == fgraph_args_handler &&
	    event->context == w) {
		/* The event gets back the handler that it had */
		event->handler = w->handler;
		event->context = w->context;
	} else if (!tep_unregister_event_handler(tep, -1, "ftrace",
						 "funcgraph_entry",
						 fgraph_args_handler, w) &&
		   w->handler) {
		/* Still waiting for the event: so is the handler again */
		tep_register_event_handler(tep, -1, "ftrace", "funcgraph_entry",
					   w->handler, w->context);
	}
	free(w);
}

/*
 * The argument words after a funcgraph_entry record: how many.  The
 * record is read no further than its size.
 */
static unsigned int fgraph_words(struct tep_event *event,
				 struct tep_record *record,
				 unsigned long long *words)
{
	struct tep_format_field *field = tep_find_field(event, "args");
	unsigned int i, nr;

	if (!field || field->size || record->size <= field->offset)
		return 0;
	nr = (record->size - field->offset) / 8;
	if (nr > 2 * MAX_ARGS)
		return 0;
	for (i = 0; i < nr; i++)
		words[i] = tep_read_number(event->tep,
					   (char *)record->data + field->offset + i * 8, 8);
	return nr;
}

/* As fgraph_args_print() prints them, without the parentheses */
static void fgraph_print_args(struct trace_seq *s, struct tep_handle *tep,
			      unsigned long long func,
			      const unsigned long long *words, unsigned int nr)
{
	struct model *m = get_model(tep, func);

	if (m && m->btf && m->nr_words == nr)
		print_named(s, m, words, 0, NULL, NULL);
	else
		print_raw(s, words, nr, 0);
}

/*
 * Where the arguments go in what the wrapped handler printed from @start
 * on: after the "(" of the first "name()".  Return: the offset, 0 if none.
 */
static unsigned int fgraph_args_at(struct trace_seq *s, unsigned int start,
				   const char *name)
{
	size_t len = strlen(name);
	const char *p = s->buffer + start, *end = s->buffer + s->len;

	if (s->state != TRACE_SEQ__GOOD || start > s->len)
		return 0;
	while ((p = memmem(p, end - p, name, len))) {
		if (end - p >= (long)len + 2 && !memcmp(p + len, "()", 2))
			return p + len + 1 - s->buffer;
		p++;
	}
	return 0;
}

static int fgraph_args_handler(struct trace_seq *s, struct tep_record *record,
			       struct tep_event *event, void *context)
{
	struct fgraph_wrap *w = context;
	unsigned long long words[2 * MAX_ARGS];
	unsigned long long func, depth;
	unsigned int start = s->len, at, tail_len, nr = 0;
	const char *name;
	char addr[24];
	char *tail;
	int ret;

	/*
	 * The words first: a record that has them has func and depth, which
	 * come before them (tep_get_field_val() reads a field without
	 * looking at the record's size).
	 */
	if (!graph_noargs_option->set)
		nr = fgraph_words(event, record, words);
	if (nr && tep_get_field_val(s, event, "func", record, &func, 0))
		nr = 0;
	if (!nr)
		/* trace-cmd's line; with no handler, the print fmt's */
		return w->handler ? w->handler(s, record, event, w->context) : 1;

	name = tep_find_function(event->tep, func);
	if (!w->handler) {
		/* The print fmt's "--> %ps (%d)", with the arguments */
		if (tep_get_field_val(s, event, "depth", record, &depth, 0))
			depth = 0;
		if (name)
			trace_seq_printf(s, "--> %s(", name);
		else
			trace_seq_printf(s, "--> 0x%llx(", func);
		fgraph_print_args(s, event->tep, func, words, nr);
		trace_seq_printf(s, ") (%d)", (int)depth);
		return 0;
	}
	if (!name) {
		/* As trace-cmd prints an address that it cannot resolve */
		snprintf(addr, sizeof(addr), "%llx", func);
		name = addr;
	}

	ret = w->handler(s, record, event, w->context);
	at = fgraph_args_at(s, start, name);
	if (!at)
		return ret;
	/* Cut the line after "name(", print the arguments, put the rest back */
	tail_len = s->len - at;
	tail = strndup(s->buffer + at, tail_len);
	if (!tail)
		return ret;
	s->len = at;
	fgraph_print_args(s, event->tep, func, words, nr);
	trace_seq_puts(s, tail);
	free(tail);
	return ret;
}

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	tep_register_event_handler(tep, -1, "ftrace", "func_args",
				   fargs_handler, NULL);
	fgraph_wrap_init(tep);
	/*
	 * Once: each tep_plugin_add_options() applies trace-cmd's -O again,
	 * which would toggle a bare boolean ("-O function_args:hex") off in
	 * the second trace file's load.
	 */
	if (!nr_loads++)
		tep_plugin_add_options("function_args", plugin_options);
	return 0;
}

void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	struct model **p, *m;
	int i;

	tep_unregister_event_handler(tep, -1, "ftrace", "func_args",
				     fargs_handler, NULL);
	fgraph_wrap_exit(tep);
	for (i = 0; i < CACHE_SIZE; i++) {
		for (p = &cache[i]; (m = *p);) {
			if (m->tep == tep) {
				*p = m->next;
				free(m);
			} else {
				p = &m->next;
			}
		}
	}
	/* The other loads' models point into the BTF */
	if (--nr_loads > 0)
		return;
	tep_plugin_remove_options(plugin_options);
	for (i = 0; i < nr_module_btf; i++) {
		btf__free(module_funcs[i].btf);
		free(module_funcs[i].ids);
	}
	free(module_funcs);
	module_funcs = NULL;
	nr_module_btf = 0;
	free(vmlinux_funcs.ids);
	memset(&vmlinux_funcs, 0, sizeof(vmlinux_funcs));
	btf__free(vmlinux_btf);
	vmlinux_btf = NULL;
	btf_loaded = 0;
}
