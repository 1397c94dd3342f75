// SPDX-License-Identifier: GPL-2.0
/*
 * Batch interface for direct trampolines: the tracefs file direct_functions
 *
 * Lists every direct trampoline in ftrace's direct_functions hash, with
 * the function it serves and its owner: the batch that attached it (by the
 * batch's name), a BPF trampoline, the module whose text it is, or the
 * kernel.  Sorted by function address.
 *
 * See Documentation/trace/ftrace-direct-batch.rst
 */
#include <linux/ftrace.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/security.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "ftrace_direct_batch_internal.h"

struct fdb_line {
	unsigned long	ip;
	unsigned long	addr;
	char		owner[FDB_OWNER_MAX + 8];
};

static int fdb_line_cmp(const void *a, const void *b)
{
	const struct fdb_line *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static int fdb_show(struct seq_file *m, void *v)
{
	struct ftrace_func_entry *entry;
	struct fdb_line *lines;
	struct ftrace_hash *hash;
	unsigned int i, n = 0;

	mutex_lock(&direct_mutex);
	hash = ftrace_direct_functions();
	lines = kvcalloc(hash->count ?: 1, sizeof(*lines), GFP_KERNEL);
	if (!lines) {
		mutex_unlock(&direct_mutex);
		return -ENOMEM;
	}
	for (i = 0; i < BIT(hash->size_bits); i++) {
		hlist_for_each_entry(entry, &hash->buckets[i], hlist) {
			lines[n].ip = entry->ip;
			lines[n].addr = entry->direct;
			ftrace_direct_batch_owner(lines[n].ip, lines[n].addr,
						  lines[n].owner,
						  sizeof(lines[n].owner));
			n++;
		}
	}
	mutex_unlock(&direct_mutex);

	sort(lines, n, sizeof(*lines), fdb_line_cmp, NULL);
	for (i = 0; i < n; i++)
		seq_printf(m, "%ps %pS owner=%s\n", (void *)lines[i].ip,
			   (void *)lines[i].addr, lines[i].owner);
	kvfree(lines);
	return 0;
}

static int fdb_open(struct inode *inode, struct file *file)
{
	unsigned int count;
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;
	/*
	 * A buffer for the lines there are now (some 128 bytes each), so
	 * that seq_read() need not build the whole table again for each
	 * doubling of a buffer that was too small.
	 */
	mutex_lock(&direct_mutex);
	count = ftrace_direct_functions()->count;
	mutex_unlock(&direct_mutex);
	return single_open_size(file, fdb_show, NULL,
				max_t(size_t, PAGE_SIZE, (size_t)(count + 8) * 128));
}

static const struct file_operations fdb_fops = {
	.open		= fdb_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static __init int ftrace_direct_batch_tracefs_init(void)
{
	if (tracing_init_dentry())
		return 0;
	trace_create_file("direct_functions", TRACE_MODE_READ, NULL, NULL,
			  &fdb_fops);
	return 0;
}
fs_initcall(ftrace_direct_batch_tracefs_init);
