// SPDX-License-Identifier: GPL-2.0
/*
 * Batch interface for direct trampolines
 *
 * A batch is one owner of direct trampolines: a module, a tracer, a BPF
 * link.  It attaches, detaches and retargets trampolines on any number of
 * functions in one ftrace code update, and each function may call a
 * different trampoline.
 *
 * Each batch is one ftrace_ops with FTRACE_OPS_FL_DIRECT; its filter hash
 * holds its functions.  The trampoline of each function is in ftrace's
 * direct_functions hash, which the core already uses to patch a call site
 * that only a direct ops uses.  When a function is shared with other ops,
 * the batch's callback looks the trampoline up per function and asks the
 * caller to jump to it.  The ops does not ask for pt_regs: on x86 a shared
 * function stays on ftrace_caller unless another of its ops needs the full
 * pt_regs.
 *
 * This file holds the interface and the batches' lifetime: a module that
 * goes away, text that is freed.  The tracefs file direct_functions is in
 * ftrace_direct_batch_tracefs.c, the boot-time selftest in
 * ftrace_direct_batch_selftest.c.
 *
 * See Documentation/trace/ftrace-direct-batch.rst
 */
#include <linux/ftrace_direct_batch.h>
#include <linux/ftrace.h>
#include <linux/filter.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/ctype.h>

#include "trace.h"
#include "ftrace_internal.h"
#include "ftrace_direct_batch_internal.h"

LIST_HEAD(ftrace_direct_batches);

static void fdb_call(unsigned long ip, unsigned long parent_ip,
		     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	/* The batch's one trampoline, if all its functions share one */
	unsigned long addr = READ_ONCE(op->direct_call);

	if (!addr)
		addr = ftrace_find_rec_direct(ip);
	if (addr)
		arch_ftrace_set_direct_caller(fregs, addr);
}

/* The batch's functions; the ops is registered exactly while it has some */
static struct ftrace_hash *fdb_hash(struct ftrace_direct_batch *batch)
{
	if (!(batch->ops.flags & FTRACE_OPS_FL_ENABLED))
		return NULL;
	return batch->ops.func_hash->filter_hash;
}

bool ftrace_direct_batch_has(struct ftrace_direct_batch *batch, unsigned long ip)
{
	struct ftrace_hash *hash = fdb_hash(batch);

	return hash && ftrace_lookup_ip(hash, ip);
}

/*
 * ops->direct_call is the trampoline of every function of the batch when
 * they all share one, else 0: the callback then looks the function up.  It
 * is 0 while anything changes, and set again once the change is done.
 */
static void fdb_set_common(struct ftrace_direct_batch *batch)
{
	struct ftrace_hash *hash = fdb_hash(batch);
	struct ftrace_func_entry *entry;
	unsigned long addr, common = 0;
	unsigned int i;

	if (!hash)
		goto out;
	for (i = 0; i < BIT(hash->size_bits); i++) {
		hlist_for_each_entry(entry, &hash->buckets[i], hlist) {
			addr = ftrace_find_rec_direct(entry->ip);
			if (common && addr != common) {
				common = 0;
				goto out;
			}
			common = addr;
		}
	}
out:
	WRITE_ONCE(batch->ops.direct_call, common);
}

/* A hash with room for @count entries */
static struct ftrace_hash *fdb_alloc_hash(unsigned int count)
{
	return alloc_ftrace_hash(min(fls(count), 12));
}

/*
 * Resolve @ip to its ftrace location: -ENOENT for no function at all,
 * -ENODEV for a function ftrace cannot trace (notrace, or an excluded
 * section) or an address inside a function but not at its start.
 */
static int fdb_location(unsigned long *ip)
{
	unsigned long size, offset, loc;

	loc = ftrace_location(*ip);
	if (loc) {
		*ip = loc;
		return 0;
	}
	if (!kallsyms_lookup_size_offset(*ip, &size, &offset))
		return -ENOENT;
	return -ENODEV;
}

/*
 * Is @addr in text that goes away before its module does: a module that
 * is going away, or a module's or the kernel's init text?  The GOING
 * notifier detaches the trampolines in a module, and waits for
 * direct_mutex, which the caller holds: a trampoline attached before the
 * module is marked going is detached by it, one attached after would not
 * be.  Nothing detaches a trampoline in init text.
 */
static bool fdb_text_going(unsigned long addr)
{
	struct module *mod;
	bool going;

	if (is_kernel_inittext(addr))
		return true;
	preempt_disable();
	mod = __module_address(addr);
	going = mod && (mod->state == MODULE_STATE_GOING ||
			within_module_init(addr, mod));
	preempt_enable();
	return going;
}

void ftrace_direct_batch_owner(unsigned long ip, unsigned long addr,
			       char *buf, size_t size)
{
	struct ftrace_direct_batch *batch;
	struct module *mod;

	lockdep_assert_held(&direct_mutex);
	list_for_each_entry(batch, &ftrace_direct_batches, list) {
		if (ftrace_direct_batch_has(batch, ip)) {
			strscpy(buf, batch->owner, size);
			return;
		}
	}
	if (is_bpf_text_address(addr)) {
		strscpy(buf, "bpf", size);
		return;
	}
	preempt_disable();
	mod = __module_text_address(addr);
	if (mod)
		snprintf(buf, size, "module:%s", mod->name);
	else
		strscpy(buf, "kernel", size);
	preempt_enable();
}

/*
 * @batch may not take @ip: another owner's direct trampoline is there.
 * The caller gets -EBUSY; the log says who has the function, which an
 * errno cannot (a BPF link, a module).
 */
static void fdb_busy(struct ftrace_direct_batch *batch, unsigned long ip)
{
	char owner[FDB_OWNER_MAX + 8];

	ftrace_direct_batch_owner(ip, ftrace_find_rec_direct(ip), owner,
				  sizeof(owner));
	pr_notice_ratelimited("ftrace: %s cannot attach to %ps: %s has a direct trampoline there\n",
			      batch->owner, (void *)ip, owner);
}

/*
 * Build the request hash (ip -> addr) from @cnt functions, checking each
 * one.  @ips is the caller's array, @pairs gives the trampolines (NULL for
 * a detach).  With @mine, every function must belong to @batch already;
 * without it, none may have a direct trampoline yet.
 */
static int fdb_request(struct ftrace_direct_batch *batch,
		       const struct ftrace_direct_pair *pairs,
		       const unsigned long *ips, unsigned int cnt, bool mine,
		       struct ftrace_hash **reqp)
{
	struct ftrace_func_entry *entry;
	struct ftrace_hash *req;
	unsigned long ip, addr;
	unsigned int i;
	int err;

	if (!cnt)
		return -EINVAL;
	req = fdb_alloc_hash(cnt);
	if (!req)
		return -ENOMEM;

	for (i = 0; i < cnt; i++) {
		ip = pairs ? pairs[i].ip : ips[i];
		addr = pairs ? pairs[i].addr : 0;
		err = -EINVAL;
		if (pairs && !addr)
			goto fail;
		err = -ENODEV;
		if (pairs && fdb_text_going(addr))
			goto fail;
		err = fdb_location(&ip);
		if (err)
			goto fail;
		err = -EINVAL;
		if (ftrace_lookup_ip(req, ip))
			goto fail;
		if (mine) {
			err = -ENOENT;
			if (!ftrace_direct_batch_has(batch, ip))
				goto fail;
		} else if (ftrace_find_rec_direct(ip)) {
			err = -EEXIST;
			if (ftrace_direct_batch_has(batch, ip))
				goto fail;
			fdb_busy(batch, ip);
			err = -EBUSY;
			goto fail;
		}
		err = -ENOMEM;
		entry = add_hash_entry(req, ip);
		if (!entry)
			goto fail;
		entry->direct = addr;
	}
	*reqp = req;
	return 0;
fail:
	free_ftrace_hash(req);
	return err;
}

/*
 * A new direct_functions hash: the current one without the functions of
 * @del, and with those of @add (new) and @set (a new trampoline).  Any of
 * them may be NULL.
 */
static struct ftrace_hash *fdb_direct_build(struct ftrace_hash *add,
					    struct ftrace_hash *set,
					    struct ftrace_hash *del)
{
	struct ftrace_hash *cur = ftrace_direct_functions();
	struct ftrace_hash *in[2] = { add, set };
	struct ftrace_func_entry *entry, *new;
	struct ftrace_hash *hash;
	unsigned int h, i;

	hash = fdb_alloc_hash(cur->count + (add ? add->count : 0));
	if (!hash)
		return NULL;

	for (i = 0; i < BIT(cur->size_bits); i++) {
		hlist_for_each_entry(entry, &cur->buckets[i], hlist) {
			if ((del && ftrace_lookup_ip(del, entry->ip)) ||
			    (set && ftrace_lookup_ip(set, entry->ip)))
				continue;
			new = add_hash_entry(hash, entry->ip);
			if (!new)
				goto fail;
			new->direct = entry->direct;
		}
	}
	for (h = 0; h < ARRAY_SIZE(in); h++) {
		for (i = 0; in[h] && i < BIT(in[h]->size_bits); i++) {
			hlist_for_each_entry(entry, &in[h]->buckets[i], hlist) {
				new = add_hash_entry(hash, entry->ip);
				if (!new)
					goto fail;
				new->direct = entry->direct;
			}
		}
	}
	return hash;
fail:
	free_ftrace_hash(hash);
	return NULL;
}

/*
 * The functions of @base but those of @del, and those of @add, as an
 * array for ftrace_set_filter_ips().  Any hash may be NULL.
 */
static unsigned long *fdb_ips(struct ftrace_hash *base, struct ftrace_hash *add,
			      struct ftrace_hash *del, unsigned int *cnt)
{
	struct ftrace_hash *hashes[2] = { base, add };
	struct ftrace_func_entry *entry;
	unsigned long *ips;
	unsigned int h, i, n = 0;

	n = (hashes[0] ? hashes[0]->count : 0) + (add ? add->count : 0);
	ips = kvmalloc_array(n ?: 1, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return NULL;
	n = 0;
	for (h = 0; h < ARRAY_SIZE(hashes); h++) {
		for (i = 0; hashes[h] && i < BIT(hashes[h]->size_bits); i++) {
			hlist_for_each_entry(entry, &hashes[h]->buckets[i], hlist) {
				if (!h && del && ftrace_lookup_ip(del, entry->ip))
					continue;
				ips[n++] = entry->ip;
			}
		}
	}
	*cnt = n;
	return ips;
}

/* Make room in @batch->spare for @count functions */
static int fdb_reserve(struct ftrace_direct_batch *batch, unsigned int count)
{
	struct ftrace_func_entry **spare;

	if (count <= batch->nr_spare)
		return 0;
	spare = kvmalloc_array(count, 2 * sizeof(*spare), GFP_KERNEL);
	if (!spare)
		return -ENOMEM;
	kvfree(batch->spare);
	batch->spare = spare;
	batch->nr_spare = count;
	return 0;
}

/*
 * Unlink @ip's entry from @hash in place, for the paths that must not
 * fail, and park it in @batch->spare at *@n.  Readers walk the hash with
 * preemption disabled (ftrace_ops_test(), fdb_call()), possibly where RCU
 * is not watching, or under rcu_read_lock() (direct_functions); the
 * ftrace core reads the hashes under ftrace_lock, which the caller holds.
 * The caller frees the parked entries with fdb_free_parked().
 */
static void fdb_unlink(struct ftrace_direct_batch *batch,
		       struct ftrace_hash *hash, unsigned long ip,
		       unsigned int *n)
{
	struct ftrace_func_entry *entry = ftrace_lookup_ip(hash, ip);

	if (!entry || WARN_ON_ONCE(*n >= 2 * batch->nr_spare))
		return;
	hlist_del_rcu(&entry->hlist);
	hash->count--;
	batch->spare[(*n)++] = entry;
}

/*
 * Free the parked entries once no reader can hold them: RCU Tasks Rude
 * covers the callers with preemption disabled where RCU is not watching,
 * as the ftrace core waits for it before it frees a dynamic ops.
 */
static void fdb_free_parked(struct ftrace_direct_batch *batch, unsigned int n)
{
	if (!n)
		return;
	ftrace_direct_functions_sync();
	while (n)
		kfree(batch->spare[--n]);
}

/*
 * Detach every function of @batch without allocating: freeing a batch
 * and a module going away must not fail.  Unregistering the ops takes no
 * memory, and once it returns no task runs the ops' callback or enters
 * the trampolines from the call sites; then the trampolines leave
 * direct_functions in place.
 */
static bool fdb_detach_all(struct ftrace_direct_batch *batch)
{
	struct ftrace_hash *hash = fdb_hash(batch);
	struct ftrace_func_entry *entry;
	unsigned int i, n = 0;

	if (!hash)
		return true;
	WRITE_ONCE(batch->ops.direct_call, 0);
	/*
	 * Fails only when ftrace is dead (which warned already): then the
	 * ops stays on ftrace's lists, and the batch must stay too.
	 */
	if (unregister_ftrace_function(&batch->ops)) {
		WARN_ON_ONCE(!ftrace_is_dead());
		return false;
	}
	mutex_lock(&ftrace_lock);
	for (i = 0; i < BIT(hash->size_bits); i++) {
		hlist_for_each_entry(entry, &hash->buckets[i], hlist)
			fdb_unlink(batch, ftrace_direct_functions(), entry->ip,
				   &n);
	}
	mutex_unlock(&ftrace_lock);
	/*
	 * The filter hash stays as it is: fdb_hash() ignores it while the
	 * ops is not registered, and the next attach replaces it.
	 */
	fdb_free_parked(batch, n);
	return true;
}

/*
 * A stub ops on the functions of @set sends their call sites through
 * ftrace_caller and the batch's callback, which reads the trampoline of
 * each call from direct_functions, so that the hash can change under
 * them.  Taking the stub away patches the sites with the new trampolines.
 * As __modify_ftrace_direct()'s tmp_ops, the stub is static, so that
 * unregistering it does not wait as for a dynamic ops: the callers that
 * need that wait for the old trampolines themselves (fdb_wait()).  Only
 * the ftrace core reads its filter hash, under ftrace_lock:
 * ftrace_ops_list_func() skips a stub ops without testing it.  One stub
 * serves every batch, under direct_mutex.
 */
static struct ftrace_ops fdb_stub = {
	.func		= ftrace_stub,
	.flags		= FTRACE_OPS_FL_STUB,
	/* never build an ops trampoline for it */
	.trampoline	= FTRACE_ADDR,
};

/*
 * Empty the stub's filter.  The stub is used again, so its hash goes
 * through the core, which frees the old one; should that fail for want
 * of memory, the next fdb_stub_get() replaces it all the same.
 */
static void fdb_stub_reset(void)
{
	ftrace_set_filter_ips(&fdb_stub, NULL, 0, 0, 1);
}

static int fdb_stub_get(struct ftrace_hash *set)
{
	unsigned long *ips;
	unsigned int cnt;
	int err;

	lockdep_assert_held(&direct_mutex);
	ips = fdb_ips(set, NULL, NULL, &cnt);
	if (!ips)
		return -ENOMEM;
	err = ftrace_set_filter_ips(&fdb_stub, ips, cnt, 0, 1);
	if (!err) {
		err = register_ftrace_function_nolock(&fdb_stub);
		if (err)
			fdb_stub_reset();
	}
	kvfree(ips);
	return err;
}

static void fdb_stub_put(void)
{
	unregister_ftrace_function(&fdb_stub);
	fdb_stub_reset();
}

/*
 * Wait until no task runs or will enter the trampolines that an update
 * detached or replaced, as ftrace_shutdown() waits before it frees a
 * dynamic ops.
 */
static void fdb_wait(void)
{
	synchronize_rcu_tasks_rude();
	synchronize_rcu_tasks();
}

/*
 * Attach the functions of @add, retarget those of @set and detach those
 * of @del (any may be NULL): one ftrace code update for @add and @del,
 * two for @set (the stub), whatever the numbers are.  The batch's ops
 * gets its new filter hash in one move, or is registered or unregistered.
 * direct_functions holds the new trampolines of @add before any call site
 * can reach them; it takes the new trampolines of @set and drops the
 * functions of @del only once that update has succeeded, so that on error
 * no task has entered a trampoline that the caller then frees.
 */
static int fdb_apply_locked(struct ftrace_direct_batch *batch,
			    struct ftrace_hash *add, struct ftrace_hash *set,
			    struct ftrace_hash *del)
{
	struct ftrace_hash *pre = NULL, *post = NULL, *prev = NULL;
	unsigned long *ips = NULL;
	unsigned int cnt = 0;
	bool wait = false;
	int err;

	if (add) {
		cnt = fdb_hash(batch) ? fdb_hash(batch)->count : 0;
		err = fdb_reserve(batch, cnt + add->count);
		if (err)
			return err;
	}
	/* The batch's functions after the update */
	if (add || del) {
		ips = fdb_ips(fdb_hash(batch), add, del, &cnt);
		if (!ips)
			return -ENOMEM;
	}
	if (set) {
		err = fdb_stub_get(set);
		if (err) {
			kvfree(ips);
			return err;
		}
	}

	err = -ENOMEM;
	WRITE_ONCE(batch->ops.direct_call, 0);
	if (add) {
		pre = fdb_direct_build(add, NULL, NULL);
		if (!pre)
			goto out;
		prev = ftrace_direct_functions_swap(pre);
		pre = NULL;
	}
	/* Built from the hash in place now, before anything can fail */
	if (set || del) {
		post = fdb_direct_build(NULL, set, del);
		if (!post)
			goto out;
	}

	err = 0;
	if (!add && !del) {
		/* Retarget only: the filter stays as it is */
	} else if (!cnt) {
		/* The last functions: unregistering waits for the callers. */
		err = unregister_ftrace_function(&batch->ops);
		if (!err)
			ftrace_set_filter_ips(&batch->ops, NULL, 0, 0, 1);
	} else if (!(batch->ops.flags & FTRACE_OPS_FL_ENABLED)) {
		err = ftrace_set_filter_ips(&batch->ops, ips, cnt, 0, 1);
		if (!err) {
			err = register_ftrace_function_nolock(&batch->ops);
			/*
			 * ftrace_startup() lists the ops before it can refuse
			 * it (an IPMODIFY user has a function): calls of
			 * functions that other ops trace may have entered the
			 * new trampolines meanwhile.
			 */
			wait = err;
		}
		if (err)
			ftrace_set_filter_ips(&batch->ops, NULL, 0, 0, 1);
	} else {
		err = ftrace_set_filter_ips(&batch->ops, ips, cnt, 0, 1);
	}
	if (!err && post) {
		/* The stub keeps the call sites of @set on ftrace_caller */
		ftrace_direct_functions_free(ftrace_direct_functions_swap(post));
		post = NULL;
	}
out:
	if (err && prev) {
		/* The callers that took the new hash are gone by its free */
		ftrace_direct_functions_free(ftrace_direct_functions_swap(prev));
		prev = NULL;
	}
	ftrace_direct_functions_free(prev);
	if (set)
		fdb_stub_put();
	/*
	 * The detached trampolines, as unregister_ftrace_direct() waits
	 * for them (unregistering the batch's ops, for its last functions,
	 * waited already), the replaced ones, unless their owner frees them
	 * after grace periods of its own, and those of a refused first
	 * attach, which the caller may free.
	 */
	if (!err && del && cnt)
		wait = true;
	if (!err && set && !(batch->flags & FTRACE_DIRECT_BATCH_RETARGET_NOSYNC))
		wait = true;
	if (wait)
		fdb_wait();
	fdb_set_common(batch);
	free_ftrace_hash(post);
	kvfree(ips);
	return err;
}

/*
 * ftrace asks a direct ops before an IPMODIFY ops shares one of its
 * functions (_PEER), and before the ops itself takes a function that an
 * IPMODIFY ops has (_SELF, which a batch refuses).  With direct_mutex
 * held; ftrace_ipmodify_peer_ip names the function.
 */
static int fdb_ops_func(struct ftrace_ops *ops, enum ftrace_ops_cmd cmd)
{
	struct ftrace_direct_batch *batch = ops->private;

	lockdep_assert_held(&direct_mutex);
	switch (cmd) {
	case FTRACE_OPS_CMD_ENABLE_SHARE_IPMODIFY_PEER:
		if (!batch->ipmodify) {
			pr_notice_ratelimited("ftrace: an IPMODIFY user (livepatch, a kprobe with a post handler) cannot share %ps with %s\n",
					      (void *)ftrace_ipmodify_peer_ip,
					      batch->owner);
			return -EBUSY;
		}
		return batch->ipmodify(batch, ftrace_ipmodify_peer_ip, true);
	case FTRACE_OPS_CMD_DISABLE_SHARE_IPMODIFY_PEER:
		if (batch->ipmodify)
			batch->ipmodify(batch, ftrace_ipmodify_peer_ip, false);
		return 0;
	default:
		/*
		 * _SELF: not logged, the caller may have another way (BPF's
		 * single trampolines fall back to their own ftrace_ops).
		 */
		return -EBUSY;
	}
}

/**
 * __ftrace_direct_batch_alloc - create an owner of direct trampolines
 * @owner: a name for direct_functions: printable, no white space, at most
 *	63 characters
 * @mod: the module that owns the batch (THIS_MODULE)
 * @flags: 0, or FTRACE_DIRECT_BATCH_RETARGET_NOSYNC for an owner that
 *	frees its old trampolines after grace periods of its own
 *
 * Modules use the ftrace_direct_batch_alloc() wrapper, which passes
 * THIS_MODULE and no flag.  The batch belongs to @mod:
 * @mod frees it in its exit function at the latest.  If @mod goes away
 * without freeing it, ftrace detaches and frees the batch, with a
 * warning, so no other code may keep a pointer to it past @mod's life.
 *
 * Context: process context.
 * Return: the new, empty batch, or ERR_PTR(-EINVAL) for a bad name or
 * an unknown flag, ERR_PTR(-ENOMEM).
 */
struct ftrace_direct_batch *__ftrace_direct_batch_alloc(const char *owner,
							struct module *mod,
							unsigned int flags)
{
	struct ftrace_direct_batch *batch;
	const char *c;

	if (!owner || !*owner || strlen(owner) >= FDB_OWNER_MAX ||
	    (flags & ~FTRACE_DIRECT_BATCH_RETARGET_NOSYNC))
		return ERR_PTR(-EINVAL);
	for (c = owner; *c; c++) {
		if (!isgraph(*c))
			return ERR_PTR(-EINVAL);
	}

	batch = kzalloc(sizeof(*batch), GFP_KERNEL);
	if (!batch)
		return ERR_PTR(-ENOMEM);
	strscpy(batch->owner, owner, sizeof(batch->owner));
	batch->mod = mod;
	batch->flags = flags;
	batch->ops.func = fdb_call;
	batch->ops.ops_func = fdb_ops_func;
	batch->ops.flags = FTRACE_OPS_FL_DIRECT | FTRACE_OPS_FL_RECURSION;
	/* ftrace_caller serves it when shared; never build an ops trampoline */
	batch->ops.trampoline = FTRACE_ADDR;
	batch->ops.private = batch;

	mutex_lock(&direct_mutex);
	list_add_tail(&batch->list, &ftrace_direct_batches);
	mutex_unlock(&direct_mutex);
	return batch;
}
EXPORT_SYMBOL_GPL(__ftrace_direct_batch_alloc);

/*
 * Detach all of @batch and free it, unless ftrace is dead: then its lists
 * still hold the ops, and the batch stays (false).  fdb_detach_all()
 * returns once no task runs the ops or enters the trampolines.
 */
static bool fdb_destroy(struct ftrace_direct_batch *batch)
{
	lockdep_assert_held(&direct_mutex);

	if (!fdb_detach_all(batch))
		return false;
	list_del(&batch->list);
	ftrace_free_filter(&batch->ops);
	kvfree(batch->spare);
	kfree(batch);
	return true;
}

/**
 * ftrace_direct_batch_free - detach everything and free a batch
 * @batch: from ftrace_direct_batch_alloc(); NULL and error pointers are
 *	ignored
 *
 * When this returns, no task runs or will enter any of the batch's
 * trampolines, so their memory may be freed.
 *
 * Context: process context; sleeps.
 */
void ftrace_direct_batch_free(struct ftrace_direct_batch *batch)
{
	if (IS_ERR_OR_NULL(batch))
		return;

	mutex_lock(&direct_mutex);
	fdb_destroy(batch);
	mutex_unlock(&direct_mutex);
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_free);

/* ftrace_direct_batch_apply(), under direct_mutex */
static int fdb_apply_pairs(struct ftrace_direct_batch *batch,
			   const struct ftrace_direct_pair *add,
			   unsigned int nr_add,
			   const struct ftrace_direct_pair *set,
			   unsigned int nr_set,
			   const unsigned long *del, unsigned int nr_del)
{
	struct ftrace_hash *areq = NULL, *sreq = NULL, *dreq = NULL;
	struct ftrace_func_entry *entry;
	unsigned int i;
	int err;

	lockdep_assert_held(&direct_mutex);
	if (!nr_add && !nr_set && !nr_del)
		return -EINVAL;
	/* Check every function of every list before anything changes. */
	err = nr_del ? fdb_request(batch, NULL, del, nr_del, true, &dreq) : 0;
	if (!err && nr_set)
		err = fdb_request(batch, set, NULL, nr_set, true, &sreq);
	for (i = 0; !err && sreq && dreq && i < BIT(sreq->size_bits); i++) {
		hlist_for_each_entry(entry, &sreq->buckets[i], hlist) {
			if (ftrace_lookup_ip(dreq, entry->ip))
				err = -EINVAL;
		}
	}
	if (!err && nr_add)
		err = fdb_request(batch, add, NULL, nr_add, false, &areq);
	if (!err)
		err = fdb_apply_locked(batch, areq, sreq, dreq);
	free_ftrace_hash(areq);
	free_ftrace_hash(sreq);
	free_ftrace_hash(dreq);
	return err;
}

/**
 * ftrace_direct_batch_apply - attach, retarget and detach at once
 * @batch: the owner
 * @add: functions to attach, and the trampoline each one calls; a
 *	function is named by its address or its ftrace location
 * @nr_add: number of @add, may be 0
 * @set: functions of @batch to send to another trampoline
 * @nr_set: number of @set, may be 0
 * @del: functions of @batch to detach
 * @nr_del: number of @del, may be 0
 *
 * Attaches every pair of @add, retargets every pair of @set and detaches
 * every function of @del, or changes nothing.  That is one ftrace code
 * update whatever the numbers are, and two more when @nr_set is not 0:
 * the call sites of @set go through ftrace_caller while their trampolines
 * change, and keep calling the old trampoline or the new one; none is
 * skipped.
 *
 * A trampoline is entered as the function's call site would enter it,
 * with the function's arguments in their registers and the return
 * address into the function on the stack; it must be able to run there,
 * like the ones in samples/ftrace/.  When the call returns, no task runs
 * or will enter the detached trampolines, nor the old trampolines of @set
 * unless @batch was allocated with FTRACE_DIRECT_BATCH_RETARGET_NOSYNC.
 *
 * Context: process context; sleeps.
 * Return: 0 on success, or
 *  -EINVAL  all lists are empty, a trampoline is 0, or a function
 *           appears twice in a list or in both @set and @del;
 *  -ENOENT  an address that is no function, or a function of @set or
 *           @del that @batch does not have;
 *  -ENODEV  a function that ftrace cannot trace (notrace), an address
 *           inside a function but not at its start or its ftrace
 *           location, or a trampoline in a module that is going away
 *           or in a module's init text;
 *  -EEXIST  a function of @add that is in @batch already;
 *  -EBUSY   a function with a direct trampoline of another owner, or one
 *           that an IPMODIFY ops (livepatch) uses;
 *  -ENOMEM.
 * On error nothing changed.
 */
int ftrace_direct_batch_apply(struct ftrace_direct_batch *batch,
			      const struct ftrace_direct_pair *add,
			      unsigned int nr_add,
			      const struct ftrace_direct_pair *set,
			      unsigned int nr_set,
			      const unsigned long *del, unsigned int nr_del)
{
	int err;

	mutex_lock(&direct_mutex);
	err = fdb_apply_pairs(batch, add, nr_add, set, nr_set, del, nr_del);
	mutex_unlock(&direct_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_apply);

/**
 * ftrace_direct_batch_update - attach and detach in one ftrace update
 * @batch: the owner
 * @add: functions to attach, and the trampoline each one calls
 * @nr_add: number of @add, may be 0
 * @del: functions of @batch to detach
 * @nr_del: number of @del, may be 0
 *
 * ftrace_direct_batch_apply() with nothing to retarget: all or nothing,
 * in one ftrace code update.  A function of @add that @batch has already
 * is -EEXIST, also when it is in @del: use ftrace_direct_batch_retarget()
 * or ftrace_direct_batch_apply() to change its trampoline.
 *
 * Context: process context; sleeps.
 * Return: as ftrace_direct_batch_apply().
 */
int ftrace_direct_batch_update(struct ftrace_direct_batch *batch,
			       const struct ftrace_direct_pair *add,
			       unsigned int nr_add,
			       const unsigned long *del, unsigned int nr_del)
{
	return ftrace_direct_batch_apply(batch, add, nr_add, NULL, 0,
					 del, nr_del);
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_update);

/**
 * ftrace_direct_batch_add - attach direct trampolines to functions
 * @batch: the owner
 * @pairs: the functions and the trampoline each one calls
 * @cnt: number of @pairs
 *
 * ftrace_direct_batch_update() with nothing to detach: every pair or
 * none, in one ftrace code update.
 *
 * Context: process context; sleeps.
 * Return: as ftrace_direct_batch_update(); -EINVAL when @cnt is 0.
 */
int ftrace_direct_batch_add(struct ftrace_direct_batch *batch,
			    const struct ftrace_direct_pair *pairs,
			    unsigned int cnt)
{
	return ftrace_direct_batch_update(batch, pairs, cnt, NULL, 0);
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_add);

/**
 * ftrace_direct_batch_remove - detach direct trampolines from functions
 * @batch: the owner
 * @ips: functions of @batch, by address or ftrace location
 * @cnt: number of @ips
 *
 * ftrace_direct_batch_update() with nothing to attach: all of @ips or
 * none, in one ftrace code update.  When it returns, no task runs or will
 * enter the detached trampolines.
 *
 * Context: process context; sleeps.
 * Return: as ftrace_direct_batch_update(); -EINVAL when @cnt is 0.
 */
int ftrace_direct_batch_remove(struct ftrace_direct_batch *batch,
			       const unsigned long *ips, unsigned int cnt)
{
	return ftrace_direct_batch_update(batch, NULL, 0, ips, cnt);
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_remove);

/**
 * ftrace_direct_batch_retarget - send functions to other trampolines
 * @batch: the owner
 * @pairs: functions of @batch and their new trampolines
 * @cnt: number of @pairs
 *
 * Retargets all of @pairs or none.  While it runs, the functions keep
 * calling a trampoline, the old one or the new one; none is skipped.  It
 * takes two code updates whatever @cnt is (see
 * ftrace_direct_batch_apply()).  When it returns, no task
 * runs or will enter the old trampolines, unless @batch was allocated
 * with FTRACE_DIRECT_BATCH_RETARGET_NOSYNC.
 *
 * Context: process context; sleeps.
 * Return: as ftrace_direct_batch_apply() for @set; -EINVAL when @cnt
 * is 0.
 */
int ftrace_direct_batch_retarget(struct ftrace_direct_batch *batch,
				 const struct ftrace_direct_pair *pairs,
				 unsigned int cnt)
{
	return ftrace_direct_batch_apply(batch, NULL, 0, pairs, cnt, NULL, 0);
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_retarget);

/**
 * ftrace_direct_batch_retarget_nolock - retarget from an ipmodify callback
 * @batch: the owner
 * @pairs: functions of @batch and their new trampolines
 * @cnt: number of @pairs
 *
 * ftrace_direct_batch_retarget() for the callback of
 * ftrace_direct_batch_set_ipmodify(), which runs with direct_mutex held.
 *
 * Context: process context, direct_mutex held; sleeps.
 * Return: as ftrace_direct_batch_retarget().
 */
int ftrace_direct_batch_retarget_nolock(struct ftrace_direct_batch *batch,
					const struct ftrace_direct_pair *pairs,
					unsigned int cnt)
{
	return fdb_apply_pairs(batch, NULL, 0, pairs, cnt, NULL, 0);
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_retarget_nolock);

/**
 * ftrace_direct_batch_set_ipmodify - let IPMODIFY users share functions
 * @batch: the owner
 * @fn: called when an IPMODIFY ops (livepatch, a kprobe with a post
 *	handler) is about to share a function of @batch, and again when it
 *	has stopped; NULL refuses them
 *
 * Without @fn, registering an IPMODIFY ops on a function of @batch fails
 * with -EBUSY.  With it, ftrace asks @fn first: 0 lets the ops share the
 * function, which then goes through ftrace_regs_caller, and the batch's
 * trampoline is still called, after the IPMODIFY handler; an error
 * (-EAGAIN when @fn cannot take its locks now) fails the registration.
 * @fn runs in process context with direct_mutex held: it may change the
 * function's trampoline with ftrace_direct_batch_retarget_nolock() only.
 * Its return value is ignored when the ops has stopped.
 *
 * Adding a function that an IPMODIFY ops already has still fails with
 * -EBUSY.
 *
 * Context: process context.
 */
void ftrace_direct_batch_set_ipmodify(struct ftrace_direct_batch *batch,
				      ftrace_direct_batch_ipmodify_t fn)
{
	mutex_lock(&direct_mutex);
	batch->ipmodify = fn;
	mutex_unlock(&direct_mutex);
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_set_ipmodify);

/**
 * ftrace_direct_batch_count - number of functions a batch has attached
 * @batch: the owner
 *
 * Return: the number of functions.
 */
unsigned int ftrace_direct_batch_count(struct ftrace_direct_batch *batch)
{
	struct ftrace_hash *hash;
	unsigned int n;

	mutex_lock(&direct_mutex);
	hash = fdb_hash(batch);
	n = hash ? hash->count : 0;
	mutex_unlock(&direct_mutex);
	return n;
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_count);

/**
 * ftrace_direct_batch_get - the trampoline a function of a batch calls
 * @batch: the owner
 * @ip: the function, by address or ftrace location
 *
 * Return: the trampoline, or 0 when @ip is not a function of @batch.
 */
unsigned long ftrace_direct_batch_get(struct ftrace_direct_batch *batch,
				      unsigned long ip)
{
	unsigned long addr = 0;

	mutex_lock(&direct_mutex);
	if (!fdb_location(&ip) && ftrace_direct_batch_has(batch, ip))
		addr = ftrace_find_rec_direct(ip);
	mutex_unlock(&direct_mutex);
	return addr;
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_get);

/**
 * ftrace_direct_batch_walk - call @fn on every record that ftrace patches
 * @fn: called under ftrace_lock with each record and its index, counted
 *	from 1 as set_ftrace_filter counts indexes (records that ftrace does
 *	not patch included); a non-zero return ends the walk
 * @data: passed to @fn
 *
 * The one walk over the ftrace records of the batch interface and its
 * users: records that ftrace does not patch (disabled) are skipped.
 *
 * Context: process context; sleeps; takes ftrace_lock.
 * Return: -ENODEV when ftrace is dead, else the last value of @fn.
 */
int ftrace_direct_batch_walk(int (*fn)(struct dyn_ftrace *rec,
				       unsigned long index, void *data),
			     void *data)
{
	struct ftrace_rec_iter *iter;
	struct dyn_ftrace *rec;
	unsigned long index = 0;
	int ret = -ENODEV;

	mutex_lock(&ftrace_lock);
	if (unlikely(ftrace_is_dead()))
		goto out;
	ret = 0;
	for_ftrace_rec_iter(iter) {
		rec = ftrace_rec_iter_record(iter);
		index++;
		cond_resched();
		if (rec->flags & FTRACE_FL_DISABLED)
			continue;
		ret = fn(rec, index, data);
		if (ret)
			break;
	}
out:
	mutex_unlock(&ftrace_lock);
	return ret;
}

struct fdb_lookup {
	struct ftrace_glob	func_g;
	struct ftrace_glob	mod_g;
	int			exclude_mod;
	unsigned long		want;
	unsigned long		*ips;
	unsigned int		max;
	unsigned int		n;
};

static int fdb_lookup_rec(struct dyn_ftrace *rec, unsigned long index,
			  void *data)
{
	struct fdb_lookup *lk = data;

	if (lk->func_g.type == MATCH_INDEX ? index != lk->want :
	    !ftrace_match_record(rec, &lk->func_g,
				 lk->mod_g.search ? &lk->mod_g : NULL,
				 lk->exclude_mod))
		return 0;
	if (lk->n < lk->max)
		lk->ips[lk->n] = rec->ip;
	lk->n++;
	return 0;
}

/**
 * ftrace_direct_batch_lookup - find the traceable functions of a filter
 * @filter: what set_ftrace_filter takes in one token: a name, a glob or
 *	an index, optionally followed by ":mod:" and a module name or glob
 *	(":mod:!glob": vmlinux and every module but those; a blank
 *	module: every module; ":mod:!*": vmlinux alone);
 *	":mod:NAME" alone is every function of module NAME, "" every
 *	function.  No "!" before the function: there is nothing to remove
 *	from.
 * @ips: receives up to @max ftrace locations, in the order of
 *	available_filter_functions
 * @max: room in @ips
 *
 * The filter is parsed and matched by ftrace's own code, as
 * set_ftrace_filter parses and matches it.  Records that ftrace does not
 * patch (disabled) are left out, an index that names one included.
 *
 * Context: process context; sleeps.
 * Return: the number of functions that match, which may be more than
 * @max; -EINVAL when the filter matches nothing or does not parse;
 * -ENODEV when ftrace is disabled; -ENOMEM.
 */
int ftrace_direct_batch_lookup(const char *filter, unsigned long *ips,
			       unsigned int max)
{
	struct fdb_lookup lk = { .ips = ips, .max = max };
	int clear, err;
	char *buf;

	buf = kstrdup(*filter ? filter : "*", GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = -EINVAL;
	if (ftrace_filter_parse(buf, &lk.func_g, &lk.mod_g, &clear,
				&lk.exclude_mod) || clear)
		goto out;
	if (lk.func_g.type == MATCH_INDEX)
		lk.want = ftrace_glob_index(&lk.func_g);

	err = ftrace_direct_batch_walk(fdb_lookup_rec, &lk);
	if (!err)
		err = lk.n ? lk.n : -EINVAL;
out:
	kfree(buf);
	return err;
}
EXPORT_SYMBOL_GPL(ftrace_direct_batch_lookup);

/*
 * A module going away takes its trampolines with it: detach every batch
 * function that calls into it, and detach and free a batch that it owns
 * and did not free (a module that frees its batch in its exit function
 * never gets here with work to do).  The module's own functions stay
 * attached until their text is gone: ftrace_direct_batch_text_free()
 * drops them then.  When a partial detach has no memory, the whole batch
 * is detached, which needs none; a batch with no trampoline in the module
 * is not touched.
 */
static int fdb_module_notify(struct notifier_block *nb, unsigned long state,
			     void *data)
{
	struct ftrace_direct_batch *batch, *tmp;
	struct ftrace_func_entry *entry, *new;
	struct ftrace_hash *hash, *req;
	struct module *mod = data;
	unsigned long addr;
	unsigned int i, n;
	int err;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;

	mutex_lock(&direct_mutex);
	list_for_each_entry_safe(batch, tmp, &ftrace_direct_batches, list) {
		hash = fdb_hash(batch);
		if (batch->mod == mod) {
			/*
			 * Its owner is gone without ftrace_direct_batch_free():
			 * nobody else can free the batch.
			 */
			pr_warn("ftrace: module %s unloads without freeing its direct batch %s (%lu functions attached); freeing it\n",
				mod->name, batch->owner, hash ? hash->count : 0);
			/* ftrace is dead: the batch stays, owned by nobody */
			if (!fdb_destroy(batch))
				batch->mod = NULL;
			continue;
		}
		if (!hash)
			continue;
		/* Only a batch with trampolines in the module has work here */
		n = 0;
		for (i = 0; i < BIT(hash->size_bits); i++) {
			hlist_for_each_entry(entry, &hash->buckets[i], hlist)
				n += within_module(ftrace_find_rec_direct(entry->ip),
						   mod);
		}
		if (!n)
			continue;
		req = fdb_alloc_hash(n);
		for (i = 0; req && i < BIT(hash->size_bits); i++) {
			hlist_for_each_entry(entry, &hash->buckets[i], hlist) {
				addr = ftrace_find_rec_direct(entry->ip);
				if (!within_module(addr, mod))
					continue;
				new = add_hash_entry(req, entry->ip);
				if (!new) {
					free_ftrace_hash(req);
					req = NULL;
					break;
				}
				new->direct = addr;
			}
		}
		err = req ? fdb_apply_locked(batch, NULL, NULL, req) : -ENOMEM;
		if (err) {
			pr_warn("ftrace: detaching the trampolines of module %s from %s failed (%d): detaching all of %s\n",
				mod->name, batch->owner, err, batch->owner);
			fdb_detach_all(batch);
		}
		free_ftrace_hash(req);
	}
	mutex_unlock(&direct_mutex);
	return NOTIFY_OK;
}

static bool fdb_in_text(unsigned long ip, struct module *mod,
			unsigned long start, unsigned long end)
{
	if (start < end)
		return ip >= start && ip < end;
	return mod && within_module(ip, mod);
}

/**
 * ftrace_direct_batch_text_begin - ftrace is about to drop records of text
 *
 * Keeps batch updates out from the moment the records go until
 * ftrace_direct_batch_text_free() has dropped the batches' functions in
 * that text: an update in between would hand ftrace functions that it
 * no longer knows.  Takes direct_mutex, before ftrace_lock as everywhere.
 *
 * Context: process context; direct_mutex and ftrace_lock not held.
 */
void ftrace_direct_batch_text_begin(void)
	__acquires(&direct_mutex)
{
	mutex_lock(&direct_mutex);
}

/**
 * ftrace_direct_batch_text_free - functions are gone: forget them
 * @mod: the module whose text goes away, or NULL for the kernel's
 * @start: start of the text freed, or 0 for all of @mod's
 * @end: end of that text (exclusive), or 0
 *
 * Called by the ftrace core once it dropped the records of the text, after
 * ftrace_direct_batch_text_begin(): a module's init text after its init,
 * all of its text when it is freed, the kernel's init text after boot.
 * Functions there leave their batch and direct_functions, so that nothing
 * keyed by their addresses outlives them.  Nothing calls them any more; no
 * memory is needed.  Releases direct_mutex.
 *
 * Context: process context; sleeps (grace periods); ftrace_lock not held.
 */
void ftrace_direct_batch_text_free(struct module *mod, unsigned long start,
				   unsigned long end)
	__releases(&direct_mutex)
{
	struct ftrace_func_entry *entry;
	struct ftrace_direct_batch *batch;
	struct hlist_node *tmp;
	struct ftrace_hash *hash;
	unsigned int i, in, n;

	lockdep_assert_held(&direct_mutex);
	list_for_each_entry(batch, &ftrace_direct_batches, list) {
		hash = fdb_hash(batch);
		if (!hash)
			continue;
		in = 0;
		for (i = 0; i < BIT(hash->size_bits); i++) {
			hlist_for_each_entry(entry, &hash->buckets[i], hlist)
				in += fdb_in_text(entry->ip, mod, start, end);
		}
		if (!in)
			continue;
		/* An empty filter hash would mean every function */
		if (in == hash->count) {
			fdb_detach_all(batch);
			continue;
		}
		n = 0;
		WRITE_ONCE(batch->ops.direct_call, 0);
		mutex_lock(&ftrace_lock);
		for (i = 0; i < BIT(hash->size_bits); i++) {
			hlist_for_each_entry_safe(entry, tmp, &hash->buckets[i],
						  hlist) {
				if (!fdb_in_text(entry->ip, mod, start, end))
					continue;
				fdb_unlink(batch, ftrace_direct_functions(),
					   entry->ip, &n);
				fdb_unlink(batch, hash, entry->ip, &n);
			}
		}
		mutex_unlock(&ftrace_lock);
		fdb_free_parked(batch, n);
		fdb_set_common(batch);
	}
	mutex_unlock(&direct_mutex);
}

static struct notifier_block fdb_module_nb = {
	.notifier_call = fdb_module_notify,
	/*
	 * Before the owners' own notifiers free anything, and after those
	 * that must forget a module's functions before they are detached
	 * under them (trace_function_args_ct.c).
	 */
	.priority = FTRACE_DIRECT_BATCH_MODULE_PRIO,
};

static __init int ftrace_direct_batch_init(void)
{
	return register_module_notifier(&fdb_module_nb);
}
fs_initcall(ftrace_direct_batch_init);
