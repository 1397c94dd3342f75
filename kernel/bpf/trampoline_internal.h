/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What trampoline.c and trampoline_multi.c share: building an image apart
 * from putting it in place, and the batch direct interface under the
 * trampolines.  Not for other users.
 */
#ifndef _BPF_TRAMPOLINE_INTERNAL_H
#define _BPF_TRAMPOLINE_INTERNAL_H

#include <linux/bpf.h>
#include <linux/mutex.h>

/*
 * Held around every update of a trampoline, before tr->mutex, so that a
 * tracing multi link can build the images of many trampolines and then
 * put them in place at once.
 */
extern struct mutex bpf_tramp_batch_mutex;

/*
 * The places that a trampoline's programs take of BPF_MAX_TRAMP_LINKS,
 * which bounds the size of its image: an fsession program is called at
 * entry and at exit, with code around each call, so it takes three.
 */
#define BPF_TRAMP_FSESSION_PLACES	3

static inline int bpf_trampoline_places(const struct bpf_trampoline *tr)
{
	int i, cnt = 0;

	for (i = 0; i < BPF_TRAMP_MAX; i++)
		cnt += tr->progs_cnt[i];
	return cnt + (BPF_TRAMP_FSESSION_PLACES - 1) *
		     tr->progs_cnt[BPF_TRAMP_FSESSION];
}

/*
 * Whether @link can join @tr's programs of @kind: -E2BIG when they
 * would take more than BPF_MAX_TRAMP_LINKS places, -EBUSY when the link
 * or its program is on the trampoline already.
 *
 * Context: tr->mutex held.
 */
static inline int bpf_trampoline_link_check(struct bpf_trampoline *tr,
					    struct bpf_tramp_link *link,
					    enum bpf_tramp_prog_type kind)
{
	int need = kind == BPF_TRAMP_FSESSION ? BPF_TRAMP_FSESSION_PLACES : 1;
	struct bpf_tramp_link *other;

	lockdep_assert_held(&tr->mutex);
	if (bpf_trampoline_places(tr) + need > BPF_MAX_TRAMP_LINKS)
		return -E2BIG;
	if (!hlist_unhashed(&link->tramp_hlist))
		return -EBUSY;
	hlist_for_each_entry(other, &tr->progs_hlist[kind], tramp_hlist) {
		if (other->link.prog == link->link.prog)
			return -EBUSY;
	}
	return 0;
}

enum bpf_tramp_prog_type bpf_attach_type_to_tramp(struct bpf_prog *prog);
int bpf_trampoline_build(struct bpf_trampoline *tr,
			 struct bpf_tramp_image **imp);
void bpf_tramp_image_free(struct bpf_tramp_image *im);
void bpf_tramp_image_put(struct bpf_tramp_image *im);

/* An IPMODIFY ops shares @ip with the bpf batch (trampoline.c) */
int bpf_trampoline_share_ipmodify(unsigned long ip, bool share);

#ifdef CONFIG_BPF_TRACING_MULTI
int bpf_tramp_batch_register(struct bpf_trampoline *tr, void *addr);
int bpf_tramp_batch_modify(struct bpf_trampoline *tr, void *addr,
			   bool lock_direct_mutex);
void bpf_tramp_batch_unregister(struct bpf_trampoline *tr);
#else
static inline int bpf_tramp_batch_register(struct bpf_trampoline *tr,
					   void *addr)
{
	return -EAGAIN;
}

static inline int bpf_tramp_batch_modify(struct bpf_trampoline *tr,
					 void *addr, bool lock_direct_mutex)
{
	return -EOPNOTSUPP;
}

static inline void bpf_tramp_batch_unregister(struct bpf_trampoline *tr)
{
}
#endif

#endif /* _BPF_TRAMPOLINE_INTERNAL_H */
