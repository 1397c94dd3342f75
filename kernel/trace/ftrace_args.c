// SPDX-License-Identifier: GPL-2.0
/*
 * Function models for argument-aware ftrace_ops.
 *
 * When an ftrace_ops with FTRACE_OPS_FL_ARGS_ONLY enables a function, the
 * ftrace core calls ftrace_args_prepare() for it.  That builds the
 * function's model from BTF (vmlinux BTF, or the module's BTF for module
 * text) and caches it in a hash table keyed by ip.  Callbacks find it with
 * ftrace_args_model(), which takes no lock, and copy the arguments out of
 * their ftrace_regs with ftrace_args_read().
 *
 * Argument locations follow the x86-64 SysV calling convention: integer
 * class arguments of up to 8 bytes take one register, aggregates of 9 to 16
 * bytes take two registers if two are left and go to the stack otherwise,
 * and a struct returned in memory (larger than 16 bytes, or packed) takes
 * %rdi for its hidden pointer, which the function returns in %rax.
 */
#include <linux/ftrace_args.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/hash.h>
#include <linux/btf.h>
#include <linux/bpf.h>
#include <asm/stacktrace.h>

#include "ftrace_internal.h"

#define FTA_HASH_BITS	14
#define FTA_HASH_SIZE	BIT(FTA_HASH_BITS)

/* fta_model.lin_regs of a model whose words are not in order */
#define FTRACE_ARGS_NOT_LINEAR	0xff

/**
 * struct fta_model - a function model and what only the core uses of it
 * @hnode: link in the model cache
 * @dead: next model to free, once out of the cache (fta_free_dead())
 * @lin_regs: when the first @lin_regs words are the first argument
 *	registers in order and the others the first stack slots in order (the
 *	common case), their count; else %FTRACE_ARGS_NOT_LINEAR
 * @src: where each stored word comes from, an argument register index
 *	below %FTRACE_ARGS_NR_REGS, else %FTRACE_ARGS_NR_REGS plus a stack slot
 * @pub: what users get from ftrace_args_model(); last, because its @args
 *	is a flexible array
 *
 * ftrace_args_read() reads @lin_regs and @src, in the cache line of
 * @hnode that ftrace_args_model() has just read, and @pub's counts.
 */
struct fta_model {
	struct hlist_node		hnode;
	struct fta_model		*dead;
	u8				lin_regs;
	u8				src[FTRACE_ARGS_WORDS_MAX];
	struct ftrace_func_model	pub;
};

/* The core's part of a model that ftrace_args_model() returned */
static __always_inline const struct fta_model *
fta_model_of(const struct ftrace_func_model *model)
{
	return container_of_const(model, struct fta_model, pub);
}

/* Protects the cache's writers and the vmlinux name index. */
static DEFINE_MUTEX(fta_mutex);
static struct hlist_head *fta_table;

/* vmlinux BTF_KIND_FUNC ids sorted by name, built on first use. */
static u32 *fta_func_ids;
static u32 fta_nr_func_ids;

static const char * const fta_reasons[] = {
	[FTRACE_MODEL_OK]	= "",
	[FTRACE_MODEL_NO_SYMBOL] = "no symbol",
	[FTRACE_MODEL_NO_BTF]	= "no BTF",
	[FTRACE_MODEL_VARIADIC]	= "variadic",
	[FTRACE_MODEL_TOO_MANY]	= "too many arguments",
	[FTRACE_MODEL_BAD_TYPE]	= "unsupported argument type",
	[FTRACE_MODEL_AMBIGUOUS] = "several prototypes",
};

/**
 * ftrace_args_reason_str - why a model is unknown, for humans
 * @reason: the model's &enum ftrace_model_reason
 *
 * Return: a short string, "" for %FTRACE_MODEL_OK.
 */
const char *ftrace_args_reason_str(unsigned int reason)
{
	if (reason >= ARRAY_SIZE(fta_reasons))
		return "unknown";
	return fta_reasons[reason];
}
EXPORT_SYMBOL_GPL(ftrace_args_reason_str);

/**
 * ftrace_args_model - find the model of a traced function
 * @ip: the ftrace location (the ip an ftrace callback receives)
 *
 * Lock-free and cheap: one hash and a short chain walk.  A model is freed
 * after both an RCU grace period and an RCU Tasks Rude one, so the caller
 * must be inside rcu_read_lock(), or have preemption disabled, as an
 * ftrace callback has past ftrace_test_recursion_trylock(), where RCU may
 * not be watching.  A callback that the ftrace core calls without its own
 * recursion check may run preemptible: it must take the recursion lock
 * before it calls this.  The model stays valid until the caller leaves
 * that section.
 *
 * Return: the model, which may be an unknown model, or NULL when none was
 * built for @ip (the ip was never enabled by an %FTRACE_OPS_FL_ARGS_ONLY
 * ops, or building it ran out of memory).
 */
const struct ftrace_func_model *ftrace_args_model(unsigned long ip)
{
	struct hlist_head *table = rcu_dereference_raw(fta_table);
	struct hlist_node *node;

	if (!table)
		return NULL;
	table += hash_long(ip, FTA_HASH_BITS);

	/*
	 * Callers are in an RCU read-side section by contract; the raw
	 * accessors keep the lockdep checks of the _rcu iterators off the
	 * tracing path.
	 */
	node = rcu_dereference_raw(hlist_first_rcu(table));
	for (; node; node = rcu_dereference_raw(hlist_next_rcu(node))) {
		const struct fta_model *m =
			hlist_entry(node, struct fta_model, hnode);

		if (m->pub.ip == ip)
			return &m->pub;
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(ftrace_args_model);

/*
 * How many of the @nr words above the return address at @sp lie on the
 * stack that @sp is on: the task's stack, or the IRQ, exception or entry
 * stack the function runs on.  All of them do when the model matches the
 * function; a BTF prototype that does not match the compiled code could
 * send the reads past the end of the stack, into a guard page or another
 * stack.  get_stack_info_noinstr() knows the exact bounds of each x86-64
 * stack (a THREAD_SIZE mask, as regs_within_kernel_stack() uses, does not
 * fit the IRQ and exception stacks), and is noinstr: it cannot recurse
 * into the tracer.
 */
static __always_inline unsigned int fta_stack_words(unsigned long *sp,
						    unsigned int nr)
{
	struct stack_info info;

	if (!get_stack_info_noinstr(sp, current, &info))
		return 0;
	return min_t(unsigned long, nr, info.end - (sp + 1));
}

/**
 * ftrace_args_read - copy the arguments of a function out of ftrace_regs
 * @model: the function's model, from ftrace_args_model()
 * @fregs: the ftrace_regs the callback received
 * @buf: room for @model->nr_words words
 *
 * Stores @model->nr_words words, each argument at @buf[arg->word]: one
 * word for arguments of up to 8 bytes, two words for larger ones, stack
 * arguments included.  Values smaller than a word are stored as the
 * register held them; consumers mask them to the argument size.  For an
 * unknown model the raw argument registers are stored instead.
 *
 * Stack slots are read only within the stack the function runs on; the
 * words of a slot past its end are stored as 0.
 *
 * Context: any ftrace callback context, NMI included, with preemption
 * disabled: the bounds of the IRQ, exception and entry stacks are per-CPU
 * data.  A callback has it disabled once it holds
 * ftrace_test_recursion_trylock(), or when ftrace calls it through
 * ftrace_ops_assist_func() (%FTRACE_OPS_FL_RECURSION); other callers
 * disable it themselves.  On the function's entry only: @fregs must be the
 * registers at function entry.
 *
 * Return: the number of stack slots read: @model->nr_stack, or fewer when
 * the stack ends before the last of them (slots from the returned number
 * on were not read).
 */
unsigned int ftrace_args_read(const struct ftrace_func_model *model,
			      struct ftrace_regs *fregs, unsigned long *buf)
{
	const struct fta_model *m = fta_model_of(model);
	unsigned int w, src, nr = model->nr_words, lin = m->lin_regs;
	unsigned long *sp, *stack;
	unsigned int ok = 0;

	sp = (unsigned long *)ftrace_regs_get_stack_pointer(fregs);
	if (model->nr_stack)
		ok = fta_stack_words(sp, model->nr_stack);
	/* Stack arguments start right above the return address. */
	stack = sp + 1;

	if (likely(lin != FTRACE_ARGS_NOT_LINEAR)) {
		/* Constant register numbers: one load per word. */
		switch (lin) {
		case 6:
			buf[5] = ftrace_regs_get_argument(fregs, 5);
			fallthrough;
		case 5:
			buf[4] = ftrace_regs_get_argument(fregs, 4);
			fallthrough;
		case 4:
			buf[3] = ftrace_regs_get_argument(fregs, 3);
			fallthrough;
		case 3:
			buf[2] = ftrace_regs_get_argument(fregs, 2);
			fallthrough;
		case 2:
			buf[1] = ftrace_regs_get_argument(fregs, 1);
			fallthrough;
		case 1:
			buf[0] = ftrace_regs_get_argument(fregs, 0);
			fallthrough;
		default:
			break;
		}
		for (w = lin; w < nr; w++)
			buf[w] = w - lin < ok ? stack[w - lin] : 0;
		return ok;
	}

	for (w = 0; w < nr; w++) {
		src = m->src[w];
		if (src < FTRACE_ARGS_NR_REGS) {
			buf[w] = ftrace_regs_get_argument(fregs, src);
			continue;
		}
		src -= FTRACE_ARGS_NR_REGS;
		buf[w] = src < ok ? stack[src] : 0;
	}
	return ok;
}
EXPORT_SYMBOL_GPL(ftrace_args_read);

/*
 * BTF may hold several FUNCs of one name: static functions of different
 * files, or a weak function beside the one that overrides it (pahole
 * 1.24 keeps them all).  It does not say which one is at an address.
 * When their types agree, the model takes the names of the lowest id,
 * the one that lookups by name in BTF (the kernel's, libbpf's) find;
 * when they differ, there is no model (%FTRACE_MODEL_AMBIGUOUS).
 */
static int fta_cmp_func(const void *a, const void *b, const void *priv)
{
	const struct btf *btf = priv;
	u32 ia = *(const u32 *)a, ib = *(const u32 *)b;
	const struct btf_type *ta = btf_type_by_id(btf, ia);
	const struct btf_type *tb = btf_type_by_id(btf, ib);
	int ret;

	ret = strcmp(btf_name_by_offset(btf, ta->name_off),
		     btf_name_by_offset(btf, tb->name_off));
	return ret ?: (ia > ib) - (ia < ib);
}

/*
 * Do FUNCs @a and @b return and take the same types?  Their models then
 * differ in parameter names only.
 */
static bool fta_same_types(const struct btf *btf, u32 a, u32 b)
{
	const struct btf_type *pa, *pb;
	const struct btf_param *qa, *qb;
	u16 i;

	pa = btf_type_by_id(btf, btf_type_by_id(btf, a)->type);
	pb = btf_type_by_id(btf, btf_type_by_id(btf, b)->type);
	if (pa == pb)
		return true;
	if (!pa || !pb || !btf_type_is_func_proto(pa) ||
	    !btf_type_is_func_proto(pb) || pa->type != pb->type ||
	    btf_type_vlen(pa) != btf_type_vlen(pb))
		return false;
	qa = btf_params(pa);
	qb = btf_params(pb);
	for (i = 0; i < btf_type_vlen(pa); i++)
		if (qa[i].type != qb[i].type)
			return false;
	return true;
}

/* Sort vmlinux's function ids by name, then id, once: lookups take O(log n) */
static int fta_build_index(const struct btf *btf)
{
	u32 i, n = 0, total = btf_nr_types(btf);
	u32 *ids;

	for (i = 1; i < total; i++)
		if (btf_type_is_func(btf_type_by_id(btf, i)))
			n++;

	ids = kvmalloc_array(n, sizeof(*ids), GFP_KERNEL);
	if (!ids)
		return -ENOMEM;

	n = 0;
	for (i = 1; i < total; i++)
		if (btf_type_is_func(btf_type_by_id(btf, i)))
			ids[n++] = i;

	sort_r(ids, n, sizeof(*ids), fta_cmp_func, NULL, btf);
	fta_func_ids = ids;
	fta_nr_func_ids = n;
	return 0;
}

/*
 * The FUNC of @name in vmlinux BTF: -ENOENT if there is none, -ENOTUNIQ
 * (name not unique) if there are several whose types differ.
 */
static s32 fta_find_vmlinux_func(const struct btf *btf, const char *name)
{
	const struct btf_type *t;
	u32 lo = 0, hi, i;

	if (!fta_func_ids && fta_build_index(btf))
		return -ENOMEM;

	hi = fta_nr_func_ids;

	/* The first id of the name, then the others of the name */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		t = btf_type_by_id(btf, fta_func_ids[mid]);
		if (strcmp(btf_name_by_offset(btf, t->name_off), name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < fta_nr_func_ids; i++) {
		t = btf_type_by_id(btf, fta_func_ids[i]);
		if (strcmp(btf_name_by_offset(btf, t->name_off), name))
			break;
		if (!fta_same_types(btf, fta_func_ids[lo], fta_func_ids[i]))
			return -ENOTUNIQ;
	}
	if (i == lo)
		return -ENOENT;
	return fta_func_ids[lo];
}

/* Module BTF is small: walk only the module's own types, all of them. */
static s32 fta_find_module_func(const struct btf *btf, const struct btf *base,
				const char *name)
{
	u32 i, total = btf_nr_types(btf);
	const struct btf_type *t;
	s32 id = -ENOENT;

	for (i = btf_nr_types(base); i < total; i++) {
		t = btf_type_by_id(btf, i);
		if (!btf_type_is_func(t) ||
		    strcmp(name, btf_name_by_offset(btf, t->name_off)))
			continue;
		if (id < 0)
			id = i;
		else if (!fta_same_types(btf, id, i))
			return -ENOTUNIQ;
	}
	return id;
}

static bool fta_members_aligned(const struct btf *btf,
				const struct btf_type *t, u32 off);

/*
 * Is every scalar of a value of type @id, @off bytes into an aggregate, at
 * its natural alignment?  Array elements count as much as members: the
 * first two elements of an array show whether all of them are aligned (the
 * first its offset, the second the element size).
 */
static bool fta_aligned(const struct btf *btf, u32 id, u32 off)
{
	const struct btf_type *t = btf_type_skip_modifiers(btf, id, NULL);
	const struct btf_array *arr;
	u32 i, size;

	if (!t)
		return false;
	if (btf_type_is_struct(t))
		return fta_members_aligned(btf, t, off);
	if (btf_type_is_array(t)) {
		arr = btf_array(t);
		if (IS_ERR(btf_resolve_size(btf, btf_type_by_id(btf, arr->type),
					    &size)))
			return false;
		for (i = 0; i < min(arr->nelems, 2U); i++) {
			if (!fta_aligned(btf, arr->type, off + i * size))
				return false;
		}
		return true;
	}
	if (!btf_type_is_int(t) && !btf_type_is_ptr(t) && !btf_is_any_enum(t))
		return false;
	size = btf_type_is_ptr(t) ? sizeof(void *) : t->size;
	return size && (size > 8 || !(off % size));
}

/* The members of the struct or union @t, which is @off bytes in */
static bool fta_members_aligned(const struct btf *btf,
				const struct btf_type *t, u32 off)
{
	const struct btf_member *m;
	u32 i;

	for_each_member(i, t, m) {
		if (__btf_member_bitfield_size(t, m))
			continue;
		if (!fta_aligned(btf, m->type,
				 off + __btf_member_bit_offset(t, m) / 8))
			return false;
	}
	return true;
}

/*
 * Only aggregates whose scalars all sit at their natural alignment, in
 * nested structs and arrays too, travel in registers; a packed struct
 * with a misaligned one goes to memory, which the model cannot express.
 */
static bool fta_struct_in_regs(const struct btf *btf, const struct btf_type *t)
{
	return fta_members_aligned(btf, t, 0);
}

/*
 * Is @id, the target of a pointer, a const char?  Only such a pointer is
 * a string the function reads; a plain char * is as often a buffer that
 * the function fills (vfs_read()'s buf), whose bytes at entry mean
 * nothing.  The const may come before or after typedefs and type tags
 * (__user).
 */
static bool fta_const_char(const struct btf *btf, u32 id)
{
	const struct btf_type *t = btf_type_by_id(btf, id);
	bool is_const = false;

	for (; t; t = btf_type_by_id(btf, t->type)) {
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_CONST:
			is_const = true;
			continue;
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			continue;
		}
		break;
	}
	return is_const && t && btf_type_is_int(t) && t->size == 1 &&
	       !strcmp(btf_name_by_offset(btf, t->name_off), "char");
}

static int fta_classify(const struct btf *btf, u32 type_id,
			struct ftrace_arg_desc *d)
{
	const struct btf_type *t;
	u32 id;

	if (!type_id) {
		d->class = FTRACE_ARG_VOID;
		return 0;
	}

	t = btf_type_skip_modifiers(btf, type_id, &id);
	if (!t)
		return -EINVAL;
	d->type_id = id;

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
		if (t->size != 1 && t->size != 2 && t->size != 4 &&
		    t->size != 8 && t->size != 16)
			return -EINVAL;
		d->size = t->size;
		if (btf_int_encoding(t) & BTF_INT_BOOL)
			d->class = FTRACE_ARG_BOOL;
		else if (btf_int_encoding(t) & BTF_INT_SIGNED)
			d->class = FTRACE_ARG_SIGNED;
		else
			d->class = FTRACE_ARG_UNSIGNED;
		return 0;
	case BTF_KIND_PTR:
		d->size = sizeof(void *);
		d->class = FTRACE_ARG_POINTER;
		if (fta_const_char(btf, t->type))
			d->class = FTRACE_ARG_STRING;
		return 0;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (!t->size || t->size > sizeof(u64))
			return -EINVAL;
		d->size = t->size;
		d->class = FTRACE_ARG_ENUM;
		return 0;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		d->class = FTRACE_ARG_STRUCT;
		/* Size 0 here means "passed in memory". */
		if (t->size > FTRACE_ARG_SIZE_MAX || !fta_struct_in_regs(btf, t))
			return -E2BIG;
		if (!t->size)
			return -EINVAL;
		d->size = t->size;
		return 0;
	default:
		/* float, function, forward declaration... */
		return -EINVAL;
	}
}

/* Set lin_regs: are the words the registers, then the stack, in order? */
static void fta_set_linear(struct fta_model *m)
{
	unsigned int w, nreg = 0;

	while (nreg < m->pub.nr_words && nreg < FTRACE_ARGS_NR_REGS &&
	       m->src[nreg] == nreg)
		nreg++;
	m->lin_regs = nreg;
	for (w = nreg; w < m->pub.nr_words; w++) {
		if (m->src[w] != FTRACE_ARGS_NR_REGS + w - nreg)
			m->lin_regs = FTRACE_ARGS_NOT_LINEAR;
	}
}

static struct fta_model *fta_alloc_unknown(unsigned long ip, u8 reason)
{
	struct fta_model *m = kzalloc(sizeof(*m), GFP_KERNEL);
	unsigned int i;

	if (!m)
		return NULL;
	m->pub.ip = ip;
	m->pub.flags = FTRACE_MODEL_UNKNOWN;
	m->pub.reason = reason;
	m->pub.nr_words = FTRACE_ARGS_NR_REGS;
	for (i = 0; i < FTRACE_ARGS_NR_REGS; i++)
		m->src[i] = i;
	fta_set_linear(m);
	return m;
}

/* Fill in the model of @proto; returns a reason code. */
static u8 fta_build(struct fta_model *m, const struct btf *btf,
		    const struct btf_type *proto)
{
	struct ftrace_func_model *model = &m->pub;
	const struct btf_param *params = btf_params(proto);
	unsigned int i, nr = btf_type_vlen(proto);
	unsigned int reg = 0, stack = 0, word = 0, w;
	int ret;

	ret = fta_classify(btf, proto->type, &model->ret);
	model->ret.loc = FTRACE_ARG_LOC_RET;
	if (ret == -E2BIG) {
		/*
		 * Returned in memory, through a pointer the caller passes in
		 * the first register and the function returns in %rax: the
		 * return value is that pointer, the arguments start at %rsi.
		 */
		model->ret.loc = FTRACE_ARG_LOC_RET_MEM;
		model->ret.class = FTRACE_ARG_POINTER;
		model->ret.size = sizeof(void *);
		reg = 1;
	} else if (ret) {
		return FTRACE_MODEL_BAD_TYPE;
	}

	for (i = 0; i < nr; i++) {
		struct ftrace_arg_desc *arg = &model->args[i];
		unsigned int words;

		if (!params[i].type)
			return FTRACE_MODEL_VARIADIC;
		if (fta_classify(btf, params[i].type, arg))
			return FTRACE_MODEL_BAD_TYPE;

		arg->name = btf_name_by_offset(btf, params[i].name_off);
		words = DIV_ROUND_UP(arg->size, sizeof(long));
		if (reg + words <= FTRACE_ARGS_NR_REGS) {
			arg->loc = FTRACE_ARG_LOC_REG;
			arg->slot = reg;
			reg += words;
		} else {
			/* 16-byte integers are 16-byte aligned on the stack. */
			if (words == 2 && arg->class != FTRACE_ARG_STRUCT)
				stack = ALIGN(stack, 2);
			arg->loc = FTRACE_ARG_LOC_STACK;
			arg->slot = stack;
			stack += words;
		}
		arg->word = word;
		for (w = 0; w < words; w++)
			m->src[word + w] = arg->slot + w +
				(arg->loc == FTRACE_ARG_LOC_STACK ?
				 FTRACE_ARGS_NR_REGS : 0);
		word += words;
	}
	model->nr_args = nr;
	model->nr_words = word;
	model->nr_stack = stack;
	fta_set_linear(m);
	return FTRACE_MODEL_OK;
}

/* The model of @ip, function @name of @mod (NULL: vmlinux) */
static struct fta_model *fta_create_in(unsigned long ip, const char *name,
				       struct module *mod)
{
	struct fta_model *m;
	const struct btf_type *t;
	struct btf *btf, *base;
	unsigned int nr;
	s32 id;
	u8 reason;

	base = bpf_get_btf_vmlinux();
	if (IS_ERR_OR_NULL(base))
		return fta_alloc_unknown(ip, FTRACE_MODEL_NO_BTF);

	if (mod) {
		btf = btf_get_module_btf(mod);
		if (IS_ERR_OR_NULL(btf))
			return fta_alloc_unknown(ip, FTRACE_MODEL_NO_BTF);
		id = fta_find_module_func(btf, base, name);
	} else {
		btf = base;
		btf_get(btf);
		id = fta_find_vmlinux_func(btf, name);
	}
	if (id == -ENOMEM)
		goto err_put;
	if (id == -ENOTUNIQ) {
		btf_put(btf);
		return fta_alloc_unknown(ip, FTRACE_MODEL_AMBIGUOUS);
	}
	if (id < 0)
		goto no_btf;

	t = btf_type_by_id(btf, id);
	t = btf_type_by_id(btf, t->type);
	if (!t || !btf_type_is_func_proto(t))
		goto no_btf;

	nr = btf_type_vlen(t);
	if (nr > FTRACE_ARGS_MAX) {
		btf_put(btf);
		return fta_alloc_unknown(ip, FTRACE_MODEL_TOO_MANY);
	}

	m = kzalloc(struct_size(m, pub.args, nr), GFP_KERNEL);
	if (!m)
		goto err_put;
	m->pub.ip = ip;

	reason = fta_build(m, btf, t);
	if (reason != FTRACE_MODEL_OK) {
		kfree(m);
		btf_put(btf);
		return fta_alloc_unknown(ip, reason);
	}
	m->pub.btf = btf;
	return m;

no_btf:
	btf_put(btf);
	return fta_alloc_unknown(ip, FTRACE_MODEL_NO_BTF);
err_put:
	btf_put(btf);
	return NULL;
}

/*
 * Callers need not keep @ip's module alive (the ftrace core holds
 * ftrace_lock, which ftrace_release_mod() waits for, but other callers of
 * ftrace_args_prepare() hold nothing): take a reference on it for the
 * time its symbol and BTF are read.  A module that is going away gets no
 * model; its addresses are about to be reused.
 */
static struct fta_model *fta_create(unsigned long ip)
{
	struct fta_model *m;
	char name[KSYM_NAME_LEN];
	struct module *mod;
	bool going = false;

	preempt_disable();
	mod = __module_address(ip);
	if (mod && !try_module_get(mod))
		going = true;
	preempt_enable();
	if (going)
		return NULL;

	/* The symbol that contains @ip; ip may sit after an ENDBR. */
	if (lookup_symbol_name(ip, name))
		m = fta_alloc_unknown(ip, FTRACE_MODEL_NO_SYMBOL);
	else
		m = fta_create_in(ip, name, mod);
	module_put(mod);
	return m;
}

static struct fta_model *fta_lookup_locked(unsigned long ip)
{
	struct fta_model *m;

	hlist_for_each_entry(m, &fta_table[hash_long(ip, FTA_HASH_BITS)],
			     hnode) {
		if (m->pub.ip == ip)
			return m;
	}
	return NULL;
}

/**
 * ftrace_args_prepare - build and cache the model of a function
 * @ip: the ftrace location of the function
 *
 * The ftrace core calls this for every function that an ops with
 * %FTRACE_OPS_FL_ARGS_ONLY enables, before the function's call site is patched.
 * Any other user may call it from process context to build a model in
 * advance.  Functions with no usable BTF get an unknown model.
 *
 * The caller need not hold ftrace_lock or a reference on the module that
 * holds @ip: the model is built with a reference on that module taken
 * here, and none is built once the module is going away.
 *
 * Context: process context; may sleep.  It may be called with ftrace_lock
 * held, as the ftrace core does.
 * Return: 0 when a model (known or unknown) is cached, -EINVAL when @ip is
 * no ftrace location, -ENOMEM when none could be built, -ENOENT when @ip
 * belongs to a module that is going away.
 */
int ftrace_args_prepare(unsigned long ip)
{
	struct hlist_head *table;
	struct fta_model *m;
	int ret = 0;

	might_sleep();

	mutex_lock(&fta_mutex);
	if (!fta_table) {
		table = kvcalloc(FTA_HASH_SIZE, sizeof(*table), GFP_KERNEL);
		if (!table) {
			ret = -ENOMEM;
			goto out;
		}
		rcu_assign_pointer(fta_table, table);
	}

	if (fta_lookup_locked(ip))
		goto out;
	/*
	 * Only a function ftrace knows, checked under fta_mutex: once its
	 * records are dropped, ftrace_args_text_free() waits for the mutex
	 * and drops what was built meanwhile.
	 */
	ret = -EINVAL;
	if (ftrace_location(ip) != ip)
		goto out;

	ret = 0;
	m = fta_create(ip);
	if (!m) {
		ret = -ENOMEM;
		if (is_module_text_address(ip))
			ret = -ENOENT;
		goto out;
	}
	hlist_add_head_rcu(&m->hnode, &fta_table[hash_long(ip, FTA_HASH_BITS)]);
out:
	mutex_unlock(&fta_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(ftrace_args_prepare);

/*
 * Free the models on the @dead list, which are out of the cache, once no
 * reader can hold them.  ftrace callbacks read them with preemption
 * disabled, possibly where RCU is not watching (ftrace checks that only
 * with CONFIG_FTRACE_VALIDATE_RCU_IS_WATCHING): synchronize_rcu_tasks_rude()
 * waits for those, as the ftrace core does before it frees a dynamic
 * ops.  synchronize_rcu() waits for the readers under rcu_read_lock()
 * (the trace output).
 */
static void fta_free_dead(struct fta_model *dead)
{
	struct fta_model *m;

	if (!dead)
		return;
	synchronize_rcu();
	synchronize_rcu_tasks_rude();
	while (dead) {
		m = dead;
		dead = m->dead;
		if (m->pub.btf)
			btf_put(m->pub.btf);
		kfree(m);
	}
}

/**
 * ftrace_args_text_free - functions are gone: drop their models
 * @start: start of the text freed
 * @end: its end (exclusive)
 *
 * Called by the ftrace core when it frees init text: a module's after its
 * init function ran, the kernel's after boot.  A module's other text goes
 * with the module (fta_module_notify(), and ftrace_args_module_free()
 * for a module whose load failed).  The models are freed once no
 * reader can hold them (fta_free_dead()).
 *
 * Context: process context.
 */
void ftrace_args_text_free(unsigned long start, unsigned long end)
{
	struct fta_model *m, *dead = NULL;
	struct hlist_node *tmp;
	unsigned int i;

	mutex_lock(&fta_mutex);
	for (i = 0; fta_table && i < FTA_HASH_SIZE; i++) {
		hlist_for_each_entry_safe(m, tmp, &fta_table[i], hnode) {
			if (m->pub.ip < start || m->pub.ip >= end)
				continue;
			hlist_del_rcu(&m->hnode);
			m->dead = dead;
			dead = m;
		}
	}
	mutex_unlock(&fta_mutex);
	fta_free_dead(dead);
}

/*
 * A module's functions can be enabled before its BTF is registered (ftrace
 * enables them before the COMING notifiers run).  Once the module is live,
 * rebuild the models that found no BTF (@live), else drop its models: its
 * addresses get reused.
 */
static void fta_module_update(struct module *mod, bool live)
{
	struct fta_model *m, *new, *dead = NULL;
	struct hlist_node *tmp;
	unsigned int i;

	mutex_lock(&fta_mutex);
	for (i = 0; fta_table && i < FTA_HASH_SIZE; i++) {
		hlist_for_each_entry_safe(m, tmp, &fta_table[i], hnode) {
			if (!within_module(m->pub.ip, mod))
				continue;
			if (!live) {
				hlist_del_rcu(&m->hnode);
			} else {
				if (m->pub.reason != FTRACE_MODEL_NO_BTF)
					continue;
				new = fta_create(m->pub.ip);
				if (!new)
					continue;
				hlist_replace_rcu(&m->hnode, &new->hnode);
			}
			m->dead = dead;
			dead = m;
		}
	}
	mutex_unlock(&fta_mutex);
	fta_free_dead(dead);
}

/**
 * ftrace_args_module_free - a module's text is gone: drop its models
 * @mod: the module, unloaded or failed to load
 *
 * Called by the ftrace core when it drops the module's ftrace records,
 * which a module whose load failed after ftrace enabled its functions
 * also reaches without going through MODULE_STATE_GOING.
 *
 * Context: process context.
 */
void ftrace_args_module_free(struct module *mod)
{
	fta_module_update(mod, false);
}

static int fta_module_notify(struct notifier_block *nb, unsigned long state,
			     void *data)
{
	if (state != MODULE_STATE_GOING && state != MODULE_STATE_LIVE)
		return NOTIFY_DONE;
	fta_module_update(data, state == MODULE_STATE_LIVE);
	return NOTIFY_OK;
}

static struct notifier_block fta_module_nb = {
	.notifier_call = fta_module_notify,
};

static int __init ftrace_args_init(void)
{
	return register_module_notifier(&fta_module_nb);
}
core_initcall(ftrace_args_init);
