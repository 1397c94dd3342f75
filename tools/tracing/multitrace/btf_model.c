// SPDX-License-Identifier: GPL-2.0
/*
 * multitrace: function models from BTF, and the formatting of values.
 *
 * A tracing multi program reads argument i of any of its functions with
 * bpf_get_func_arg(ctx, i), which gives word i of the trampoline's
 * context.  That is argument i only when each argument takes one word:
 * multitrace takes the functions with at most six arguments, each an
 * integer of 1 to 8 bytes, a bool, an enum or a pointer, so that all of
 * them travel in registers, and such a return value or none.  The
 * classes are those of fta_classify() in kernel/trace/ftrace_args.c, and
 * values print as trace_function_args_print.c prints them: signed and
 * unsigned decimal, pointers in hex, bools as true or false, enums by
 * the name of their enumerator.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

#include "btf_model.h"
#include "ftrace_args_btf.h"

/* Each reason reads after "N functions skipped: " and after "cannot be traced: " */
static const char * const skip_str[MT_NR_SKIP] = {
	[MT_OK]			= "",
	[MT_SKIP_NO_BTF]	= "not in BTF",
	[MT_SKIP_AMBIGUOUS]	= "ambiguous name",
	[MT_SKIP_TOO_MANY]	= "over 6 arguments",
	[MT_SKIP_ARGS]		= "argument not in a register",
	[MT_SKIP_RET]		= "return value not in a register",
	[MT_SKIP_REFUSED]	= "refused by the kernel",
};

const char *mt_skip_str(enum mt_skip reason)
{
	return (unsigned int)reason < MT_NR_SKIP ? skip_str[reason] : "?";
}

void mt_sbuf_printf(struct mt_sbuf *sb, const char *fmt, ...)
{
	size_t room = sizeof(sb->buf) - sb->len;
	va_list ap;
	int n;

	if (room <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb->len += (size_t)n < room ? (size_t)n : room - 1;
}

static const char *name_of(const struct btf *btf, __u32 off)
{
	const char *name = btf__name_by_offset(btf, off);

	return name ? name : "";
}

/*
 * The class of a value of BTF type @type_id, when one register holds it:
 * 0, with @a filled in; -1 for a value that takes two registers or
 * memory (a struct or union, a 128-bit integer) or has no integer class
 * (a float, void).
 */
static int classify(const struct btf *btf, __u32 type_id, struct mt_arg *a)
{
	const struct btf_type *t = fta_skip_mods(btf, type_id, &a->type_id);

	if (!t)
		return -1;
	if (btf_is_ptr(t)) {
		a->size = 8;
		a->class = MT_POINTER;
		return 0;
	}
	if (!btf_is_int(t) && !btf_is_enum(t) && !btf_is_enum64(t))
		return -1;
	a->size = t->size;
	if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8)
		return -1;
	if (!btf_is_int(t))
		a->class = MT_ENUM;
	else if (btf_int_encoding(t) & BTF_INT_BOOL)
		a->class = MT_BOOL;
	else if (btf_int_encoding(t) & BTF_INT_SIGNED)
		a->class = MT_SIGNED;
	else
		a->class = MT_UNSIGNED;
	return 0;
}

/**
 * mt_model_build - the model of a function, if a multi program can read it
 * @btf: the BTF that @func_id is in
 * @func_id: a FUNC of @btf
 * @m: the model, filled in
 *
 * Return: %MT_OK when every argument and the return value each take one
 * register, else the &enum mt_skip reason.
 */
int mt_model_build(const struct btf *btf, __u32 func_id, struct mt_model *m)
{
	const struct btf_type *fn = btf__type_by_id(btf, func_id);
	const struct btf_type *proto;
	const struct btf_param *p;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->btf = btf;
	m->ret.name = "";
	if (!fn || !btf_is_func(fn))
		return MT_SKIP_NO_BTF;
	proto = btf__type_by_id(btf, fn->type);
	if (!proto || !btf_is_func_proto(proto))
		return MT_SKIP_NO_BTF;
	if (btf_vlen(proto) > MT_MAX_ARGS)
		return MT_SKIP_TOO_MANY;
	p = btf_params(proto);
	for (i = 0; i < btf_vlen(proto); i++) {
		/* a parameter of type 0 is the "..." of a variadic function */
		if (!p[i].type || classify(btf, p[i].type, &m->args[i]))
			return MT_SKIP_ARGS;
		m->args[i].name = name_of(btf, p[i].name_off);
	}
	m->nr_args = i;
	if (proto->type && classify(btf, proto->type, &m->ret))
		return MT_SKIP_RET;
	return MT_OK;
}

static __u64 mask(__u64 val, unsigned int size)
{
	return size >= 8 ? val : val & ((1ULL << (size * 8)) - 1);
}

static long long sext(__u64 val, unsigned int size)
{
	unsigned int shift = 64 - size * 8;

	return size >= 8 ? (long long)val : (long long)(val << shift) >> shift;
}

/* An enum by the name of its enumerator, else as a number */
static void format_enum(struct mt_sbuf *sb, const struct btf *btf,
			const struct btf_type *t, __u64 val, int json)
{
	const char *q = json ? "\"" : "";
	unsigned int i;

	if (btf_is_enum(t)) {
		const struct btf_enum *e = btf_enum(t);

		for (i = 0; i < btf_vlen(t); i++, e++) {
			if ((__u32)e->val == (__u32)val) {
				mt_sbuf_printf(sb, "%s%s%s", q,
					       name_of(btf, e->name_off), q);
				return;
			}
		}
	} else {
		const struct btf_enum64 *e = btf_enum64(t);

		for (i = 0; i < btf_vlen(t); i++, e++) {
			if (btf_enum64_value(e) == val) {
				mt_sbuf_printf(sb, "%s%s%s", q,
					       name_of(btf, e->name_off), q);
				return;
			}
		}
	}
	if (btf_kflag(t))
		mt_sbuf_printf(sb, "%lld", sext(val, t->size));
	else
		mt_sbuf_printf(sb, "%llu", (unsigned long long)val);
}

/**
 * mt_format_value - append one value, as function_args prints it
 * @sb: where
 * @m: the model that @a is part of
 * @a: the argument or return value
 * @val: the register that holds it: only its @a->size bytes count
 * @json: quote what is no JSON number (pointers, enum names)
 */
void mt_format_value(struct mt_sbuf *sb, const struct mt_model *m,
		     const struct mt_arg *a, __u64 val, int json)
{
	const struct btf_type *t;

	val = mask(val, a->size);
	switch (a->class) {
	case MT_SIGNED:
		mt_sbuf_printf(sb, "%lld", sext(val, a->size));
		break;
	case MT_UNSIGNED:
		mt_sbuf_printf(sb, "%llu", (unsigned long long)val);
		break;
	case MT_BOOL:
		mt_sbuf_printf(sb, "%s", (val & 0xff) ? "true" : "false");
		break;
	case MT_ENUM:
		t = btf__type_by_id(m->btf, a->type_id);
		if (t && (btf_is_enum(t) || btf_is_enum64(t)))
			format_enum(sb, m->btf, t, val, json);
		else
			mt_sbuf_printf(sb, "%llu", (unsigned long long)val);
		break;
	default:
		mt_sbuf_printf(sb, json ? "\"0x%llx\"" : "0x%llx",
			       (unsigned long long)val);
		break;
	}
}

/**
 * mt_format_args - append the arguments of a call
 * @sb: where
 * @m: the function's model
 * @vals: its argument registers, @m->nr_args of them
 * @json: "name":value pairs (an unnamed argument i is "argi") rather
 *	than function_args' name=value list
 */
void mt_format_args(struct mt_sbuf *sb, const struct mt_model *m,
		    const __u64 *vals, int json)
{
	const struct mt_arg *a;
	unsigned int i;

	for (i = 0; i < m->nr_args; i++) {
		a = &m->args[i];
		if (i)
			mt_sbuf_printf(sb, "%s", json ? "," : ", ");
		if (json && *a->name)
			mt_sbuf_printf(sb, "\"%s\":", a->name);
		else if (json)
			mt_sbuf_printf(sb, "\"arg%u\":", i);
		else if (*a->name)
			mt_sbuf_printf(sb, "%s=", a->name);
		mt_format_value(sb, m, a, vals[i], json);
	}
}
