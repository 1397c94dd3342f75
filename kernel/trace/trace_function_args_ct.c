// SPDX-License-Identifier: GPL-2.0
/*
 * function_args call-through: one record per call, with the arguments, the
 * return value and the duration, for the functions selected in the tracefs
 * file set_ftrace_direct_multi of each instance.
 *
 * While function_args is the current tracer of an instance, the functions
 * selected there call the trampoline fargs_ct_tramp
 * (arch/x86/kernel/ftrace_callthrough_64.S), attached through the batch
 * direct interface under the owner "set_ftrace_direct_multi" (top level)
 * or "set_ftrace_direct_multi@NAME" (instance NAME).  The trampoline calls
 * fargs_ct_entry(), then the function's body, then fargs_ct_exit(), which
 * writes the record into the instance that attached the function.  That
 * instance's ftrace_ops callback skips these functions, so each call is
 * recorded once.  A function has one direct trampoline at most: two
 * instances cannot both select it while both run function_args (EBUSY).
 *
 * Functions with stack arguments are entered only: the trampoline cannot
 * hand the body its stack arguments.  They get an entry record marked
 * "[entry only: stack arguments]".  So does a call made with less than a
 * quarter of its stack left, marked "[entry only: low stack]": the
 * trampoline's frame would take more of it.
 */
#include <linux/ftrace_direct_batch.h>
#include <linux/ftrace_args.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/trace_clock.h>
#include <linux/seq_file.h>
#include <linux/bsearch.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/ctype.h>

#include <asm/stacktrace.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "trace_function_args.h"
#include "ftrace_direct_batch_internal.h"

/* Longest token: a symbol and a module name, with "!", ":mod:" and globs */
#define FARGS_CT_TOK_MAX	(KSYM_SYMBOL_LEN + 4)
/* Most bytes one write(2) takes; it returns a short count for the rest */
#define FARGS_CT_WRITE_MAX	SZ_1M
/*
 * Most globs and ":mod:" tokens in one write: the scan holds ftrace_lock
 * while it tries each record against each of them (names and indices
 * cost a binary search a record, however many there are).
 */
#define FARGS_CT_GLOBS_MAX	64

DEFINE_STATIC_KEY_FALSE(fargs_ct_active);

/* The call-through state of one instance */
struct fargs_ct {
	struct list_head		list;
	struct trace_array		*tr;
	/* allocated on the first attach */
	struct ftrace_direct_batch	*batch;
	/* selected and attached functions: sorted ftrace locations */
	unsigned long			*sel, *att;
	unsigned int			nr_sel, nr_att;
	/* function_args is the instance's tracer */
	bool				running;
};

/* Protects everything below, and the fargs_ct of every instance */
static DEFINE_MUTEX(fargs_ct_mutex);
static LIST_HEAD(fargs_ct_list);
/*
 * Every attached function, with the instance that records it (in the
 * entries' direct field).  Read only by the trampoline's handlers and the
 * tracer's callback, past ftrace_test_recursion_trylock(), with preemption
 * disabled, possibly where RCU is not watching: fargs_ct_map_swap() waits
 * for an RCU grace period and an RCU Tasks Rude one, which covers those,
 * as the ftrace core does before it frees a dynamic ops.
 * The trampoline itself reads nothing: it is static text, and a task
 * inside a function's body when the function is detached finds no map
 * entry on its way out (fargs_ct_exit()), or, with the instance gone,
 * none naming it.  The instance (tr) that an entry names outlives the
 * entry: fargs_ct_remove_instance() clears it and frees the batch, which
 * waits for the handlers, before the instance is freed.
 */
static struct ftrace_hash __rcu *fargs_ct_map;

static nokprobe_inline struct trace_array *fargs_ct_map_tr(unsigned long ip)
{
	struct ftrace_hash *map = rcu_dereference_raw_check(fargs_ct_map);
	struct ftrace_func_entry *entry;

	/* The read side that fargs_ct_map_swap() waits for */
	lockdep_assert_preemption_disabled();
	entry = map ? ftrace_lookup_ip(map, ip) : NULL;
	/* fargs_ct_map_forget() may clear it */
	return entry ? (struct trace_array *)READ_ONCE(entry->direct) : NULL;
}

/**
 * __fargs_ct_serves - does the call-through trampoline record @ip for @tr?
 * @ip: the traced function
 * @tr: the instance whose function_args callback runs
 *
 * Context: ftrace's recursion lock held, so preemption disabled: that
 * is the map's RCU read side.
 * Return: true when the trampoline records the calls of @ip into @tr, so
 * the callback must not record them too.
 */
bool __fargs_ct_serves(unsigned long ip, struct trace_array *tr)
{
	return fargs_ct_map_tr(ip) == tr;
}

/*
 * ---- the trampoline's handlers -----------------------------------------
 *
 * fargs_ct_entry() and fargs_ct_exit() run before they take ftrace's
 * recursion lock, and the trampoline (which is not kprobed either) calls
 * them with the traced function's frame half built: like fprobe's
 * handlers, they must not be kprobed.  What they call after the lock is
 * covered by it.
 */

/*
 * What ftrace_pid_func() lets through to the instance's callback: the
 * instance filters by pid while one of its pid lists is set.
 */
static bool fargs_ct_pid_ok(struct trace_array *tr)
{
	if (!rcu_access_pointer(tr->function_pids) &&
	    !rcu_access_pointer(tr->function_no_pids))
		return true;
	return ftrace_pid_traced(tr);
}

/* The caller: through function_graph's return hook, if it took one */
static unsigned long fargs_ct_parent(unsigned long *rp)
{
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	int idx = 0;

	return ftrace_graph_ret_addr(current, &idx, rp[1], &rp[1]);
#else
	return rp[1];
#endif
}

/* The offsets ftrace_callthrough_64.S uses */
static_assert(offsetof(struct fargs_ct_frame, ret) == sizeof(struct pt_regs));

static void fargs_ct_record(struct trace_array *tr,
			    const struct ftrace_func_model *model,
			    struct fargs_ct_frame *frame,
			    const unsigned long *rp, bool ret,
			    unsigned int flags)
{
	unsigned long tail[FARGS_RET_WORDS];

	if (atomic_read(&this_cpu_ptr(tr->array_buffer.data)->disabled))
		return;
	if (ret) {
		tail[0] = frame->ret[0];
		tail[1] = frame->ret[1];
		tail[2] = trace_clock_local() - frame->t0;
	}
	fargs_record(tr, model, rp[0] - MCOUNT_INSN_SIZE,
		     fargs_ct_parent((unsigned long *)rp),
		     (struct ftrace_regs *)&frame->regs, tracing_gen_ctx_dec(),
		     ret ? tail : NULL, ret ? FARGS_RET_WORDS : 0,
		     ret ? FARGS_FL_RET : FARGS_FL_ENTRY_ONLY | flags);
}

/*
 * While its body runs, a function called through keeps the trampoline's
 * frame (some 200 bytes) on the stack it runs on, and a glob may select
 * every function of a deep call chain: with less than a quarter of that
 * stack left, the function is entered only.
 */
bool fargs_ct_stack_low(unsigned long *sp)
{
	struct stack_info info;

	if (!get_stack_info_noinstr(sp, current, &info))
		return true;
	return sp - (unsigned long *)info.begin <
	       ((unsigned long *)info.end - (unsigned long *)info.begin) / 4;
}

/**
 * fargs_ct_entry - entry handler of the call-through trampoline
 * @frame: the trampoline's frame, with the argument registers
 * @rp: the return address into the function, then the function's own
 *	return address, then its stack arguments
 *
 * Return: 1 to call the body through the trampoline, 0 to go back into
 * the function (nothing to record, recursion, stack arguments, or a low
 * stack).
 */
int fargs_ct_entry(struct fargs_ct_frame *frame, unsigned long *rp)
{
	unsigned long ip = rp[0] - MCOUNT_INSN_SIZE;
	const struct ftrace_func_model *model;
	struct trace_array *tr;
	int bit, ret = 0;

	bit = ftrace_test_recursion_trylock(ip, rp[1]);
	if (bit < 0)
		return 0;
	tr = fargs_ct_map_tr(ip);
	if (!tr || !tr->function_enabled || !fargs_ct_pid_ok(tr))
		goto out;

	model = ftrace_args_model(ip);
	/* The body would look for stack arguments where the frame is. */
	if (model && !model->flags && !model->nr_stack) {
		if (fargs_ct_stack_low((unsigned long *)frame)) {
			fargs_ct_record(tr, model, frame, rp, false,
					FARGS_FL_LOW_STACK);
			goto out;
		}
		frame->t0 = trace_clock_local();
		ret = 1;
	} else {
		fargs_ct_record(tr, model, frame, rp, false, 0);
	}
out:
	ftrace_test_recursion_unlock(bit);
	return ret;
}

NOKPROBE_SYMBOL(fargs_ct_entry);

/**
 * fargs_ct_exit - exit handler of the call-through trampoline
 * @frame: the trampoline's frame, with the return value
 * @rp: as for fargs_ct_entry()
 */
void fargs_ct_exit(struct fargs_ct_frame *frame, unsigned long *rp)
{
	unsigned long ip = rp[0] - MCOUNT_INSN_SIZE;
	const struct ftrace_func_model *model;
	struct trace_array *tr;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, rp[1]);
	if (bit < 0)
		return;
	tr = fargs_ct_map_tr(ip);
	model = ftrace_args_model(ip);
	if (tr && tr->function_enabled && model && !model->flags)
		fargs_ct_record(tr, model, frame, rp, true, 0);
	ftrace_test_recursion_unlock(bit);
}

NOKPROBE_SYMBOL(fargs_ct_exit);

/* ---- attaching ---------------------------------------------------------- */

static int fargs_ct_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Those of @a that are not in @b (both sorted), into @out */
static unsigned int fargs_ct_minus(const unsigned long *a, unsigned int na,
				   const unsigned long *b, unsigned int nb,
				   unsigned long *out)
{
	unsigned int i = 0, j = 0, n = 0;

	for (; i < na; i++) {
		while (j < nb && b[j] < a[i])
			j++;
		if (j < nb && b[j] == a[i])
			continue;
		out[n++] = a[i];
	}
	return n;
}

/* The map with @ct's functions replaced by @ips */
static struct ftrace_hash *fargs_ct_map_build(struct fargs_ct *ct,
					      const unsigned long *ips,
					      unsigned int n)
{
	struct ftrace_func_entry *entry;
	unsigned int i, total = n;
	struct ftrace_hash *map;
	struct fargs_ct *o;

	list_for_each_entry(o, &fargs_ct_list, list)
		total += o == ct ? 0 : o->nr_att;
	map = alloc_ftrace_hash(min(fls(total), 12));
	if (!map)
		return NULL;
	list_for_each_entry(o, &fargs_ct_list, list) {
		const unsigned long *att = o == ct ? ips : o->att;
		unsigned int nr = o == ct ? n : o->nr_att;

		for (i = 0; i < nr; i++) {
			entry = add_hash_entry(map, att[i]);
			if (!entry) {
				free_ftrace_hash(map);
				return NULL;
			}
			entry->direct = (unsigned long)o->tr;
		}
	}
	return map;
}

/*
 * Publish @map (which may be NULL) and return the previous one, once no
 * reader can hold it: the caller may free it, or publish it again.
 */
static struct ftrace_hash *fargs_ct_map_swap(struct ftrace_hash *map)
{
	struct ftrace_hash *old;

	if (map && map->count)
		static_branch_enable(&fargs_ct_active);
	old = rcu_replace_pointer(fargs_ct_map, map,
				  lockdep_is_held(&fargs_ct_mutex));
	if (!map || !map->count)
		static_branch_disable(&fargs_ct_active);
	synchronize_rcu();
	synchronize_rcu_tasks_rude();
	return old;
}

/*
 * Take @ip out of the map without building a new one, which could fail:
 * its entry stays, naming no instance, until the next publish.  A reader
 * sees either the instance or NULL, and NULL is what an absent entry
 * gives.
 */
static void fargs_ct_map_forget(unsigned long ip)
{
	struct ftrace_hash *map;
	struct ftrace_func_entry *entry;

	map = rcu_dereference_protected(fargs_ct_map,
					lockdep_is_held(&fargs_ct_mutex));
	entry = map ? ftrace_lookup_ip(map, ip) : NULL;
	if (entry)
		WRITE_ONCE(entry->direct, 0);
}

/* The batch's owner name in direct_functions */
static void fargs_ct_owner(struct fargs_ct *ct, char *buf, size_t size)
{
	char *c;

	if (!ct->tr->name) {
		strscpy(buf, "set_ftrace_direct_multi", size);
		return;
	}
	snprintf(buf, size, "set_ftrace_direct_multi@%s", ct->tr->name);
	for (c = buf; *c; c++) {
		if (!isgraph(*c))
			*c = '_';
	}
}

/*
 * Make the attached set what it should be: the selection while the tracer
 * runs, nothing otherwise, in one batch update.  Functions leave the map
 * before they are detached, and join it once they are attached, so that
 * the tracer's callback records them meanwhile.
 */
static int fargs_ct_sync_locked(struct fargs_ct *ct)
{
	unsigned int nr_target = ct->running ? ct->nr_sel : 0;
	struct ftrace_hash *mid = NULL, *final = NULL, *prev = NULL;
	struct ftrace_direct_pair *pairs = NULL;
	unsigned long *del, *add, *att = NULL;
	unsigned int i, nr_del, nr_add, nr_att;
	char owner[64];
	int err = -ENOMEM;

	del = kvmalloc_array(ct->nr_att + 1, sizeof(*del), GFP_KERNEL);
	add = kvmalloc_array(nr_target + 1, sizeof(*add), GFP_KERNEL);
	if (!del || !add)
		goto out;
	nr_del = fargs_ct_minus(ct->att, ct->nr_att, ct->sel, nr_target, del);
	nr_add = fargs_ct_minus(ct->sel, nr_target, ct->att, ct->nr_att, add);
	err = 0;
	if (!nr_del && !nr_add)
		goto out;

	err = -ENOMEM;
	pairs = kvmalloc_array(nr_add + 1, sizeof(*pairs), GFP_KERNEL);
	att = kvmalloc_array(ct->nr_att + nr_add + 1, sizeof(*att), GFP_KERNEL);
	if (!pairs || !att)
		goto out;
	nr_att = fargs_ct_minus(ct->att, ct->nr_att, del, nr_del, att);
	/* The map without the detached functions, for the way there */
	if (nr_del) {
		mid = fargs_ct_map_build(ct, att, nr_att);
		if (!mid)
			goto out;
	}
	memcpy(att + nr_att, add, nr_add * sizeof(*att));
	nr_att += nr_add;
	sort(att, nr_att, sizeof(*att), fargs_ct_cmp, NULL);
	final = fargs_ct_map_build(ct, att, nr_att);
	if (!final)
		goto out;
	if (!ct->batch) {
		fargs_ct_owner(ct, owner, sizeof(owner));
		ct->batch = ftrace_direct_batch_alloc(owner);
		if (IS_ERR(ct->batch)) {
			err = PTR_ERR(ct->batch);
			ct->batch = NULL;
			goto out;
		}
	}
	for (i = 0; i < nr_add; i++) {
		pairs[i].ip = add[i];
		pairs[i].addr = (unsigned long)fargs_ct_tramp;
		/*
		 * The batch's ops does not read arguments, so the core builds
		 * no models for it: build them before the first call.
		 */
		ftrace_args_prepare(add[i]);
	}

	/* The previous map is kept until the update succeeded. */
	if (mid)
		prev = fargs_ct_map_swap(mid);
	err = ftrace_direct_batch_update(ct->batch, pairs, nr_add, del, nr_del);
	if (err) {
		/* Nothing changed: put the map back, which needs no memory. */
		if (mid)
			fargs_ct_map_swap(prev);
		prev = NULL;
		goto out;
	}
	/* What this frees is @mid, or without it the map there was */
	free_ftrace_hash(fargs_ct_map_swap(final));
	mid = NULL;
	final = NULL;
	swap(ct->att, att);
	ct->nr_att = nr_att;
out:
	free_ftrace_hash(prev);
	free_ftrace_hash(mid);
	free_ftrace_hash(final);
	kvfree(att);
	kvfree(pairs);
	kvfree(add);
	kvfree(del);
	return err;
}

/*
 * Detach everything of @ct without allocating, when a sync that detaches
 * has no memory: the map forgets the functions in place and freeing the
 * batch cannot fail.  The next attach allocates a new batch.
 */
static void fargs_ct_detach_all(struct fargs_ct *ct)
{
	unsigned int i;

	for (i = 0; i < ct->nr_att; i++)
		fargs_ct_map_forget(ct->att[i]);
	ftrace_direct_batch_free(ct->batch);
	ct->batch = NULL;
	ct->nr_att = 0;
}

/* As fargs_ct_sync_locked(), for a sync that only detaches: cannot fail */
static void fargs_ct_sync_down_locked(struct fargs_ct *ct)
{
	if (fargs_ct_sync_locked(ct))
		fargs_ct_detach_all(ct);
}

static struct fargs_ct *fargs_ct_of(struct trace_array *tr)
{
	struct fargs_ct *ct;

	list_for_each_entry(ct, &fargs_ct_list, list) {
		if (ct->tr == tr)
			return ct;
	}
	return NULL;
}

enum {
	FARGS_CT_ERR_NO_MATCH,
	FARGS_CT_ERR_BUSY,
	FARGS_CT_ERR_ATTACH,
	FARGS_CT_ERR_EMPTY,
	FARGS_CT_ERR_LONG,
	FARGS_CT_ERR_COMMAND,
	FARGS_CT_ERR_GLOBS,
	FARGS_CT_ERR_NUL,
};

static const char * const fargs_ct_errs[] = {
	[FARGS_CT_ERR_NO_MATCH]	= "No traceable function matches",
	[FARGS_CT_ERR_BUSY]	= "A selected function has another direct trampoline",
	[FARGS_CT_ERR_ATTACH]	= "Attaching the selection failed",
	[FARGS_CT_ERR_EMPTY]	= "Empty function name",
	[FARGS_CT_ERR_LONG]	= "Name too long",
	[FARGS_CT_ERR_COMMAND]	= "Unknown command (only :mod: is known)",
	[FARGS_CT_ERR_GLOBS]	= "More than "
				  __stringify(FARGS_CT_GLOBS_MAX)
				  " globs or :mod: tokens in one write",
	[FARGS_CT_ERR_NUL]	= "A name follows a NUL byte in the write",
};

/* An error_log line for @tr's set_ftrace_direct_multi: @type at @cmd[@pos] */
static void fargs_ct_log(struct trace_array *tr, int type, const char *cmd,
			 unsigned int pos)
{
	tracing_log_err(tr, "set_ftrace_direct_multi", cmd,
			(const char **)fargs_ct_errs, type, pos);
}

/* The error_log line for an errno of a write or of an attach */
static void fargs_ct_log_err(struct trace_array *tr, const char *cmd, int err)
{
	int type = FARGS_CT_ERR_NO_MATCH;

	if (err != -EINVAL)
		type = err == -EBUSY ? FARGS_CT_ERR_BUSY : FARGS_CT_ERR_ATTACH;
	fargs_ct_log(tr, type, cmd, 0);
}

/**
 * fargs_ct_start - function_args starts on @tr
 * @tr: the instance
 *
 * Attaches the functions selected in the instance's
 * set_ftrace_direct_multi.
 *
 * Return: 0, or the error of the batch update.
 */
int fargs_ct_start(struct trace_array *tr)
{
	struct fargs_ct *ct;
	int err = 0;

	mutex_lock(&fargs_ct_mutex);
	ct = fargs_ct_of(tr);
	if (ct) {
		ct->running = true;
		err = fargs_ct_sync_locked(ct);
		if (err) {
			ct->running = false;
			fargs_ct_sync_down_locked(ct);
			fargs_ct_log_err(tr, "", err);
		}
	}
	mutex_unlock(&fargs_ct_mutex);
	return err;
}

/**
 * fargs_ct_stop - function_args stops on @tr
 * @tr: the instance
 */
void fargs_ct_stop(struct trace_array *tr)
{
	struct fargs_ct *ct;

	mutex_lock(&fargs_ct_mutex);
	ct = fargs_ct_of(tr);
	if (ct && ct->running) {
		ct->running = false;
		fargs_ct_sync_down_locked(ct);
	}
	mutex_unlock(&fargs_ct_mutex);
}

/* ---- tracefs: set_ftrace_direct_multi ------------------------------------ */

/*
 * The file's i_private is the instance, as for the instance's other files:
 * its fargs_ct is looked up under fargs_ct_mutex, once the open holds a
 * reference on the instance.  An instance being removed is gone from the
 * instance list before its fargs_ct is freed, so an open that races with
 * the removal fails in tracing_check_open_get_tr(), and one that holds the
 * reference keeps the instance, and its fargs_ct, from being removed.
 *
 * Per open file, for writing.  Each write applies to the selection there
 * is when it runs, under fargs_ct_mutex: two files that append at the same
 * time both get their functions.
 */
struct fargs_ct_file {
	struct trace_array	*tr;
	/*
	 * Serialises the writes of this open file: pwrite() and io_uring do
	 * not take f_pos_lock, and two of them at once would share the
	 * parser (ftrace.c's parser_lock, for set_ftrace_filter).
	 */
	struct mutex		lock;
	/* a token that the last write left unfinished */
	struct trace_parser	parser;
	/* opened with '>' and no write succeeded yet: start from nothing */
	bool			trunc;
	/* a write failed: closing does not empty the selection */
	bool			failed;
};

static int fargs_ct_show(struct seq_file *m, void *v)
{
	struct fargs_ct *ct;
	unsigned int i;

	mutex_lock(&fargs_ct_mutex);
	ct = fargs_ct_of(m->private);
	for (i = 0; ct && i < ct->nr_sel; i++)
		seq_printf(m, "%ps\n", (void *)ct->sel[i]);
	mutex_unlock(&fargs_ct_mutex);
	return 0;
}

/* Make @sel, @n sorted functions, the selection of @ct; frees @sel on error */
static int fargs_ct_set(struct fargs_ct *ct, unsigned long *sel,
			unsigned int n)
{
	unsigned long *old = ct->sel;
	unsigned int nr_old = ct->nr_sel;
	int err;

	ct->sel = sel;
	ct->nr_sel = n;
	err = fargs_ct_sync_locked(ct);
	/* Clearing must not fail: without memory, detach it all. */
	if (err && !n) {
		fargs_ct_detach_all(ct);
		err = 0;
	}
	if (err) {
		/* Keep the previous selection; nothing was attached. */
		ct->sel = old;
		ct->nr_sel = nr_old;
		kvfree(sel);
		return err;
	}
	kvfree(old);
	return 0;
}

/* One token of a write, parsed by ftrace_filter_parse() */
struct fargs_ct_pat {
	/* as written, for error_log */
	const char		*tok;
	/* the function glob, or an index */
	struct ftrace_glob	func;
	/* ":mod:" and a module glob; search is NULL without it */
	struct ftrace_glob	mod;
	int			exclude_mod;
	/* MATCH_INDEX: the line in available_filter_functions, from 1 */
	unsigned long		index;
	/* "!": remove what matches */
	bool			neg;
	bool			matched;
};

/*
 * The tokens of one write.  Exact names without a module are found by
 * binary search in @names, indices in @idx; only globs and ":mod:" are
 * tried one by one, with ftrace_match_symbol().
 */
struct fargs_ct_req {
	struct fargs_ct_pat	*pats;
	unsigned int		nr_pats;
	/*
	 * Positions in @pats: names sorted by name, indices by index (then
	 * both by position), the others
	 */
	unsigned int		*names, nr_names;
	unsigned int		*idx, nr_idx;
	unsigned int		*others, nr_others;
	/* the tokens, each ended by a NUL, as written: for error_log */
	char			*text;
	size_t			len;
	/* a copy of @text, where the tokens are parsed in place */
	char			*work;
};

/* A growing array of functions */
struct fargs_ct_ips {
	unsigned long		*ips;
	unsigned int		nr, size;
};

static int fargs_ct_push(struct fargs_ct_ips *a, unsigned long ip)
{
	unsigned long *ips;
	unsigned int size;

	if (a->nr == a->size) {
		size = max(2 * a->size, 64U);
		ips = kvmalloc_array(size, sizeof(*ips), GFP_KERNEL);
		if (!ips)
			return -ENOMEM;
		if (a->nr)
			memcpy(ips, a->ips, a->nr * sizeof(*ips));
		kvfree(a->ips);
		a->ips = ips;
		a->size = size;
	}
	a->ips[a->nr++] = ip;
	return 0;
}

static int fargs_ct_cmp_names(const void *a, const void *b, const void *priv)
{
	const struct fargs_ct_pat *pats = priv;
	unsigned int x = *(const unsigned int *)a;
	unsigned int y = *(const unsigned int *)b;
	int cmp = strcmp(pats[x].func.search, pats[y].func.search);

	return cmp ? cmp : (x < y ? -1 : x > y);
}

static int fargs_ct_cmp_idx(const void *a, const void *b, const void *priv)
{
	const struct fargs_ct_pat *pats = priv;
	unsigned int x = *(const unsigned int *)a;
	unsigned int y = *(const unsigned int *)b;

	if (pats[x].index != pats[y].index)
		return pats[x].index < pats[y].index ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Parse one token in place, as set_ftrace_filter does.  Returns false,
 * with the FARGS_CT_ERR_* in @type, for a command other than "mod", and
 * for "!" alone: set_ftrace_filter matches nothing with it, and a typo or
 * a shell variable that expanded to nothing must not read as "remove
 * everything" ("!*" says that).
 */
static bool fargs_ct_parse_tok(struct fargs_ct_pat *pat, char *p, int *type)
{
	int clear;

	if (ftrace_filter_parse(p, &pat->func, &pat->mod, &clear,
				&pat->exclude_mod)) {
		*type = FARGS_CT_ERR_COMMAND;
		return false;
	}
	pat->neg = clear;
	/* "*" parses to an empty glob too, but one that matches anything */
	if (!pat->func.len && pat->func.type == MATCH_FULL && !pat->mod.search) {
		*type = FARGS_CT_ERR_EMPTY;
		return false;
	}
	/* A bad index is 0, which no function has. */
	if (pat->func.type == MATCH_INDEX)
		pat->index = ftrace_glob_index(&pat->func);
	return true;
}

static void fargs_ct_req_free(struct fargs_ct_req *req)
{
	kvfree(req->pats);
	kvfree(req->names);
	kvfree(req->idx);
	kvfree(req->others);
	kvfree(req->text);
	kvfree(req->work);
}

/* Append a token of @len bytes to @req->text, which has room for it */
static void fargs_ct_req_add(struct fargs_ct_req *req, const char *tok,
			     size_t len)
{
	memcpy(req->text + req->len, tok, len);
	req->len += len;
	req->text[req->len++] = '\0';
}

/* Parse the tokens of @req->text */
static int fargs_ct_parse(struct trace_array *tr, struct fargs_ct_req *req)
{
	struct fargs_ct_pat *pat;
	unsigned int n = 0;
	size_t off;
	int type;

	for (off = 0; off < req->len; off += strlen(req->text + off) + 1)
		n++;
	req->pats = kvcalloc(n + 1, sizeof(*req->pats), GFP_KERNEL);
	req->names = kvmalloc_array(n + 1, sizeof(*req->names), GFP_KERNEL);
	req->idx = kvmalloc_array(n + 1, sizeof(*req->idx), GFP_KERNEL);
	req->others = kvmalloc_array(n + 1, sizeof(*req->others), GFP_KERNEL);
	/* Parsed in a copy: error_log shows the tokens as written. */
	req->work = kvmemdup(req->text, req->len + 1, GFP_KERNEL);
	if (!req->pats || !req->names || !req->idx || !req->others ||
	    !req->work)
		return -ENOMEM;

	for (off = 0; off < req->len; off += strlen(req->text + off) + 1) {
		pat = &req->pats[req->nr_pats];
		pat->tok = req->text + off;
		if (!fargs_ct_parse_tok(pat, req->work + off, &type)) {
			fargs_ct_log(tr, type, pat->tok, strlen(pat->tok));
			return -EINVAL;
		}
		/*
		 * arch_ftrace_match_adjust(), which ftrace_match_symbol()
		 * applies, is the identity on x86-64: an exact name can be
		 * compared as it is.
		 */
		if (pat->func.type == MATCH_INDEX) {
			req->idx[req->nr_idx++] = req->nr_pats;
		} else if (pat->func.type == MATCH_FULL && pat->func.len &&
			   !pat->mod.search) {
			req->names[req->nr_names++] = req->nr_pats;
		} else {
			if (req->nr_others == FARGS_CT_GLOBS_MAX) {
				fargs_ct_log(tr, FARGS_CT_ERR_GLOBS, pat->tok,
					     0);
				return -E2BIG;
			}
			req->others[req->nr_others++] = req->nr_pats;
		}
		req->nr_pats++;
	}
	sort_r(req->names, req->nr_names, sizeof(*req->names),
	       fargs_ct_cmp_names, NULL, req->pats);
	sort_r(req->idx, req->nr_idx, sizeof(*req->idx),
	       fargs_ct_cmp_idx, NULL, req->pats);
	return 0;
}

/*
 * The last token of @req that matches the function @name (of module
 * @modname, at @index in available_filter_functions), or -1: that token
 * decides whether the function is in the selection.
 */
static int fargs_ct_last_match(struct fargs_ct_req *req, unsigned long index,
			       char *name, char *modname)
{
	unsigned int lo = 0, hi = req->nr_names, mid, i;
	struct fargs_ct_pat *pat;
	int last = -1;

	/* The first exact name that is not before @name */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(req->pats[req->names[mid]].func.search, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < req->nr_names; lo++) {
		pat = &req->pats[req->names[lo]];
		if (strcmp(pat->func.search, name))
			break;
		pat->matched = true;
		last = max_t(int, last, req->names[lo]);
	}

	/* The first index that is not below @index */
	lo = 0;
	hi = req->nr_idx;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (req->pats[req->idx[mid]].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < req->nr_idx; lo++) {
		pat = &req->pats[req->idx[lo]];
		if (pat->index != index)
			break;
		pat->matched = true;
		last = max_t(int, last, req->idx[lo]);
	}

	for (i = 0; i < req->nr_others; i++) {
		pat = &req->pats[req->others[i]];
		if (!ftrace_match_symbol(name, modname, &pat->func,
					 pat->mod.search ? &pat->mod : NULL,
					 pat->exclude_mod))
			continue;
		pat->matched = true;
		last = max_t(int, last, req->others[i]);
	}
	return last;
}

static bool fargs_ct_has(const unsigned long *sel, unsigned int n,
			 unsigned long ip)
{
	return n && bsearch(&ip, sel, n, sizeof(*sel), fargs_ct_cmp);
}

/*
 * Is @rec a function of vmlinux or of a live module?  A module's records
 * stay from before its COMING notifiers until after its GOING ones, but
 * only a live module's functions may be selected: fargs_ct_module_notify()
 * must see every selected module function go.  The caller holds
 * ftrace_lock, which keeps the module from being freed.
 */
static bool fargs_ct_rec_live(struct dyn_ftrace *rec)
{
	struct module *mod;
	bool live;

	/*
	 * A module's init text goes soon after it is live, and nothing
	 * would tell the selection: never select it.
	 */
	preempt_disable();
	mod = __module_text_address(rec->ip);
	live = !mod || (mod->state == MODULE_STATE_LIVE &&
			!within_module_init(rec->ip, mod));
	preempt_enable();
	return live;
}

struct fargs_ct_scan {
	struct fargs_ct_req	*req;
	const unsigned long	*base;
	unsigned int		nr_base;
	struct fargs_ct_ips	*add;
	struct fargs_ct_ips	*del;
	char			*name;
};

static int fargs_ct_scan_rec(struct dyn_ftrace *rec, unsigned long index,
			     void *data)
{
	struct fargs_ct_scan *sc = data;
	char *modname;
	int last;
	bool in;

	if (!fargs_ct_rec_live(rec))
		return 0;
	if (ftrace_rec_symbol(rec, &modname, sc->name))
		return 0;
	last = fargs_ct_last_match(sc->req, index, sc->name, modname);
	if (last < 0)
		return 0;
	in = fargs_ct_has(sc->base, sc->nr_base, rec->ip);
	/* A removal of what is in, an addition of what is not */
	if (sc->req->pats[last].neg != in)
		return 0;
	return fargs_ct_push(in ? sc->del : sc->add, rec->ip);
}

/*
 * One pass over the ftrace records: for each function, the last token of
 * @req that matches it says whether it is in the selection.  Collect in
 * @add those that join @base (sorted, @nr_base), in @del those that leave.
 * The cost is one symbol lookup a record, whatever the number of tokens.
 *
 * Records that ftrace does not patch (disabled) and functions of a module
 * that is not live are never selected, an index that names one included:
 * a direct trampoline on them would be listed as attached and never run,
 * or outlive its module.
 */
static int fargs_ct_scan(struct fargs_ct_req *req, const unsigned long *base,
			 unsigned int nr_base, struct fargs_ct_ips *add,
			 struct fargs_ct_ips *del)
{
	struct fargs_ct_scan sc = {
		.req = req, .base = base, .nr_base = nr_base,
		.add = add, .del = del,
	};
	int err;

	sc.name = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	if (!sc.name)
		return -ENOMEM;
	err = ftrace_direct_batch_walk(fargs_ct_scan_rec, &sc);
	kfree(sc.name);
	return err;
}

/*
 * Apply the tokens of @req to the selection of @ct, or to an empty one if
 * @trunc.  Every token must match a function.  All or nothing.
 */
static int fargs_ct_apply(struct fargs_ct *ct, struct fargs_ct_req *req,
			  bool trunc)
{
	const unsigned long *base = trunc ? NULL : ct->sel;
	unsigned int i, nr, nr_base = trunc ? 0 : ct->nr_sel;
	struct fargs_ct_ips add = {}, del = {};
	unsigned long *sel;
	int err = 0;

	if (req->nr_pats)
		err = fargs_ct_scan(req, base, nr_base, &add, &del);
	for (i = 0; !err && i < req->nr_pats; i++) {
		if (req->pats[i].matched)
			continue;
		fargs_ct_log_err(ct->tr, req->pats[i].tok, -EINVAL);
		err = -EINVAL;
	}
	if (err)
		goto out;

	err = -ENOMEM;
	sel = kvmalloc_array(nr_base + add.nr + 1, sizeof(*sel), GFP_KERNEL);
	if (!sel)
		goto out;
	sort(del.ips, del.nr, sizeof(*del.ips), fargs_ct_cmp, NULL);
	nr = fargs_ct_minus(base, nr_base, del.ips, del.nr, sel);
	if (add.nr)
		memcpy(sel + nr, add.ips, add.nr * sizeof(*sel));
	nr += add.nr;
	sort(sel, nr, sizeof(*sel), fargs_ct_cmp, NULL);
	err = fargs_ct_set(ct, sel, nr);
	if (err)
		fargs_ct_log_err(ct->tr, "", err);
out:
	kvfree(add.ips);
	kvfree(del.ips);
	return err;
}

static int fargs_ct_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = inode->i_private;
	struct fargs_ct_file *f;
	int ret;

	/* The instance, and so its fargs_ct, stays while the file is open. */
	ret = tracing_check_open_get_tr(tr);
	if (ret)
		return ret;
	ret = -EINVAL;
	if ((file->f_mode & FMODE_READ) && (file->f_mode & FMODE_WRITE))
		goto put;
	if (file->f_mode & FMODE_READ) {
		ret = single_open(file, fargs_ct_show, tr);
		if (ret)
			goto put;
		return 0;
	}

	ret = -ENOMEM;
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		goto put;
	if (trace_parser_get_init(&f->parser, FARGS_CT_TOK_MAX)) {
		kfree(f);
		goto put;
	}
	f->tr = tr;
	mutex_init(&f->lock);
	/* '>' starts from nothing, '>>' from the selection of each write. */
	f->trunc = file->f_flags & O_TRUNC && !(file->f_flags & O_APPEND);
	file->private_data = f;
	return 0;
put:
	trace_array_put(tr);
	return ret;
}

/*
 * Parse and apply the tokens of @req, all or none, to the selection
 * there is now (another file may have changed it since this one was
 * opened), or to nothing after '>'.  A failure keeps the selection there
 * was.
 */
static int fargs_ct_commit(struct fargs_ct_file *f, struct fargs_ct_req *req)
{
	struct fargs_ct *ct;
	int err;

	err = fargs_ct_parse(f->tr, req);
	if (err)
		return err;
	mutex_lock(&fargs_ct_mutex);
	ct = fargs_ct_of(f->tr);
	err = ct ? fargs_ct_apply(ct, req, f->trunc) : -ENODEV;
	/*
	 * '>' has had its effect once a write succeeded.  After a failed
	 * one, the next write still starts from nothing, but closing the
	 * file keeps the selection there was.
	 */
	if (!err)
		f->trunc = false;
	mutex_unlock(&fargs_ct_mutex);
	return err;
}

/* Forget the unfinished token, and a failure of the parser */
static void fargs_ct_parser_reset(struct trace_parser *parser)
{
	trace_parser_clear(parser);
	parser->fail = false;
}

/*
 * Read the tokens that the write of @cnt bytes at @ubuf completes into
 * @req, as set_ftrace_filter reads them with trace_get_user(): white
 * space or a NUL ends a token.  A token may start in an earlier write; one
 * that this write leaves unfinished stays in the file's parser, for the
 * next write or for the release.  A name after a NUL fails the whole
 * write: set_ftrace_filter would drop it, or apply it only at the close,
 * after the write had succeeded.  NULs at the end (a C string's) are
 * taken.
 */
static int fargs_ct_read_tokens(struct fargs_ct_file *f,
				const char __user *ubuf, size_t cnt,
				loff_t *ppos, struct fargs_ct_req *req)
{
	struct trace_parser *parser = &f->parser;
	bool nul = false;
	size_t done = 0;
	int read;
	char ch;

	/* Room for every byte of the write and for a token it continues */
	req->text = kvmalloc(cnt + parser->size + 1, GFP_KERNEL);
	if (!req->text)
		return -ENOMEM;
	while (done < cnt) {
		read = trace_get_user(parser, ubuf + done, cnt - done, ppos);
		if (read < 0) {
			if (read == -EINVAL)
				fargs_ct_log(f->tr, FARGS_CT_ERR_LONG, "", 0);
			return read;
		}
		done += read;
		if (nul && trace_parser_loaded(parser)) {
			/* The name, or as much of it as the write holds */
			fargs_ct_log(f->tr, FARGS_CT_ERR_NUL, parser->buffer, 0);
			return -EINVAL;
		}
		if (trace_parser_loaded(parser) && !trace_parser_cont(parser)) {
			fargs_ct_req_add(req, parser->buffer, parser->idx);
			trace_parser_clear(parser);
		}
		/*
		 * The last byte that trace_get_user() took: the one that
		 * ended its token, or the write's last when it ends inside
		 * one.
		 */
		if (get_user(ch, ubuf + done - 1))
			return -EFAULT;
		nul |= !ch;
	}
	return 0;
}

static ssize_t fargs_ct_write(struct file *file, const char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct fargs_ct_file *f = file->private_data;
	struct fargs_ct_req req = {};
	bool named;
	int err;

	if (!cnt)
		return 0;
	/* A longer write is taken a part at a time, each all or nothing. */
	cnt = min_t(size_t, cnt, FARGS_CT_WRITE_MAX);

	guard(mutex)(&f->lock);

	err = fargs_ct_read_tokens(f, ubuf, cnt, ppos, &req);
	named = req.len;
	/* A write that completes no token changes nothing yet. */
	if (!err && named)
		err = fargs_ct_commit(f, &req);
	fargs_ct_req_free(&req);
	if (err) {
		/* The caller will write again what this write held. */
		fargs_ct_parser_reset(&f->parser);
		/*
		 * A write that named nothing and failed for memory leaves
		 * '>' to empty the selection at the close, which needs none.
		 */
		if (named || err != -ENOMEM)
			f->failed = true;
		return err;
	}
	return cnt;
}

static int fargs_ct_release(struct inode *inode, struct file *file)
{
	struct trace_array *tr = inode->i_private;
	struct fargs_ct_file *f = file->private_data;
	struct fargs_ct *ct;
	int err;

	if (file->f_mode & FMODE_READ) {
		trace_array_put(tr);
		return single_release(inode, file);
	}

	/*
	 * The token the last write left unfinished, as set_ftrace_filter
	 * applies it at release.  close() cannot report an error: the
	 * commit logs to error_log, and so does this.
	 */
	if (trace_parser_loaded(&f->parser)) {
		struct fargs_ct_req req = {};

		err = -ENOMEM;
		req.text = kvmalloc(f->parser.idx + 1, GFP_KERNEL);
		if (req.text) {
			fargs_ct_req_add(&req, f->parser.buffer, f->parser.idx);
			err = fargs_ct_commit(f, &req);
		}
		if (err == -ENOMEM)
			fargs_ct_log_err(tr, "", err);
		fargs_ct_req_free(&req);
		if (err)
			f->failed = true;
	}
	/*
	 * '>' and no write at all: the selection is empty.  One that failed
	 * keeps the selection there was, as the write said.
	 */
	if (f->trunc && !f->failed) {
		mutex_lock(&fargs_ct_mutex);
		ct = fargs_ct_of(tr);
		/* Clearing cannot fail. */
		if (ct)
			fargs_ct_set(ct, NULL, 0);
		mutex_unlock(&fargs_ct_mutex);
	}
	trace_parser_put(&f->parser);
	kfree(f);
	trace_array_put(tr);
	return 0;
}

static loff_t fargs_ct_lseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	return file->f_pos;
}

static const struct file_operations fargs_ct_fops = {
	.open		= fargs_ct_open,
	.read		= seq_read,
	.write		= fargs_ct_write,
	.llseek		= fargs_ct_lseek,
	.release	= fargs_ct_release,
};

/**
 * fargs_ct_init_tracefs - give an instance its set_ftrace_direct_multi
 * @tr: the new instance, or the top-level one
 * @d: its directory
 */
void fargs_ct_init_tracefs(struct trace_array *tr, struct dentry *d)
{
	struct fargs_ct *ct;

	ct = kzalloc(sizeof(*ct), GFP_KERNEL);
	if (!ct)
		return;
	ct->tr = tr;
	mutex_lock(&fargs_ct_mutex);
	list_add_tail(&ct->list, &fargs_ct_list);
	mutex_unlock(&fargs_ct_mutex);
	trace_create_file("set_ftrace_direct_multi", TRACE_MODE_WRITE, d, tr,
			  &fargs_ct_fops);
}

/**
 * fargs_ct_remove_instance - an instance goes away
 * @tr: the instance, whose tracer is nop by now
 */
void fargs_ct_remove_instance(struct trace_array *tr)
{
	struct fargs_ct *ct;

	mutex_lock(&fargs_ct_mutex);
	ct = fargs_ct_of(tr);
	if (ct) {
		/*
		 * The tracer is nop by now, so nothing should be attached;
		 * whatever is must not name @tr in the map once it is freed.
		 * Freeing the batch detaches it, and waits for the handlers
		 * that may have read @tr before.
		 */
		fargs_ct_detach_all(ct);
		list_del(&ct->list);
	}
	mutex_unlock(&fargs_ct_mutex);
	if (!ct)
		return;
	kvfree(ct->sel);
	kvfree(ct->att);
	kfree(ct);
}

/* Drop the functions of @mod from the @n sorted @ips, in place */
static unsigned int fargs_ct_drop_mod(unsigned long *ips, unsigned int n,
				      struct module *mod, bool attached)
{
	unsigned int i, kept = 0;

	for (i = 0; i < n; i++) {
		if (!within_module(ips[i], mod)) {
			ips[kept++] = ips[i];
			continue;
		}
		if (attached)
			fargs_ct_map_forget(ips[i]);
	}
	return kept;
}

/*
 * A module goes away: its functions leave every selection and every
 * attached set, and the map.  They stay attached to the trampoline while
 * the module can still call them; the batch drops them when ftrace drops
 * their records (ftrace_direct_batch_text_free()).  Until then their
 * trampoline finds no instance in the map and goes straight into the
 * function, and the tracer's callback no longer skips them.  Nothing
 * here can fail: the arrays shrink in place, and the map's entries are
 * cleared in place.
 */
static int fargs_ct_module_notify(struct notifier_block *nb,
				  unsigned long state, void *data)
{
	struct module *mod = data;
	struct fargs_ct *ct;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;

	mutex_lock(&fargs_ct_mutex);
	list_for_each_entry(ct, &fargs_ct_list, list) {
		ct->nr_sel = fargs_ct_drop_mod(ct->sel, ct->nr_sel, mod, false);
		ct->nr_att = fargs_ct_drop_mod(ct->att, ct->nr_att, mod, true);
	}
	mutex_unlock(&fargs_ct_mutex);
	return NOTIFY_OK;
}

static struct notifier_block fargs_ct_module_nb = {
	.notifier_call	= fargs_ct_module_notify,
	/* before fdb_module_notify() runs: the batch's notifier */
	.priority	= FTRACE_DIRECT_BATCH_MODULE_PRIO + 1,
};

static __init int fargs_ct_init(void)
{
	return register_module_notifier(&fargs_ct_module_nb);
}
core_initcall(fargs_ct_init);
