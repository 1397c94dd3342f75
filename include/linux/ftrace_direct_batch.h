/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Batch interface for direct trampolines: attach, detach and retarget
 * direct trampolines on many functions in one ftrace update.
 *
 * See Documentation/trace/ftrace-direct-batch.rst
 */
#ifndef _LINUX_FTRACE_DIRECT_BATCH_H
#define _LINUX_FTRACE_DIRECT_BATCH_H

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/err.h>
#include <linux/limits.h>

struct module;
struct ftrace_direct_batch;

/*
 * Priority of the batch's module notifier, which detaches every function
 * of a module that goes away.  A user that must drop such functions from
 * its own state before they are detached registers its module notifier
 * with a higher priority; one at the default priority runs after it.
 */
#define FTRACE_DIRECT_BATCH_MODULE_PRIO	(INT_MAX - 1)

/*
 * Flags of __ftrace_direct_batch_alloc().
 *
 * FTRACE_DIRECT_BATCH_RETARGET_NOSYNC: a retarget returns without
 * waiting for the tasks that may still run the trampolines that it
 * replaced, as modify_ftrace_direct() does.  For an owner that frees its
 * old trampolines after grace periods of its own, as BPF frees its
 * trampoline images.  Detaching waits all the same.
 */
#define FTRACE_DIRECT_BATCH_RETARGET_NOSYNC	BIT(0)

/**
 * struct ftrace_direct_pair - one function and the trampoline it calls
 * @ip: the function: its address or its ftrace location
 * @addr: the direct trampoline that the function's call site calls
 */
struct ftrace_direct_pair {
	unsigned long	ip;
	unsigned long	addr;
};

/*
 * ftrace_direct_batch_set_ipmodify(): @share true when an IPMODIFY ops
 * is about to share @ip with @batch, false when it has stopped.
 */
typedef int (*ftrace_direct_batch_ipmodify_t)(struct ftrace_direct_batch *batch,
					      unsigned long ip, bool share);

#ifdef CONFIG_FTRACE_DIRECT_BATCH
struct ftrace_direct_batch *__ftrace_direct_batch_alloc(const char *owner,
							struct module *mod,
							unsigned int flags);
/**
 * ftrace_direct_batch_alloc - create an owner of direct trampolines
 * @owner: the name that direct_functions shows for its attachments
 *
 * Return: the batch, or an ERR_PTR().
 */
#define ftrace_direct_batch_alloc(owner)	\
	__ftrace_direct_batch_alloc(owner, THIS_MODULE, 0)
void ftrace_direct_batch_free(struct ftrace_direct_batch *batch);
int ftrace_direct_batch_add(struct ftrace_direct_batch *batch,
			    const struct ftrace_direct_pair *pairs,
			    unsigned int cnt);
int ftrace_direct_batch_remove(struct ftrace_direct_batch *batch,
			       const unsigned long *ips, unsigned int cnt);
int ftrace_direct_batch_update(struct ftrace_direct_batch *batch,
			       const struct ftrace_direct_pair *add,
			       unsigned int nr_add,
			       const unsigned long *del, unsigned int nr_del);
int ftrace_direct_batch_retarget(struct ftrace_direct_batch *batch,
				 const struct ftrace_direct_pair *pairs,
				 unsigned int cnt);
int ftrace_direct_batch_retarget_nolock(struct ftrace_direct_batch *batch,
					const struct ftrace_direct_pair *pairs,
					unsigned int cnt);
void ftrace_direct_batch_set_ipmodify(struct ftrace_direct_batch *batch,
				      ftrace_direct_batch_ipmodify_t fn);
int ftrace_direct_batch_apply(struct ftrace_direct_batch *batch,
			      const struct ftrace_direct_pair *add,
			      unsigned int nr_add,
			      const struct ftrace_direct_pair *set,
			      unsigned int nr_set,
			      const unsigned long *del, unsigned int nr_del);
unsigned int ftrace_direct_batch_count(struct ftrace_direct_batch *batch);
unsigned long ftrace_direct_batch_get(struct ftrace_direct_batch *batch,
				      unsigned long ip);
int ftrace_direct_batch_lookup(const char *filter, unsigned long *ips,
			       unsigned int max);
#else
static inline struct ftrace_direct_batch *
__ftrace_direct_batch_alloc(const char *owner, struct module *mod,
			    unsigned int flags)
{
	return ERR_PTR(-EOPNOTSUPP);
}

#define ftrace_direct_batch_alloc(owner)	\
	__ftrace_direct_batch_alloc(owner, THIS_MODULE, 0)

static inline void ftrace_direct_batch_free(struct ftrace_direct_batch *batch)
{
}

static inline int ftrace_direct_batch_add(struct ftrace_direct_batch *batch,
					  const struct ftrace_direct_pair *pairs,
					  unsigned int cnt)
{
	return -EOPNOTSUPP;
}

static inline int ftrace_direct_batch_remove(struct ftrace_direct_batch *batch,
					     const unsigned long *ips,
					     unsigned int cnt)
{
	return -EOPNOTSUPP;
}

static inline int
ftrace_direct_batch_update(struct ftrace_direct_batch *batch,
			   const struct ftrace_direct_pair *add,
			   unsigned int nr_add,
			   const unsigned long *del, unsigned int nr_del)
{
	return -EOPNOTSUPP;
}

static inline int
ftrace_direct_batch_retarget(struct ftrace_direct_batch *batch,
			     const struct ftrace_direct_pair *pairs,
			     unsigned int cnt)
{
	return -EOPNOTSUPP;
}

static inline int
ftrace_direct_batch_retarget_nolock(struct ftrace_direct_batch *batch,
				    const struct ftrace_direct_pair *pairs,
				    unsigned int cnt)
{
	return -EOPNOTSUPP;
}

static inline void
ftrace_direct_batch_set_ipmodify(struct ftrace_direct_batch *batch,
				 ftrace_direct_batch_ipmodify_t fn)
{
}

static inline int
ftrace_direct_batch_apply(struct ftrace_direct_batch *batch,
			  const struct ftrace_direct_pair *add,
			  unsigned int nr_add,
			  const struct ftrace_direct_pair *set,
			  unsigned int nr_set,
			  const unsigned long *del, unsigned int nr_del)
{
	return -EOPNOTSUPP;
}

static inline unsigned int
ftrace_direct_batch_count(struct ftrace_direct_batch *batch)
{
	return 0;
}

static inline unsigned long
ftrace_direct_batch_get(struct ftrace_direct_batch *batch, unsigned long ip)
{
	return 0;
}

static inline int ftrace_direct_batch_lookup(const char *filter,
					     unsigned long *ips,
					     unsigned int max)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* _LINUX_FTRACE_DIRECT_BATCH_H */
