/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BTF helpers of the userspace tools of ftrace-args: the trace-cmd plugin
 * (plugin_function_args.c) and multitrace (../multitrace/btf_model.c),
 * which includes this file through its Makefile's -I../ftrace-args.
 */
#ifndef _FTRACE_ARGS_BTF_H
#define _FTRACE_ARGS_BTF_H

#include <stddef.h>
#include <bpf/btf.h>

/**
 * fta_skip_mods - the type that a BTF type id stands for
 * @btf: the BTF that @id is in
 * @id: a type id
 * @res_id: if not NULL, the id of the type returned
 *
 * Return: the type of @id with its modifiers (const, volatile, restrict,
 * type tags) and typedefs skipped; NULL for void or an id not in @btf.
 */
static inline const struct btf_type *
fta_skip_mods(const struct btf *btf, __u32 id, __u32 *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (res_id)
		*res_id = id;
	return t;
}

#endif /* _FTRACE_ARGS_BTF_H */
