// SPDX-License-Identifier: GPL-2.0
/*
 * function_args call-through: one record per call, with the arguments, the
 * return value and the duration, for the functions selected in the tracefs
 * file set_ftrace_direct_multi.
 *
 * While function_args is the current tracer of the top-level instance, the
 * selected functions call the trampoline fargs_ct_tramp
 * (arch/x86/kernel/ftrace_callthrough_64.S), attached through the batch
 * direct interface under the owner "set_ftrace_direct_multi".  The
 * trampoline calls fargs_ct_entry(), then the function's body, then
 * fargs_ct_exit(), which writes the record.  The tracer's ftrace_ops
 * callback skips these functions, so each call is recorded once.
 *
 * Functions with stack arguments are entered only: the trampoline cannot
 * hand the body its stack arguments.  They get an entry record marked
 * "[entry only: stack arguments]".
 */
#include <linux/ftrace_direct_batch.h>
#include <linux/ftrace_args.h>
#include <linux/ftrace.h>
#include <linux/trace_clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/security.h>

#include "trace.h"
#include "trace_function_args.h"

DEFINE_STATIC_KEY_FALSE(fargs_ct_active);

/* Protects everything below */
static DEFINE_MUTEX(fargs_ct_mutex);
static struct ftrace_direct_batch *fargs_ct_batch;
/* The top-level instance while function_args runs there, else NULL */
static struct trace_array *fargs_ct_tr;
/* Selected and attached functions: sorted ftrace locations */
static unsigned long *fargs_ct_sel, *fargs_ct_att;
static unsigned int fargs_ct_nr_sel, fargs_ct_nr_att;

/* ---- the trampoline's handlers ----------------------------------------- */

static bool fargs_ct_pid_ok(struct trace_array *tr)
{
	int pid;

	if (!rcu_access_pointer(tr->function_pids) &&
	    !rcu_access_pointer(tr->function_no_pids))
		return true;
	pid = this_cpu_read(tr->array_buffer.data->ftrace_ignore_pid);
	if (pid == FTRACE_PID_IGNORE)
		return false;
	return pid == FTRACE_PID_TRACE || pid == current->pid;
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

static void fargs_ct_record(struct trace_array *tr,
			    const struct ftrace_func_model *model,
			    const struct fargs_ct_frame *frame,
			    const unsigned long *rp, bool ret)
{
	unsigned int i, nr, src, extra = ret ? FARGS_RET_WORDS : 0;
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	struct ring_buffer_event *event;
	struct func_args_entry *entry;
	unsigned int trace_ctx;
	u16 flags;

	if (atomic_read(&this_cpu_ptr(tr->array_buffer.data)->disabled))
		return;

	if (!model) {
		nr = FTRACE_ARGS_NR_REGS;
		flags = FARGS_FL_RAW | FARGS_FL_NO_MODEL;
	} else if (model->flags & FTRACE_MODEL_UNKNOWN) {
		nr = FTRACE_ARGS_NR_REGS;
		flags = FARGS_FL_RAW | model->reason << FARGS_REASON_SHIFT;
	} else {
		nr = model->nr_words;
		flags = ret ? FARGS_FL_RET : FARGS_FL_ENTRY_ONLY;
	}

	trace_ctx = tracing_gen_ctx_dec();
	event = trace_buffer_lock_reserve(buffer, TRACE_FN_ARGS,
					  sizeof(*entry) +
					  (nr + extra) * sizeof(long),
					  trace_ctx);
	if (!event)
		return;
	entry = ring_buffer_event_data(event);
	entry->ip = rp[0] - MCOUNT_INSN_SIZE;
	entry->parent_ip = fargs_ct_parent((unsigned long *)rp);
	entry->flags = flags;
	entry->nr_words = nr;
	entry->nr_strs = 0;
	for (i = 0; i < nr; i++) {
		/* Registers from the frame, stack slots above the return */
		src = flags & FARGS_FL_RAW ? i : model->src[i];
		if (src < FTRACE_ARGS_NR_REGS)
			entry->args[i] = frame->regs[src];
		else
			entry->args[i] = rp[2 + src - FTRACE_ARGS_NR_REGS];
	}
	if (ret) {
		entry->args[nr] = frame->ret[0];
		entry->args[nr + 1] = frame->ret[1];
		entry->args[nr + 2] = trace_clock_local() - frame->t0;
	}
	trace_buffer_unlock_commit_nostack(buffer, event);
}

/**
 * fargs_ct_entry - entry handler of the call-through trampoline
 * @frame: the trampoline's frame, with the argument registers
 * @rp: the return address into the function, then the function's own
 *	return address, then its stack arguments
 *
 * Return: 1 to call the body through the trampoline, 0 to go back into
 * the function (nothing to record, recursion, or stack arguments).
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
	tr = READ_ONCE(fargs_ct_tr);
	if (!tr || !tr->function_enabled || !fargs_ct_pid_ok(tr))
		goto out;

	model = ftrace_args_model(ip);
	if (model && !model->flags && model->lin_regs == model->nr_words) {
		frame->t0 = trace_clock_local();
		ret = 1;
	} else {
		fargs_ct_record(tr, model, frame, rp, false);
	}
out:
	ftrace_test_recursion_unlock(bit);
	return ret;
}

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
	tr = READ_ONCE(fargs_ct_tr);
	model = ftrace_args_model(ip);
	if (tr && tr->function_enabled && model && !model->flags)
		fargs_ct_record(tr, model, frame, rp, true);
	ftrace_test_recursion_unlock(bit);
}

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

/*
 * Make the attached set what it should be: the selection while the tracer
 * runs, nothing otherwise.  One batch update per direction.
 */
static int fargs_ct_sync_locked(void)
{
	unsigned int nr_target = fargs_ct_tr ? fargs_ct_nr_sel : 0;
	struct ftrace_direct_pair *pairs = NULL;
	unsigned long *del = NULL, *add = NULL;
	unsigned int i, nr_del, nr_add;
	int err = -ENOMEM;

	del = kvmalloc_array(fargs_ct_nr_att + 1, sizeof(*del), GFP_KERNEL);
	add = kvmalloc_array(nr_target + 1, sizeof(*add), GFP_KERNEL);
	if (!del || !add)
		goto out;
	nr_del = fargs_ct_minus(fargs_ct_att, fargs_ct_nr_att, fargs_ct_sel,
				nr_target, del);
	nr_add = fargs_ct_minus(fargs_ct_sel, nr_target, fargs_ct_att,
				fargs_ct_nr_att, add);
	pairs = kvmalloc_array(nr_add + 1, sizeof(*pairs), GFP_KERNEL);
	if (!pairs)
		goto out;
	for (i = 0; i < nr_add; i++) {
		pairs[i].ip = add[i];
		pairs[i].addr = (unsigned long)fargs_ct_tramp;
		/*
		 * The batch's ops does not read arguments, so the core builds
		 * no models for it: build them before the first call.
		 */
		ftrace_args_prepare(add[i]);
	}

	if (nr_del) {
		err = ftrace_direct_batch_remove(fargs_ct_batch, del, nr_del);
		if (err)
			goto out;
		fargs_ct_nr_att = fargs_ct_minus(fargs_ct_att, fargs_ct_nr_att,
						 del, nr_del, fargs_ct_att);
	}
	err = 0;
	if (nr_add) {
		unsigned long *att;

		att = kvmalloc_array(fargs_ct_nr_att + nr_add, sizeof(*att),
				     GFP_KERNEL);
		err = -ENOMEM;
		if (!att)
			goto out;
		err = ftrace_direct_batch_add(fargs_ct_batch, pairs, nr_add);
		if (err) {
			kvfree(att);
			goto out;
		}
		memcpy(att, fargs_ct_att, fargs_ct_nr_att * sizeof(*att));
		memcpy(att + fargs_ct_nr_att, add, nr_add * sizeof(*att));
		fargs_ct_nr_att += nr_add;
		sort(att, fargs_ct_nr_att, sizeof(*att), fargs_ct_cmp, NULL);
		kvfree(fargs_ct_att);
		fargs_ct_att = att;
	}
out:
	if (fargs_ct_nr_att)
		static_branch_enable(&fargs_ct_active);
	else
		static_branch_disable(&fargs_ct_active);
	kvfree(pairs);
	kvfree(add);
	kvfree(del);
	return err;
}

/**
 * fargs_ct_start - function_args starts on @tr
 * @tr: the instance
 *
 * Attaches the selected functions when @tr is the top-level instance.
 *
 * Return: 0, or the error of the batch update.
 */
int fargs_ct_start(struct trace_array *tr)
{
	int err = 0;

	if (!(tr->flags & TRACE_ARRAY_FL_GLOBAL) || !fargs_ct_batch)
		return 0;
	mutex_lock(&fargs_ct_mutex);
	WRITE_ONCE(fargs_ct_tr, tr);
	err = fargs_ct_sync_locked();
	if (err) {
		WRITE_ONCE(fargs_ct_tr, NULL);
		fargs_ct_sync_locked();
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
	mutex_lock(&fargs_ct_mutex);
	if (fargs_ct_tr == tr) {
		WRITE_ONCE(fargs_ct_tr, NULL);
		WARN_ON(fargs_ct_sync_locked());
	}
	mutex_unlock(&fargs_ct_mutex);
}

/* ---- tracefs: set_ftrace_direct_multi ------------------------------------ */

enum {
	FARGS_CT_ERR_NO_MATCH,
	FARGS_CT_ERR_BUSY,
	FARGS_CT_ERR_ATTACH,
};

static const char * const fargs_ct_errs[] = {
	[FARGS_CT_ERR_NO_MATCH]	= "No traceable function matches",
	[FARGS_CT_ERR_BUSY]	= "A selected function has another direct trampoline",
	[FARGS_CT_ERR_ATTACH]	= "Attaching the selection failed",
};

/* Per open file: the selection it builds, from the old one or from none */
struct fargs_ct_file {
	struct ftrace_ops	*ops;
	bool			written;
};

static int fargs_ct_show(struct seq_file *m, void *v)
{
	unsigned int i;

	mutex_lock(&fargs_ct_mutex);
	for (i = 0; i < fargs_ct_nr_sel; i++)
		seq_printf(m, "%ps\n", (void *)fargs_ct_sel[i]);
	mutex_unlock(&fargs_ct_mutex);
	return 0;
}

/* Make the selection the functions of @ops' filter */
static int fargs_ct_commit(struct ftrace_ops *ops)
{
	struct ftrace_hash *hash = ops->func_hash ?
				   ops->func_hash->filter_hash : NULL;
	unsigned long *sel = NULL, *old = fargs_ct_sel;
	unsigned int i, n = 0, nr_old = fargs_ct_nr_sel;
	struct ftrace_func_entry *entry;
	int err;

	if (hash && hash->count) {
		sel = kvmalloc_array(hash->count, sizeof(*sel), GFP_KERNEL);
		if (!sel)
			return -ENOMEM;
		for (i = 0; i < BIT(hash->size_bits); i++) {
			hlist_for_each_entry(entry, &hash->buckets[i], hlist)
				sel[n++] = entry->ip;
		}
		sort(sel, n, sizeof(*sel), fargs_ct_cmp, NULL);
	}

	fargs_ct_sel = sel;
	fargs_ct_nr_sel = n;
	err = fargs_ct_sync_locked();
	if (err) {
		/* Keep the previous selection, and what it attached. */
		fargs_ct_sel = old;
		fargs_ct_nr_sel = nr_old;
		fargs_ct_sync_locked();
		kvfree(sel);
		return err;
	}
	kvfree(old);
	return 0;
}

/* Add the functions of one token to @ops' filter, or remove them ("!") */
static int fargs_ct_apply(struct ftrace_ops *ops, const char *tok)
{
	bool neg = *tok == '!';
	unsigned long *ips;
	unsigned int i, n = 0;
	int cnt, err;

	cnt = ftrace_direct_batch_lookup(tok + neg, NULL, 0);
	if (cnt < 0)
		return cnt;
	ips = kvmalloc_array(cnt, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	err = ftrace_direct_batch_lookup(tok + neg, ips, cnt);
	if (err > 0) {
		/* A module loaded since the count may add functions. */
		cnt = min(cnt, err);
		err = 0;
	}
	/* Removing what is not there is no error. */
	for (i = 0; !err && i < cnt; i++) {
		if (neg && !ftrace_lookup_ip(ops->func_hash->filter_hash,
					     ips[i]))
			continue;
		ips[n++] = ips[i];
	}
	if (!err && n)
		err = ftrace_set_filter_ips(ops, ips, n, neg, 0);
	kvfree(ips);
	return err;
}

static int fargs_ct_open(struct inode *inode, struct file *file)
{
	struct fargs_ct_file *f;
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;
	if ((file->f_mode & FMODE_READ) && (file->f_mode & FMODE_WRITE))
		return -EINVAL;
	if (file->f_mode & FMODE_READ)
		return single_open(file, fargs_ct_show, NULL);

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (f)
		f->ops = kzalloc(sizeof(*f->ops), GFP_KERNEL);
	if (!f || !f->ops) {
		kfree(f);
		return -ENOMEM;
	}
	/* '>' starts from nothing, '>>' from the current selection. */
	mutex_lock(&fargs_ct_mutex);
	if (file->f_flags & O_TRUNC && !(file->f_flags & O_APPEND))
		ret = ftrace_set_filter_ips(f->ops, NULL, 0, 0, 1);
	else
		ret = ftrace_set_filter_ips(f->ops, fargs_ct_sel,
					    fargs_ct_nr_sel, 0, 1);
	mutex_unlock(&fargs_ct_mutex);
	if (ret) {
		ftrace_free_filter(f->ops);
		kfree(f->ops);
		kfree(f);
		return ret;
	}
	f->written = file->f_flags & O_TRUNC && !(file->f_flags & O_APPEND);
	file->private_data = f;
	return 0;
}

static ssize_t fargs_ct_write(struct file *file, const char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct fargs_ct_file *f = file->private_data;
	char *buf, *p, *tok;
	int err = 0;

	if (!cnt)
		return 0;
	if (cnt > SZ_1M)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, cnt);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	mutex_lock(&fargs_ct_mutex);
	/* Apply the names, globs and "!" removals to this file's copy. */
	p = buf;
	while ((tok = strsep(&p, " \t\n")) != NULL) {
		if (!*tok)
			continue;
		err = fargs_ct_apply(f->ops, tok);
		if (err) {
			tracing_log_err(NULL, "set_ftrace_direct_multi", tok,
					(const char **)fargs_ct_errs,
					FARGS_CT_ERR_NO_MATCH, 0);
			break;
		}
	}
	/* Then commit it: a failure keeps the selection there was. */
	if (!err) {
		err = fargs_ct_commit(f->ops);
		if (err)
			tracing_log_err(NULL, "set_ftrace_direct_multi", "",
					(const char **)fargs_ct_errs,
					err == -EBUSY ? FARGS_CT_ERR_BUSY :
					FARGS_CT_ERR_ATTACH, 0);
	}
	/* Committed, or failed: either way nothing is left for release. */
	f->written = false;
	mutex_unlock(&fargs_ct_mutex);
	kfree(buf);
	if (err)
		return err;
	*ppos += cnt;
	return cnt;
}

static int fargs_ct_release(struct inode *inode, struct file *file)
{
	struct fargs_ct_file *f = file->private_data;

	if (file->f_mode & FMODE_READ)
		return single_release(inode, file);

	/* "> set_ftrace_direct_multi" with nothing written empties it. */
	if (f->written) {
		mutex_lock(&fargs_ct_mutex);
		WARN_ON(fargs_ct_commit(f->ops));
		mutex_unlock(&fargs_ct_mutex);
	}
	ftrace_free_filter(f->ops);
	kfree(f->ops);
	kfree(f);
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

static __init int fargs_ct_init(void)
{
	fargs_ct_batch = ftrace_direct_batch_alloc("set_ftrace_direct_multi");
	if (IS_ERR(fargs_ct_batch)) {
		fargs_ct_batch = NULL;
		return 0;
	}
	if (tracing_init_dentry())
		return 0;
	trace_create_file("set_ftrace_direct_multi", TRACE_MODE_WRITE, NULL,
			  NULL, &fargs_ct_fops);
	return 0;
}
fs_initcall(fargs_ct_init);
