/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What trampoline.c and trampoline_multi.c share: building an image apart
 * from putting it in place, and the batch direct interface under the
 * trampolines.  Not for other users.
 */
#ifndef _BPF_TRAMPOLINE_INTERNAL_H
#define _BPF_TRAMPOLINE_INTERNAL_H

#include <linux/mutex.h>

struct bpf_prog;
struct bpf_trampoline;
struct bpf_tramp_image;

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

enum bpf_tramp_prog_type bpf_attach_type_to_tramp(struct bpf_prog *prog);
int bpf_trampoline_build(struct bpf_trampoline *tr,
			 struct bpf_tramp_image **imp);
void bpf_tramp_image_free(struct bpf_tramp_image *im);
void bpf_tramp_image_put(struct bpf_tramp_image *im);

#ifdef CONFIG_BPF_TRACING_MULTI
int bpf_tramp_batch_register(struct bpf_trampoline *tr, void *addr);
int bpf_tramp_batch_modify(struct bpf_trampoline *tr, void *addr);
void bpf_tramp_batch_unregister(struct bpf_trampoline *tr);
#else
static inline int bpf_tramp_batch_register(struct bpf_trampoline *tr,
					   void *addr)
{
	return -EAGAIN;
}

static inline int bpf_tramp_batch_modify(struct bpf_trampoline *tr,
					 void *addr)
{
	return -EOPNOTSUPP;
}

static inline void bpf_tramp_batch_unregister(struct bpf_trampoline *tr)
{
}
#endif

#endif /* _BPF_TRAMPOLINE_INTERNAL_H */
