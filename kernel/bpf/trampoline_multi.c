// SPDX-License-Identifier: GPL-2.0
/*
 * BPF trampolines on the batch direct interface, and the tracing multi link
 *
 * Every function that BPF traces has one struct bpf_trampoline, whatever
 * attaches to it: single fentry/fexit/fmod_ret links and tracing multi
 * links share it, and its one image runs all of their programs.  The
 * images are attached through one ftrace_direct_batch, "bpf" in
 * direct_functions, whose ftrace_ops asks for no pt_regs: a function
 * that BPF shares with the function tracer or function_args stays on the
 * partial-save ftrace_caller.  A trampoline that shares its function with
 * an IPMODIFY user (livepatch) keeps the ftrace_ops of its own that 6.12
 * gives it (trampoline.c), which knows how to share.
 *
 * A tracing multi link attaches one fentry.multi or fexit.multi program
 * to many functions: it adds its program to each function's trampoline,
 * builds each new image, then puts all of them in place with one
 * ftrace_direct_batch_apply(), and takes them away the same way.
 * bpf_tramp_batch_mutex keeps every other trampoline update out meanwhile.
 *
 * See Documentation/trace/bpf-tracing-multi.rst
 */
#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/error-injection.h>
#include <linux/ftrace.h>
#include <linux/ftrace_direct_batch.h>
#include <linux/init_task.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stringhash.h>

#include "trampoline_internal.h"

/* The most functions one tracing multi link attaches to */
#define BPF_TRACING_MULTI_MAX	BIT(17)

static struct ftrace_direct_batch *bpf_tramp_batch;

/**
 * bpf_tramp_batch_register - attach a trampoline's first image
 * @tr: the trampoline, of a function that ftrace manages
 * @addr: its image
 *
 * Context: tr->mutex and bpf_tramp_batch_mutex held.
 * Return: 0, -EAGAIN when the function is left to tr->fops (an IPMODIFY
 * user shares it, or there is no batch), or another error.
 */
int bpf_tramp_batch_register(struct bpf_trampoline *tr, void *addr)
{
	struct ftrace_direct_pair pair = {
		.ip	= (unsigned long)tr->func.addr,
		.addr	= (unsigned long)addr,
	};
	int err;

	lockdep_assert_held(&bpf_tramp_batch_mutex);
	if (!bpf_tramp_batch)
		return -EAGAIN;
	err = ftrace_direct_batch_add(bpf_tramp_batch, &pair, 1);
	if (err == -EBUSY)
		return -EAGAIN;
	if (!err)
		tr->func.direct_batch = true;
	return err;
}

/**
 * bpf_tramp_batch_modify - send a trampoline's function to a new image
 * @tr: a trampoline that bpf_tramp_batch_register() attached
 * @addr: the new image
 * @lock_direct_mutex: false when ftrace holds direct_mutex already (the
 *	IPMODIFY sharing of bpf_tramp_batch_ipmodify())
 *
 * Context: tr->mutex and bpf_tramp_batch_mutex held.
 * Return: 0 or an error; on error the old image stays.
 */
int bpf_tramp_batch_modify(struct bpf_trampoline *tr, void *addr,
			   bool lock_direct_mutex)
{
	struct ftrace_direct_pair pair = {
		.ip	= (unsigned long)tr->func.addr,
		.addr	= (unsigned long)addr,
	};

	lockdep_assert_held(&bpf_tramp_batch_mutex);
	if (!lock_direct_mutex)
		return ftrace_direct_batch_retarget_nolock(bpf_tramp_batch,
							   &pair, 1);
	return ftrace_direct_batch_retarget(bpf_tramp_batch, &pair, 1);
}

/*
 * An IPMODIFY ops (livepatch, a kprobe with a post handler) is about to
 * share @ip with a trampoline of the batch (@share), or has stopped: as
 * with a trampoline's own ftrace_ops in 6.12, the trampoline learns it
 * and, when it calls the function, is rebuilt to call it through the
 * return address that the IPMODIFY handler may have changed.
 *
 * ftrace holds direct_mutex, which comes after tr->mutex and
 * bpf_tramp_batch_mutex: take them only if they are free, as
 * bpf_tramp_ftrace_ops_func() does, else fail with -EAGAIN (a holder may
 * be waiting for direct_mutex: sleeping here would not help it).  The trampolines of the batch stay
 * in it, and alive, while bpf_tramp_batch_mutex is held.
 */
static int bpf_tramp_batch_ipmodify(struct ftrace_direct_batch *batch,
				    unsigned long ip, bool share)
{
	int err;

	if (!mutex_trylock(&bpf_tramp_batch_mutex))
		return -EAGAIN;
	err = bpf_trampoline_share_ipmodify(ip, share);
	mutex_unlock(&bpf_tramp_batch_mutex);
	return err;
}

/*
 * Drop from @items, each @size bytes and starting with a function's
 * address, the functions that the batch no longer has: the freeing of
 * their text took them, and no task enters a trampoline from text that
 * is gone.  Returns the number kept.
 */
static unsigned int bpf_tramp_batch_keep(void *items, size_t size,
					 unsigned int nr)
{
	unsigned int i, n = 0;
	void *item;

	BUILD_BUG_ON(offsetof(struct ftrace_direct_pair, ip));
	for (i = 0; i < nr; i++) {
		item = items + i * size;
		if (!ftrace_direct_batch_get(bpf_tramp_batch,
					     *(unsigned long *)item))
			continue;
		if (n != i)
			memcpy(items + n * size, item, size);
		n++;
	}
	return n;
}

/*
 * The multi links' batch updates.  A function of its own, with an fentry
 * call, so that error injection (fail_function, bpf_override_return())
 * can fail it for the tests of their attach and detach paths, which live
 * with any error (ftrace_direct_batch_apply() has no fentry call: a
 * kprobe there is an int3, whose handler runs as an NMI).
 */
static noinline __noclone int
bpf_tramp_batch_apply(const struct ftrace_direct_pair *add, unsigned int nr_add,
		      const struct ftrace_direct_pair *set, unsigned int nr_set,
		      const unsigned long *del, unsigned int nr_del)
{
	return ftrace_direct_batch_apply(bpf_tramp_batch, add, nr_add, set,
					 nr_set, del, nr_del);
}
ALLOW_ERROR_INJECTION(bpf_tramp_batch_apply, ERRNO);

/*
 * A multi link's detach: the program and images that the trampolines run
 * are freed next.  A batch update fails for want of memory, so wait for
 * some, or because a function's text is gone (an __init function of a
 * module, freed after the link took it): detach the others.  Any other
 * error is no detach's: false, and nothing of what is left changed, so
 * that the caller keeps what the call sites still enter.
 */
static bool bpf_tramp_batch_apply_nofail(struct ftrace_direct_pair *set,
					 unsigned int nr_set,
					 unsigned long *del,
					 unsigned int nr_del)
{
	unsigned int nr;
	int err;

	while (nr_set || nr_del) {
		err = bpf_tramp_batch_apply(NULL, 0, set, nr_set, del, nr_del);
		if (!err)
			return true;
		if (err == -ENOMEM) {
			msleep(20);
			continue;
		}
		nr = nr_set + nr_del;
		nr_set = bpf_tramp_batch_keep(set, sizeof(*set), nr_set);
		nr_del = bpf_tramp_batch_keep(del, sizeof(*del), nr_del);
		if (nr_set + nr_del == nr) {
			pr_err("bpf: detaching %u trampolines failed (%d)\n",
			       nr, err);
			return false;
		}
	}
	return true;
}

/**
 * bpf_tramp_batch_unregister - detach a trampoline's image
 * @tr: a trampoline that bpf_tramp_batch_register() attached
 *
 * Does not fail.
 *
 * Context: tr->mutex and bpf_tramp_batch_mutex held.
 */
void bpf_tramp_batch_unregister(struct bpf_trampoline *tr)
{
	unsigned long ip = (unsigned long)tr->func.addr;
	int err;

	lockdep_assert_held(&bpf_tramp_batch_mutex);
	/*
	 * Not through bpf_tramp_batch_apply(): the caller puts the image
	 * whatever happens, as 6.12 does after unregister_ftrace_direct().
	 */
	for (;;) {
		err = ftrace_direct_batch_apply(bpf_tramp_batch, NULL, 0, NULL,
						0, &ip, 1);
		if (err != -ENOMEM)
			break;
		msleep(20);
	}
	/* Only a function whose text went away may fail it */
	WARN_ONCE(err && ftrace_direct_batch_get(bpf_tramp_batch, ip),
		  "bpf: detaching the trampoline of %ps failed (%d)\n",
		  (void *)ip, err);
	tr->func.direct_batch = false;
}

/*
 * One function of a multi link: the link's place in the function's
 * trampoline, and the image that an update puts in place.
 */
struct bpf_tracing_multi_node {
	struct bpf_tramp_link	tlink;
	struct bpf_trampoline	*tr;
	struct bpf_tramp_image	*im;
	u32			flags;
	u32			id;
	u64			key;
	/* the function's ftrace location */
	unsigned long		ip;
};

/*
 * The pairs for ftrace_direct_batch_apply(): functions that get their
 * first image in @add, those that change image in @set, those that lose
 * their last in @del.
 */
struct bpf_tracing_multi_req {
	struct ftrace_direct_pair	*add, *set;
	unsigned long			*del;
	unsigned int			nr_add, nr_set, nr_del;
};

struct bpf_tracing_multi_link {
	struct bpf_link			link;
	u32				cnt;
	struct bpf_tracing_multi_node	*nodes;
	/* allocated with the link, so that detaching needs no memory for it */
	struct bpf_tracing_multi_req	req;
	/* what the functions are in: held while the link lives */
	struct btf			**btfs;
	struct module			**mods;
	u32				nr_btfs;
	u32				nr_mods;
	/* on bpf_tracing_multi_kept when its detach failed */
	struct list_head		kept;
};

/*
 * bpf_session_is_return() and bpf_session_cookie() of an fsession
 * program: specialize_kfunc() points its calls here.  The trampoline
 * sets both fields of its run context around each run of the program.
 */
bool bpf_fsession_is_return(void)
{
	struct bpf_tramp_run_ctx *run_ctx =
		container_of(current->bpf_ctx, struct bpf_tramp_run_ctx, run_ctx);

	return run_ctx->session_is_return;
}

u64 *bpf_fsession_cookie(void)
{
	struct bpf_tramp_run_ctx *run_ctx =
		container_of(current->bpf_ctx, struct bpf_tramp_run_ctx, run_ctx);

	return run_ctx->session_cookie;
}

/* After an update: @node's image is its trampoline's, in place or none */
static void bpf_tracing_multi_in_place(struct bpf_tracing_multi_node *node)
{
	struct bpf_trampoline *tr = node->tr;

	if (tr->cur_image)
		bpf_tramp_image_put(tr->cur_image);
	tr->cur_image = node->im;
	tr->func.ftrace_managed = true;
	tr->func.direct_batch = !!node->im;
}

/* The images of the nodes in place, or (@err) thrown away */
static void bpf_tracing_multi_finish(struct bpf_tracing_multi_link *ml,
				     u32 cnt, int err)
{
	enum bpf_tramp_prog_type kind = bpf_attach_type_to_tramp(ml->link.prog);
	struct bpf_tracing_multi_node *node;
	struct bpf_trampoline *tr;
	u32 i;

	for (i = 0; i < cnt; i++) {
		node = &ml->nodes[i];
		tr = node->tr;
		mutex_lock(&tr->mutex);
		if (err) {
			hlist_del_init(&node->tlink.tramp_hlist);
			tr->progs_cnt[kind]--;
			tr->flags = node->flags;
			if (node->im)
				bpf_tramp_image_free(node->im);
		} else {
			bpf_tracing_multi_in_place(node);
		}
		node->im = NULL;
		mutex_unlock(&tr->mutex);
		cond_resched();
	}
}

/* Add the link's program to one trampoline and build its next image */
static int bpf_tracing_multi_link_one(struct bpf_tracing_multi_link *ml,
				      struct bpf_tracing_multi_node *node)
{
	enum bpf_tramp_prog_type kind = bpf_attach_type_to_tramp(ml->link.prog);
	struct bpf_trampoline *tr = node->tr;
	int err;

	lockdep_assert_held(&tr->mutex);
	if (tr->extension_prog)
		return -EBUSY;
	/* Its own ftrace_ops: it shares the function with livepatch */
	if (tr->cur_image && !tr->func.direct_batch)
		return -EBUSY;
	err = bpf_trampoline_link_check(tr, &node->tlink, kind);
	if (err)
		return err;

	hlist_add_head(&node->tlink.tramp_hlist, &tr->progs_hlist[kind]);
	tr->progs_cnt[kind]++;
	node->flags = tr->flags;
	err = bpf_trampoline_build(tr, &node->im);
	if (err) {
		hlist_del_init(&node->tlink.tramp_hlist);
		tr->progs_cnt[kind]--;
		tr->flags = node->flags;
	}
	return err;
}

/*
 * What detaching needs, allocated with the link: the pairs to retarget
 * and the functions to detach.  Attaching allocates @add for its time.
 */
static int bpf_tracing_multi_req_alloc(struct bpf_tracing_multi_req *req,
				       u32 cnt)
{
	req->set = kvmalloc_array(cnt, sizeof(*req->set), GFP_KERNEL_ACCOUNT);
	req->del = kvmalloc_array(cnt, sizeof(*req->del), GFP_KERNEL_ACCOUNT);
	return req->set && req->del ? 0 : -ENOMEM;
}

static void bpf_tracing_multi_req_fill(struct bpf_tracing_multi_req *req,
				       struct bpf_tracing_multi_link *ml)
{
	struct bpf_tracing_multi_node *node;
	struct ftrace_direct_pair *pair;
	u32 i;

	req->nr_add = 0;
	req->nr_set = 0;
	req->nr_del = 0;
	for (i = 0; i < ml->cnt; i++) {
		node = &ml->nodes[i];
		if (!node->im) {
			req->del[req->nr_del++] = node->ip;
			continue;
		}
		if (node->tr->cur_image) {
			pair = &req->set[req->nr_set++];
		} else if (!WARN_ON_ONCE(!req->add)) {
			pair = &req->add[req->nr_add++];
		} else {
			/* Only attaching adds: never put it in place */
			bpf_tramp_image_free(node->im);
			node->im = NULL;
			continue;
		}
		pair->ip = node->ip;
		pair->addr = (unsigned long)node->im->image;
	}
}

static void bpf_tracing_multi_req_free(struct bpf_tracing_multi_req *req)
{
	kvfree(req->add);
	kvfree(req->set);
	kvfree(req->del);
	memset(req, 0, sizeof(*req));
}

static int bpf_tracing_multi_attach(struct bpf_tracing_multi_link *ml)
{
	struct bpf_tracing_multi_req *req = &ml->req;
	struct bpf_tracing_multi_node *node;
	u32 i;
	int err;

	req->add = kvmalloc_array(ml->cnt, sizeof(*req->add), GFP_KERNEL);
	if (!req->add)
		return -ENOMEM;

	mutex_lock(&bpf_tramp_batch_mutex);
	for (i = 0; i < ml->cnt; i++) {
		node = &ml->nodes[i];
		mutex_lock(&node->tr->mutex);
		err = bpf_tracing_multi_link_one(ml, node);
		mutex_unlock(&node->tr->mutex);
		if (err) {
			bpf_tracing_multi_finish(ml, i, err);
			goto out;
		}
		cond_resched();
	}
	bpf_tracing_multi_req_fill(req, ml);
	err = bpf_tramp_batch_apply(req->add, req->nr_add, req->set,
				    req->nr_set, NULL, 0);
	bpf_tracing_multi_finish(ml, ml->cnt, err);
out:
	mutex_unlock(&bpf_tramp_batch_mutex);
	kvfree(req->add);
	req->add = NULL;
	return err;
}

/*
 * Build @node's trampoline image without the link's program, for a
 * detach, which must not fail: wait for memory, and do not hold the image
 * to bpf_jit_limit, which a task without CAP_BPF meets (the link's last
 * close may come from any task): it replaces a larger image.  Should the
 * build fail otherwise, the function is detached and its other programs
 * stop, rather than run the program that is freed next.
 */
static void bpf_tracing_multi_rebuild(struct bpf_tracing_multi_node *node)
{
	struct bpf_trampoline *tr = node->tr;
	const struct cred *cred;
	int err;

	for (;;) {
		err = bpf_trampoline_build(tr, &node->im);
		if (err == -EPERM) {
			tr->flags = node->flags;
			cred = override_creds(&init_cred);
			err = bpf_trampoline_build(tr, &node->im);
			revert_creds(cred);
		}
		if (!err)
			return;
		tr->flags = node->flags;
		if (WARN_ONCE(err != -ENOMEM,
			      "bpf: no trampoline image for %ps without a detached program (%d)\n",
			      tr->func.addr, err))
			return;
		msleep(20);
	}
}

/* Tracing multi links kept by bpf_tracing_multi_keep(), for good */
static LIST_HEAD(bpf_tracing_multi_kept);

/*
 * The update that takes the link's program out failed, for none of the
 * reasons a detach expects, and changed nothing: the call sites still
 * enter the images in place, which run the program.  Rather than free
 * what a task may be running, the link stays attached for good.  Its
 * program goes back on each trampoline, with the flags of the image in
 * place, so that every later update of those trampolines (an attach, an
 * IPMODIFY peer) sees them as they are; the link keeps what it holds (the
 * trampolines, modules and BTF, its nodes) and a reference to the
 * program, and joins a list, where kmemleak sees it.  Only the images
 * that were to replace the ones in place go: no call site was sent to
 * them.  A function whose text went away meanwhile, which the update left
 * out, is done with as a detach does it.
 */
static void bpf_tracing_multi_keep(struct bpf_tracing_multi_link *ml)
{
	enum bpf_tramp_prog_type kind = bpf_attach_type_to_tramp(ml->link.prog);
	struct bpf_prog_aux *aux = ml->link.prog->aux;
	struct bpf_tracing_multi_node *node;
	struct bpf_trampoline *tr;
	u32 i;

	lockdep_assert_held(&bpf_tramp_batch_mutex);
	for (i = 0; i < ml->cnt; i++) {
		node = &ml->nodes[i];
		tr = node->tr;
		mutex_lock(&tr->mutex);
		if (!ftrace_direct_batch_get(bpf_tramp_batch, node->ip)) {
			bpf_tracing_multi_in_place(node);
		} else {
			if (node->im)
				bpf_tramp_image_free(node->im);
			hlist_add_head(&node->tlink.tramp_hlist,
				       &tr->progs_hlist[kind]);
			tr->progs_cnt[kind]++;
			tr->flags = node->flags;
		}
		node->im = NULL;
		mutex_unlock(&tr->mutex);
	}
	bpf_prog_inc(ml->link.prog);
	bpf_tracing_multi_req_free(&ml->req);
	list_add(&ml->kept, &bpf_tracing_multi_kept);
	pr_err("bpf: program %s (id %u) stays on the %u functions of its closed tracing multi link\n",
	       aux->name, aux->id, ml->cnt);
}

/*
 * Take the link's program out of every trampoline: one batch update
 * detaches the functions that have no other program and retargets the
 * others to images without it.  Needs no memory of its own: the pairs'
 * arrays came with the link, and it waits for memory to build an image,
 * as bpf_tramp_batch_apply_nofail() does for the update.  An update that
 * fails all the same keeps the link (bpf_tracing_multi_keep()).
 */
static void bpf_tracing_multi_detach(struct bpf_tracing_multi_link *ml)
{
	enum bpf_tramp_prog_type kind = bpf_attach_type_to_tramp(ml->link.prog);
	struct bpf_tracing_multi_req *req = &ml->req;
	struct bpf_tracing_multi_node *node;
	struct bpf_trampoline *tr;
	u32 i;

	mutex_lock(&bpf_tramp_batch_mutex);
	for (i = 0; i < ml->cnt; i++) {
		node = &ml->nodes[i];
		tr = node->tr;
		mutex_lock(&tr->mutex);
		hlist_del_init(&node->tlink.tramp_hlist);
		tr->progs_cnt[kind]--;
		node->flags = tr->flags;
		bpf_tracing_multi_rebuild(node);
		mutex_unlock(&tr->mutex);
		cond_resched();
	}
	bpf_tracing_multi_req_fill(req, ml);
	if (bpf_tramp_batch_apply_nofail(req->set, req->nr_set, req->del,
					 req->nr_del))
		bpf_tracing_multi_finish(ml, ml->cnt, 0);
	else
		bpf_tracing_multi_keep(ml);
	mutex_unlock(&bpf_tramp_batch_mutex);
}

static void bpf_tracing_multi_put(struct bpf_tracing_multi_link *ml)
{
	u32 i;

	for (i = 0; ml->nodes && i < ml->cnt; i++)
		bpf_trampoline_put(ml->nodes[i].tr);
	for (i = 0; i < ml->nr_mods; i++)
		module_put(ml->mods[i]);
	for (i = 0; i < ml->nr_btfs; i++)
		btf_put(ml->btfs[i]);
	ml->nr_mods = 0;
	ml->nr_btfs = 0;
}

static void bpf_tracing_multi_link_release(struct bpf_link *link)
{
	struct bpf_tracing_multi_link *ml =
		container_of(link, struct bpf_tracing_multi_link, link);

	bpf_tracing_multi_detach(ml);
	if (list_empty(&ml->kept))
		bpf_tracing_multi_put(ml);
}

static void bpf_tracing_multi_free(struct bpf_tracing_multi_link *ml)
{
	bpf_tracing_multi_req_free(&ml->req);
	kvfree(ml->nodes);
	kfree(ml->btfs);
	kfree(ml->mods);
	kfree(ml);
}

static void bpf_tracing_multi_link_dealloc(struct bpf_link *link)
{
	struct bpf_tracing_multi_link *ml =
		container_of(link, struct bpf_tracing_multi_link, link);

	/* Kept: its nodes are on the trampolines for good */
	if (list_empty(&ml->kept))
		bpf_tracing_multi_free(ml);
}

static void bpf_tracing_multi_link_show_fdinfo(const struct bpf_link *link,
					       struct seq_file *seq)
{
	struct bpf_tracing_multi_link *ml =
		container_of(link, struct bpf_tracing_multi_link, link);
	bool show = kallsyms_show_value(current_cred());
	u32 i, obj_id, btf_id, images = 0;
	struct bpf_trampoline *tr;
	unsigned long addr;
	u64 bytes = 0;

	/* One image a function, with every program that the function has */
	for (i = 0; i < ml->cnt; i++) {
		tr = ml->nodes[i].tr;
		mutex_lock(&tr->mutex);
		if (tr->cur_image) {
			images++;
			bytes += tr->cur_image->size;
		}
		mutex_unlock(&tr->mutex);
		cond_resched();
	}
	seq_printf(seq, "attach_type:\t%d\nfunc_cnt:\t%u\n",
		   link->prog->expected_attach_type, ml->cnt);
	seq_printf(seq, "images:\t%u\nimage_bytes:\t%llu\n", images, bytes);
	seq_puts(seq, "obj_id\tbtf_id\taddr\tcookie\tfunc\n");
	for (i = 0; i < ml->cnt; i++) {
		addr = (unsigned long)ml->nodes[i].tr->func.addr;
		bpf_trampoline_unpack_key(ml->nodes[i].key, &obj_id, &btf_id);
		seq_printf(seq, "%u\t%u\t0x%lx\t%llu\t%ps\n", obj_id, btf_id,
			   show ? addr : 0, ml->nodes[i].tlink.cookie,
			   (void *)addr);
	}
}

static int bpf_tracing_multi_link_fill_link_info(const struct bpf_link *link,
						 struct bpf_link_info *info)
{
	struct bpf_tracing_multi_link *ml =
		container_of(link, struct bpf_tracing_multi_link, link);
	u64 __user *ucookies = u64_to_user_ptr(info->tracing_multi.cookies);
	u64 __user *uaddrs = u64_to_user_ptr(info->tracing_multi.addrs);
	u32 __user *uids = u64_to_user_ptr(info->tracing_multi.ids);
	bool show = kallsyms_show_value(current_cred());
	u32 ucount = info->tracing_multi.count;
	u32 i, obj_id, btf_id;
	int err = 0;

	if ((uids || uaddrs || ucookies) && !ucount)
		return -EINVAL;
	info->tracing_multi.count = ml->cnt;
	info->tracing_multi.attach_type = link->prog->expected_attach_type;
	if (!ucount)
		return 0;
	if (ucount < ml->cnt)
		err = -ENOSPC;
	else
		ucount = ml->cnt;

	for (i = 0; i < ucount; i++) {
		bpf_trampoline_unpack_key(ml->nodes[i].key, &obj_id, &btf_id);
		if (uids && put_user(btf_id, uids + i))
			return -EFAULT;
		if (uaddrs &&
		    put_user(show ? (u64)(unsigned long)ml->nodes[i].tr->func.addr : 0,
			     uaddrs + i))
			return -EFAULT;
		if (ucookies && put_user(ml->nodes[i].tlink.cookie, ucookies + i))
			return -EFAULT;
	}
	return err;
}

static const struct bpf_link_ops bpf_tracing_multi_link_lops = {
	.release	= bpf_tracing_multi_link_release,
	.dealloc	= bpf_tracing_multi_link_dealloc,
	.show_fdinfo	= bpf_tracing_multi_link_show_fdinfo,
	.fill_link_info	= bpf_tracing_multi_link_fill_link_info,
};

/* Hold @btf for the link: once, whatever number of its functions */
static int bpf_tracing_multi_hold_btf(struct bpf_tracing_multi_link *ml,
				      struct btf *btf, u32 max)
{
	struct module *mod;
	u32 i;

	for (i = 0; i < ml->nr_btfs; i++) {
		if (ml->btfs[i] == btf) {
			btf_put(btf);
			return 0;
		}
	}
	if (ml->nr_btfs >= max) {
		btf_put(btf);
		return -E2BIG;
	}
	ml->btfs[ml->nr_btfs++] = btf;
	if (!btf_is_module(btf))
		return 0;
	/* The module stays while the link lives, as for single fentry */
	mod = btf_try_get_module(btf);
	if (!mod)
		return -ENODEV;
	ml->mods[ml->nr_mods++] = mod;
	return 0;
}

/*
 * The BTF that function @i is in: vmlinux, or the module BTF object that
 * btf_fds[i] gives.  Returns a reference.
 */
static struct btf *bpf_tracing_multi_btf(const u32 *btf_fds, u32 i)
{
	struct btf *btf;

	if (!btf_fds || !btf_fds[i]) {
		btf = bpf_get_btf_vmlinux();
		if (IS_ERR_OR_NULL(btf))
			return btf ?: ERR_PTR(-EINVAL);
		btf_get(btf);
		return btf;
	}
	btf = btf_get_by_fd(btf_fds[i]);
	if (IS_ERR(btf))
		return btf;
	if (!btf_is_kernel(btf)) {
		btf_put(btf);
		return ERR_PTR(-EINVAL);
	}
	return btf;
}

static struct module *bpf_tracing_multi_mod(struct bpf_tracing_multi_link *ml,
					    struct btf *btf)
{
	u32 i, m = 0;

	for (i = 0; i < ml->nr_btfs; i++) {
		if (!btf_is_module(ml->btfs[i]))
			continue;
		if (ml->btfs[i] == btf)
			return ml->mods[m];
		m++;
	}
	return NULL;
}

/*
 * Resolve function @i to its trampoline: a FUNC of @btf that ftrace can
 * trace and a fentry could attach to.
 */
static int bpf_tracing_multi_resolve(struct bpf_tracing_multi_link *ml,
				     struct bpf_tracing_multi_node *node,
				     struct btf *btf, u32 id,
				     unsigned long addr)
{
	struct bpf_attach_target_info tgt = {};
	const struct btf_type *t;
	struct module *mod;
	const char *name;
	int err;

	t = btf_type_by_id(btf, id);
	if (!t || !btf_type_is_func(t))
		return -EINVAL;
	name = btf_name_by_offset(btf, t->name_off);
	t = btf_type_by_id(btf, t->type);
	if (!name || !t || !btf_type_is_func_proto(t))
		return -EINVAL;
	err = bpf_tracing_multi_check_id(ml->link.prog, btf, id);
	if (err)
		return err;
	err = btf_distill_func_proto(NULL, btf, t, name, &tgt.fmodel);
	if (err < 0)
		return err;
	if (tgt.fmodel.ret_size > 8 &&
	    ml->link.prog->expected_attach_type != BPF_TRACE_FENTRY_MULTI)
		return -EOPNOTSUPP;

	mod = bpf_tracing_multi_mod(ml, btf);
	if (!addr)
		addr = mod ? find_kallsyms_symbol_value(mod, name) :
			     kallsyms_lookup_name(name);
	if (!addr)
		return -ENOENT;
	/* Its text goes before the module does, and the link with it */
	if (mod && within_module_init(addr, mod))
		return -ENODEV;
	node->ip = ftrace_location(addr);
	if (!node->ip)
		return -ENODEV;
	err = bpf_tracing_multi_check_sleepable(ml->link.prog, btf, id, addr);
	if (err)
		return err;
	tgt.tgt_addr = addr;

	node->id = id;
	node->key = bpf_trampoline_compute_key(NULL, btf, id);
	node->tr = bpf_trampoline_get(node->key, &tgt);
	return node->tr ? 0 : -ENOMEM;
}

/* notrace: a link on many functions must not slow the next one's sort */
static notrace int bpf_tracing_multi_cmp_key(const void *a, const void *b)
{
	u64 ka = *(const u64 *)a, kb = *(const u64 *)b;

	return ka < kb ? -1 : ka > kb;
}

/* The same function twice in one link is an error, as in kprobe_multi */
static int bpf_tracing_multi_check_dups(struct bpf_tracing_multi_link *ml)
{
	u64 *keys;
	u32 i;
	int err = 0;

	keys = kvmalloc_array(ml->cnt, sizeof(*keys), GFP_KERNEL);
	if (!keys)
		return -ENOMEM;
	for (i = 0; i < ml->cnt; i++)
		keys[i] = ml->nodes[i].key;
	sort(keys, ml->cnt, sizeof(*keys), bpf_tracing_multi_cmp_key, NULL);
	for (i = 1; i < ml->cnt && !err; i++) {
		if (keys[i] == keys[i - 1])
			err = -EINVAL;
	}
	kvfree(keys);
	return err;
}

/*
 * From this many functions of vmlinux on, one pass over vmlinux's symbols
 * finds their addresses faster than a kallsyms_lookup_name() each: a
 * lookup costs some 18k instructions (16 probes of the sorted names, each
 * expanding a symbol), the pass some 300 a symbol, and vmlinux has tens
 * of thousands of symbols.
 */
#define BPF_TRACING_MULTI_BULK		1024
/* A name that kallsyms has twice: kallsyms_lookup_name() decides */
#define BPF_TRACING_MULTI_AMBIGUOUS	ULONG_MAX

struct bpf_tracing_multi_names {
	/* open addressing: an index into @names and @addrs, or U32_MAX */
	u32		*slots;
	u32		mask;
	const char	**names;
	unsigned long	*addrs;
};

static u32 *bpf_tracing_multi_slot(struct bpf_tracing_multi_names *tab,
				   const char *name)
{
	u32 h = full_name_hash(NULL, name, strlen(name)) & tab->mask;

	while (tab->slots[h] != U32_MAX && strcmp(tab->names[tab->slots[h]], name))
		h = (h + 1) & tab->mask;
	return &tab->slots[h];
}

static notrace int bpf_tracing_multi_sym(void *data, const char *name,
					 unsigned long addr)
{
	struct bpf_tracing_multi_names *tab = data;
	u32 *slot = bpf_tracing_multi_slot(tab, name);

	if (*slot == U32_MAX)
		return 0;
	tab->addrs[*slot] = tab->addrs[*slot] ? BPF_TRACING_MULTI_AMBIGUOUS : addr;
	return 0;
}

/*
 * The addresses of the functions of vmlinux among @ids, in @addrs, when
 * there are BPF_TRACING_MULTI_BULK of them or more; 0 for the rest, which
 * bpf_tracing_multi_resolve() looks up one by one.  Without memory for
 * the table, all of them are.
 */
static void bpf_tracing_multi_bulk(const u32 *ids, const u32 *btf_fds,
				   u32 cnt, unsigned long *addrs)
{
	struct bpf_tracing_multi_names tab = { .addrs = addrs };
	const struct btf_type *t;
	struct btf *btf;
	u32 i, n = 0, *slot;

	for (i = 0; i < cnt; i++)
		n += !btf_fds || !btf_fds[i];
	btf = bpf_get_btf_vmlinux();
	if (n < BPF_TRACING_MULTI_BULK || IS_ERR_OR_NULL(btf))
		return;
	tab.mask = roundup_pow_of_two(2 * n) - 1;
	tab.slots = kvmalloc_array(tab.mask + 1, sizeof(*tab.slots), GFP_KERNEL);
	tab.names = kvcalloc(cnt, sizeof(*tab.names), GFP_KERNEL);
	if (!tab.slots || !tab.names)
		goto out;
	memset(tab.slots, 0xff, (tab.mask + 1) * sizeof(*tab.slots));
	for (i = 0; i < cnt; i++) {
		if (btf_fds && btf_fds[i])
			continue;
		t = btf_type_by_id(btf, ids[i]);
		if (!t || !btf_type_is_func(t))
			continue;
		tab.names[i] = btf_name_by_offset(btf, t->name_off);
		if (!tab.names[i])
			continue;
		/* an id given twice: the first one is looked up here */
		slot = bpf_tracing_multi_slot(&tab, tab.names[i]);
		if (*slot == U32_MAX)
			*slot = i;
	}
	kallsyms_on_each_symbol(bpf_tracing_multi_sym, &tab);
	for (i = 0; i < cnt; i++) {
		if (addrs[i] == BPF_TRACING_MULTI_AMBIGUOUS)
			addrs[i] = 0;
	}
out:
	kvfree(tab.slots);
	kvfree(tab.names);
}

static int bpf_tracing_multi_init(struct bpf_tracing_multi_link *ml,
				  const union bpf_attr *attr)
{
	u64 __user *ucookies = u64_to_user_ptr(attr->link_create.tracing_multi.cookies);
	u32 __user *ubtf_fds = u64_to_user_ptr(attr->link_create.tracing_multi.btf_fds);
	u32 __user *uids = u64_to_user_ptr(attr->link_create.tracing_multi.ids);
	struct bpf_tracing_multi_node *node;
	u32 *ids, *btf_fds = NULL;
	unsigned long *addrs;
	u64 *cookies = NULL;
	struct btf *btf;
	u32 i, cnt = ml->cnt;
	int err = -ENOMEM;

	ids = kvmalloc_array(cnt, sizeof(*ids), GFP_KERNEL);
	addrs = kvcalloc(cnt, sizeof(*addrs), GFP_KERNEL);
	if (ubtf_fds)
		btf_fds = kvmalloc_array(cnt, sizeof(*btf_fds), GFP_KERNEL);
	if (ucookies)
		cookies = kvmalloc_array(cnt, sizeof(*cookies), GFP_KERNEL);
	ml->nodes = kvcalloc(cnt, sizeof(*ml->nodes), GFP_KERNEL);
	ml->btfs = kcalloc(min(cnt, 64U), sizeof(*ml->btfs), GFP_KERNEL);
	ml->mods = kcalloc(min(cnt, 64U), sizeof(*ml->mods), GFP_KERNEL);
	if (!ids || !addrs || (ubtf_fds && !btf_fds) || (ucookies && !cookies) ||
	    !ml->nodes || !ml->btfs || !ml->mods ||
	    bpf_tracing_multi_req_alloc(&ml->req, cnt))
		goto out;
	err = -EFAULT;
	if (copy_from_user(ids, uids, cnt * sizeof(*ids)) ||
	    (btf_fds && copy_from_user(btf_fds, ubtf_fds, cnt * sizeof(*btf_fds))) ||
	    (cookies && copy_from_user(cookies, ucookies, cnt * sizeof(*cookies))))
		goto out;

	bpf_tracing_multi_bulk(ids, btf_fds, cnt, addrs);
	for (i = 0; i < cnt; i++) {
		node = &ml->nodes[i];
		node->tlink.link.prog = ml->link.prog;
		node->tlink.cookie = cookies ? cookies[i] : 0;
		INIT_HLIST_NODE(&node->tlink.tramp_hlist);
		btf = bpf_tracing_multi_btf(btf_fds, i);
		err = PTR_ERR_OR_ZERO(btf);
		if (!err)
			err = bpf_tracing_multi_hold_btf(ml, btf, min(cnt, 64U));
		if (!err)
			err = bpf_tracing_multi_resolve(ml, node, btf, ids[i],
							addrs[i]);
		if (err)
			goto out;
	}
	err = bpf_tracing_multi_check_dups(ml);
out:
	kvfree(ids);
	kvfree(addrs);
	kvfree(btf_fds);
	kvfree(cookies);
	return err;
}

/**
 * bpf_tracing_multi_link_attach - BPF_LINK_CREATE of a tracing multi link
 * @attr: link_create.tracing_multi gives the functions
 * @prog: a BPF_TRACE_FENTRY_MULTI, BPF_TRACE_FEXIT_MULTI or
 *	  BPF_TRACE_FSESSION_MULTI program
 *
 * Attaches @prog to every function, or to none.
 *
 * Return: the link's fd, or -EINVAL (a bad id, flags or target_fd, a
 * function twice, a function that BPF must not trace), -E2BIG (cnt over
 * 131072, more than 64 module BTFs, or a function whose trampoline runs
 * the most programs it can), -ENOENT (no address), -ENODEV (notrace, or
 * a module going away), -EBUSY (another direct owner, an IPMODIFY user,
 * the program already on a function), -EOPNOTSUPP (a return value of
 * more than 8 bytes, but for fentry; no batch), -ENOMEM, -EFAULT.
 */
int bpf_tracing_multi_link_attach(const union bpf_attr *attr,
				  struct bpf_prog *prog)
{
	struct bpf_link_primer link_primer;
	struct bpf_tracing_multi_link *ml;
	u32 cnt = attr->link_create.tracing_multi.cnt;
	size_t from = offsetofend(union bpf_attr, link_create.tracing_multi);
	size_t to = offsetofend(union bpf_attr, link_create.uprobe_multi.pid);
	int err;

	if (!bpf_tramp_batch)
		return -EOPNOTSUPP;
	if (attr->link_create.flags || attr->link_create.target_fd ||
	    attr->link_create.tracing_multi.flags)
		return -EINVAL;
	/* CHECK_ATTR() looks past the union's largest member only */
	if (memchr_inv((const void *)attr + from, 0, to - from))
		return -EINVAL;
	if (!cnt || !attr->link_create.tracing_multi.ids)
		return -EINVAL;
	if (cnt > BPF_TRACING_MULTI_MAX)
		return -E2BIG;

	ml = kzalloc(sizeof(*ml), GFP_KERNEL);
	if (!ml)
		return -ENOMEM;
	bpf_link_init(&ml->link, BPF_LINK_TYPE_TRACING_MULTI,
		      &bpf_tracing_multi_link_lops, prog);
	ml->cnt = cnt;
	INIT_LIST_HEAD(&ml->kept);

	err = bpf_tracing_multi_init(ml, attr);
	if (err)
		goto fail;
	err = bpf_link_prime(&ml->link, &link_primer);
	if (err)
		goto fail;
	err = bpf_tracing_multi_attach(ml);
	if (err) {
		bpf_tracing_multi_put(ml);
		bpf_link_cleanup(&link_primer);
		return err;
	}
	return bpf_link_settle(&link_primer);
fail:
	bpf_tracing_multi_put(ml);
	bpf_tracing_multi_free(ml);
	return err;
}

static int __init bpf_tramp_batch_init(void)
{
	struct ftrace_direct_batch *batch;

	batch = __ftrace_direct_batch_alloc("bpf", NULL,
					    FTRACE_DIRECT_BATCH_RETARGET_NOSYNC);
	if (IS_ERR(batch)) {
		pr_warn("bpf: no direct batch (%ld): trampolines use their own ftrace_ops\n",
			PTR_ERR(batch));
		return 0;
	}
	ftrace_direct_batch_set_ipmodify(batch, bpf_tramp_batch_ipmodify);
	bpf_tramp_batch = batch;
	return 0;
}
late_initcall(bpf_tramp_batch_init);
