/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Batch interface for direct trampolines: what its files share.  The
 * interface and the batches' lifetime are in ftrace_direct_batch.c, the
 * tracefs file direct_functions in ftrace_direct_batch_tracefs.c.  Not for
 * users of the interface, who have <linux/ftrace_direct_batch.h>, except
 * the record walk, which the function_args call-through shares.
 */
#ifndef _FTRACE_DIRECT_BATCH_INTERNAL_H
#define _FTRACE_DIRECT_BATCH_INTERNAL_H

#include <linux/ftrace.h>
#include <linux/ftrace_direct_batch.h>
#include <linux/list.h>

struct module;
struct ftrace_func_entry;

/* Largest owner name, with its NUL */
#define FDB_OWNER_MAX	64

struct ftrace_direct_batch {
	struct ftrace_ops	ops;
	/* in ftrace_direct_batches, under direct_mutex */
	struct list_head	list;
	struct module		*mod;
	/* FTRACE_DIRECT_BATCH_*, fixed at allocation */
	unsigned int		flags;
	char			owner[FDB_OWNER_MAX];
	/*
	 * Room for two entries per function of the batch, kept by every
	 * update that attaches: the detaching paths that must not fail
	 * (freeing, text going away) park the entries they unlink here
	 * until a grace period has passed.
	 */
	struct ftrace_func_entry **spare;
	unsigned int		nr_spare;
	/* ftrace_direct_batch_set_ipmodify(), under direct_mutex */
	ftrace_direct_batch_ipmodify_t ipmodify;
};

/* Every batch, under direct_mutex */
extern struct list_head ftrace_direct_batches;

/* Is @ip, an ftrace location, a function of @batch?  Under direct_mutex */
bool ftrace_direct_batch_has(struct ftrace_direct_batch *batch, unsigned long ip);

/*
 * Who attached the direct trampoline @addr at @ip, as direct_functions
 * names it: a batch's owner, "bpf", "module:NAME" or "kernel".  Under
 * direct_mutex.
 */
void ftrace_direct_batch_owner(unsigned long ip, unsigned long addr,
			       char *buf, size_t size);

/* Call @fn on every record that ftrace patches, under ftrace_lock */
int ftrace_direct_batch_walk(int (*fn)(struct dyn_ftrace *rec,
				       unsigned long index, void *data),
			     void *data);

#endif /* _FTRACE_DIRECT_BATCH_INTERNAL_H */
