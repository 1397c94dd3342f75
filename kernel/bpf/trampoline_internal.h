/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What trampoline.c and trampoline_multi.c share: building an image apart
 * from putting it in place, and the batch direct interface under the
 * trampolines.  Not for other users.
 */
#ifndef _BPF_TRAMPOLINE_INTERNAL_H
#define _BPF_TRAMPOLINE_INTERNAL_H

#include <linux/mutex.h>

struct bpf_trampoline;
struct bpf_tramp_image;

/*
 * Held around every update of a trampoline, before tr->mutex, so that a
 * tracing multi link can build the images of many trampolines and then
 * put them in place at once.
 */
extern struct mutex bpf_tramp_batch_mutex;

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
