// SPDX-License-Identifier: GPL-2.0
/*
 * function_args: printing the records.
 *
 * The tracer (trace_function_args.c) stores raw argument words; this file
 * formats them when the trace is read: it looks the function's model up
 * again and prints each argument by its BTF type (integers, bools, enums
 * by name, const char * strings recorded with funcargs-strings, structs
 * passed by value member by member), the call-through return value and
 * duration, or the raw words when there is no usable model.
 */
#include <linux/ftrace_args.h>
#include <linux/ctype.h>
#include <linux/btf.h>

#include "trace.h"
#include "trace_output.h"
#include "trace_function_args.h"

struct fargs_print_ctx {
	struct trace_seq	*s;
	const struct btf	*btf;
	bool			hex;
	/* next recorded string, and the end of the record */
	const char		*str;
	const char		*end;
};

static u64 fargs_mask(u64 val, unsigned int size)
{
	return size >= 8 ? val : val & ((1ULL << (size * 8)) - 1);
}

static s64 fargs_sext(u64 val, unsigned int size)
{
	unsigned int shift = 64 - size * 8;

	return size >= 8 ? (s64)val : (s64)(val << shift) >> shift;
}

static void fargs_print_enum(struct fargs_print_ctx *c,
			     const struct btf_type *t, u64 val)
{
	bool is_signed = BTF_INFO_KFLAG(t->info);
	unsigned int i;

	if (btf_type_is_enum(t)) {
		const struct btf_enum *e = btf_enum(t);

		for (i = 0; i < btf_type_vlen(t); i++, e++) {
			if ((u32)e->val == (u32)val) {
				trace_seq_puts(c->s,
					       btf_name_by_offset(c->btf,
								  e->name_off));
				return;
			}
		}
	} else {
		const struct btf_enum64 *e = btf_enum64(t);

		for (i = 0; i < btf_type_vlen(t); i++, e++) {
			if (btf_enum64_value(e) == val) {
				trace_seq_puts(c->s,
					       btf_name_by_offset(c->btf,
								  e->name_off));
				return;
			}
		}
	}
	if (is_signed)
		trace_seq_printf(c->s, "%lld", fargs_sext(val, t->size));
	else
		trace_seq_printf(c->s, "%llu", val);
}

static void fargs_print_str(struct fargs_print_ctx *c, u64 ptr)
{
	const char *p = c->str;
	size_t len;
	u8 status;

	if (!p || p + 2 > c->end) {
		trace_seq_printf(c->s, "0x%llx", ptr);
		return;
	}
	status = *p++;
	len = strnlen(p, c->end - p);
	c->str = p + len + 1;

	switch (status) {
	case FARGS_STR_NULL:
		trace_seq_puts(c->s, "(null)");
		return;
	case FARGS_STR_FAULT:
		trace_seq_printf(c->s, "0x%llx(fault)", ptr);
		return;
	}
	trace_seq_putc(c->s, '"');
	for (; len; len--, p++) {
		if (*p == '"' || *p == '\\')
			trace_seq_printf(c->s, "\\%c", *p);
		else if (isprint(*p))
			trace_seq_putc(c->s, *p);
		else
			trace_seq_printf(c->s, "\\x%02x", (u8)*p);
	}
	trace_seq_putc(c->s, '"');
	if (status == FARGS_STR_TRUNCATED)
		trace_seq_puts(c->s, "...");
}

static void fargs_print_type(struct fargs_print_ctx *c, u32 type_id,
			     const u8 *img, unsigned int bit_off,
			     unsigned int bits, int depth);

/* Members of a struct or union passed by value, from its byte image. */
static void fargs_print_struct(struct fargs_print_ctx *c,
			       const struct btf_type *t, const u8 *img,
			       unsigned int bit_off, int depth)
{
	const struct btf_member *m;
	u32 i;

	trace_seq_putc(c->s, '{');
	for_each_member(i, t, m) {
		const char *name = btf_name_by_offset(c->btf, m->name_off);

		if (i)
			trace_seq_puts(c->s, ", ");
		if (name && *name)
			trace_seq_printf(c->s, "%s=", name);
		fargs_print_type(c, m->type, img,
				 bit_off + __btf_member_bit_offset(t, m),
				 __btf_member_bitfield_size(t, m), depth + 1);
	}
	trace_seq_putc(c->s, '}');
}

static u64 fargs_extract(const u8 *img, unsigned int bit_off,
			 unsigned int bits)
{
	u64 val = 0;
	unsigned int i;

	/* The image is at most 16 bytes; read the 8 around bit_off. */
	for (i = 0; i < 8 && bit_off / 8 + i < FTRACE_ARG_SIZE_MAX; i++)
		val |= (u64)img[bit_off / 8 + i] << (i * 8);
	val >>= bit_off % 8;
	if (bits < 64)
		val &= (1ULL << bits) - 1;
	return val;
}

/* One value of BTF type @type_id, @bits wide at @bit_off of @img. */
static void fargs_print_type(struct fargs_print_ctx *c, u32 type_id,
			     const u8 *img, unsigned int bit_off,
			     unsigned int bits, int depth)
{
	const struct btf_type *t;
	unsigned int size, i;
	u64 val;

	t = btf_type_skip_modifiers(c->btf, type_id, NULL);
	if (!t || depth > 4) {
		trace_seq_puts(c->s, "?");
		return;
	}

	if (btf_type_is_struct(t)) {
		fargs_print_struct(c, t, img, bit_off, depth);
		return;
	}
	if (btf_type_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		const struct btf_type *et;

		et = btf_type_skip_modifiers(c->btf, a->type, NULL);
		size = et && et->size ? et->size : 1;
		trace_seq_putc(c->s, '[');
		for (i = 0; i < a->nelems && bit_off / 8 + (i + 1) * size <=
		     FTRACE_ARG_SIZE_MAX; i++) {
			if (i)
				trace_seq_puts(c->s, ", ");
			fargs_print_type(c, a->type, img,
					 bit_off + i * size * 8, 0, depth + 1);
		}
		trace_seq_putc(c->s, ']');
		return;
	}

	size = btf_type_is_ptr(t) ? sizeof(void *) : t->size;
	if (!bits)
		bits = min(size, 8U) * 8;
	val = fargs_extract(img, bit_off, bits);

	if (c->hex || btf_type_is_ptr(t)) {
		trace_seq_printf(c->s, "0x%llx", val);
	} else if (btf_is_any_enum(t)) {
		fargs_print_enum(c, t, val);
	} else if (btf_type_is_int(t)) {
		if (btf_int_encoding(t) & BTF_INT_BOOL)
			trace_seq_puts(c->s, val ? "true" : "false");
		else if (btf_int_encoding(t) & BTF_INT_SIGNED)
			trace_seq_printf(c->s, "%lld",
					 bits < 64 ? (s64)(val << (64 - bits)) >>
						     (64 - bits) : (s64)val);
		else
			trace_seq_printf(c->s, "%llu", val);
	} else {
		trace_seq_printf(c->s, "0x%llx", val);
	}
}

static void fargs_print_arg(struct fargs_print_ctx *c,
			    const struct ftrace_arg_desc *arg,
			    const unsigned long *w)
{
	u64 val = fargs_mask(w[0], arg->size);
	const struct btf_type *t;
	u8 img[FTRACE_ARG_SIZE_MAX];

	if (arg->size > sizeof(long) &&
	    (c->hex || arg->class != FTRACE_ARG_STRUCT)) {
		/* 128-bit integers and hex mode: high word first */
		trace_seq_printf(c->s, "0x%lx%016lx", w[1], w[0]);
		return;
	}
	if (c->hex) {
		trace_seq_printf(c->s, "0x%llx", val);
		return;
	}

	switch (arg->class) {
	case FTRACE_ARG_SIGNED:
		trace_seq_printf(c->s, "%lld", fargs_sext(val, arg->size));
		break;
	case FTRACE_ARG_UNSIGNED:
		trace_seq_printf(c->s, "%llu", val);
		break;
	case FTRACE_ARG_BOOL:
		trace_seq_puts(c->s, (val & 0xff) ? "true" : "false");
		break;
	case FTRACE_ARG_STRING:
		if (c->str) {
			fargs_print_str(c, val);
			break;
		}
		fallthrough;
	case FTRACE_ARG_POINTER:
		trace_seq_printf(c->s, "0x%llx", val);
		break;
	case FTRACE_ARG_ENUM:
		t = btf_type_by_id(c->btf, arg->type_id);
		if (t && btf_is_any_enum(t))
			fargs_print_enum(c, t, val);
		else
			trace_seq_printf(c->s, "%llu", val);
		break;
	case FTRACE_ARG_STRUCT:
		memcpy(img, w, sizeof(long));
		if (arg->size > sizeof(long))
			memcpy(img + sizeof(long), &w[1], sizeof(long));
		else
			memset(img + sizeof(long), 0, sizeof(long));
		fargs_print_type(c, arg->type_id, img, 0, 0, 0);
		break;
	default:
		trace_seq_printf(c->s, "0x%llx", val);
	}
}

/* A struct returned in memory: the pointer to it, and its type */
static void fargs_print_ret_mem(struct fargs_print_ctx *c,
				const struct ftrace_arg_desc *ret,
				unsigned long ptr)
{
	const struct btf_type *t = btf_type_by_id(c->btf, ret->type_id);
	const char *name = t ? btf_name_by_offset(c->btf, t->name_off) : NULL;

	trace_seq_printf(c->s, "(%s%s%s *)0x%lx",
			 t && btf_kind(t) == BTF_KIND_UNION ? "union" : "struct",
			 name && *name ? " " : "", name ?: "", ptr);
}

/*
 * "name=value, ..." for the arguments of @model in @words; slots that a
 * record with @flags did not read print as <bad>.
 */
static void fargs_print_named(struct fargs_print_ctx *c,
			      const struct ftrace_func_model *model,
			      const unsigned long *words, u16 flags)
{
	unsigned int i;

	for (i = 0; i < model->nr_args; i++) {
		const struct ftrace_arg_desc *arg = &model->args[i];

		if (i)
			trace_seq_puts(c->s, ", ");
		if (*arg->name)
			trace_seq_printf(c->s, "%s=", arg->name);
		if (fargs_arg_cut(flags, arg))
			trace_seq_puts(c->s, "<bad>");
		else
			fargs_print_arg(c, arg, &words[arg->word]);
	}
}

static const char * const fargs_reg_names[FTRACE_ARGS_NR_REGS] = {
	"di", "si", "dx", "cx", "r8", "r9",
};

/*
 * The arguments of the function at @func: "name=value, ..." through its
 * model when it has one of @nr words, else the words raw ("w0=0x..."; the
 * registers by name in a FARGS_FL_RAW record).  Returns the model that
 * printed them, or NULL; the caller holds rcu_read_lock() while it uses it.
 */
static const struct ftrace_func_model *
fargs_print_model(struct fargs_print_ctx *c, unsigned long func,
		  const unsigned long *words, unsigned int nr, u16 flags)
{
	const struct ftrace_func_model *model = NULL;
	unsigned int i;

	if (!(flags & FARGS_FL_RAW))
		model = ftrace_args_model(func);
	/* Another function's unknown model, should the text have been reused */
	if (model && (model->flags || model->nr_words != nr))
		model = NULL;
	if (model) {
		c->btf = model->btf;
		c->hex = fargs_flags.val & FARGS_OPT_HEX;
		fargs_print_named(c, model, words, flags);
		return model;
	}
	/* Raw registers, or words whose model is gone */
	for (i = 0; i < nr; i++) {
		if (i)
			trace_seq_puts(c->s, ", ");
		if ((flags & FARGS_FL_RAW) && i < FTRACE_ARGS_NR_REGS)
			trace_seq_printf(c->s, "%s=", fargs_reg_names[i]);
		else
			trace_seq_printf(c->s, "w%u=", i);
		trace_seq_printf(c->s, "0x%lx", words[i]);
	}
	return NULL;
}

static enum print_line_t fargs_trace(struct trace_iterator *iter, int flags,
				     struct trace_event *event)
{
	struct func_args_entry *field = (struct func_args_entry *)iter->ent;
	const struct ftrace_func_model *model;
	struct trace_seq *s = &iter->seq;
	struct fargs_print_ctx c = { .s = s };
	long delta = iter->tr->text_delta;
	unsigned int nr = field->nr_words;
	const char *end = (const char *)iter->ent + iter->ent_size;
	bool ret = field->flags & FARGS_FL_RET;

	if ((const char *)&field->args[nr + (ret ? FARGS_RET_WORDS : 0)] > end) {
		nr = 0;
		ret = false;
	}

	seq_print_ip_sym(s, field->ip + delta, flags);
	trace_seq_putc(s, '(');

	c.end = end;
	if (field->flags & FARGS_FL_STRINGS)
		c.str = (const char *)&field->args[nr];
	rcu_read_lock();
	/* A buffer of the previous boot: its functions were at ip + delta */
	model = fargs_print_model(&c, field->ip + delta, field->args, nr,
				  field->flags);
	trace_seq_putc(s, ')');
	/* Call-through: the return value, typed, unless void */
	if (ret && model && model->ret.class != FTRACE_ARG_VOID) {
		trace_seq_puts(s, " = ");
		if (model->ret.loc == FTRACE_ARG_LOC_RET_MEM)
			fargs_print_ret_mem(&c, &model->ret, field->args[nr]);
		else
			fargs_print_arg(&c, &model->ret, &field->args[nr]);
	} else if (ret && !model) {
		trace_seq_printf(s, " = 0x%lx", field->args[nr]);
	}
	rcu_read_unlock();

	if ((flags & TRACE_ITER_PRINT_PARENT) && field->parent_ip) {
		trace_seq_puts(s, " <-");
		seq_print_ip_sym(s, field->parent_ip + delta, flags);
	}
	if (ret) {
		u64 ns = field->args[nr + 2];
		u32 rem = do_div(ns, NSEC_PER_USEC);

		trace_seq_printf(s, " (%llu.%03u us)", ns, rem);
	}
	if (field->flags & FARGS_FL_LOW_STACK)
		trace_seq_puts(s, " [entry only: low stack]");
	else if (field->flags & FARGS_FL_ENTRY_ONLY)
		trace_seq_puts(s, " [entry only: stack arguments]");

	if (field->flags & FARGS_FL_NO_MODEL)
		trace_seq_puts(s, " [raw: no model]");
	else if (field->flags & FARGS_FL_RAW)
		trace_seq_printf(s, " [raw: %s]",
				 ftrace_args_reason_str(field->flags >>
							FARGS_REASON_SHIFT));
	else if (!model)
		trace_seq_puts(s, " [raw: model gone]");
	trace_seq_putc(s, '\n');

	return trace_handle_return(s);
}

static enum print_line_t fargs_raw(struct trace_iterator *iter, int flags,
				   struct trace_event *event)
{
	struct func_args_entry *field = (struct func_args_entry *)iter->ent;
	const char *end = (const char *)iter->ent + iter->ent_size;
	unsigned int i;

	trace_seq_printf(&iter->seq, "%lx %lx %x", field->ip, field->parent_ip,
			 field->flags);
	for (i = 0; i < field->nr_words &&
	     (const char *)&field->args[i + 1] <= end; i++)
		trace_seq_printf(&iter->seq, " %lx", field->args[i]);
	trace_seq_putc(&iter->seq, '\n');

	return trace_handle_return(&iter->seq);
}

static struct trace_event_functions fargs_event_funcs = {
	.trace	= fargs_trace,
	.raw	= fargs_raw,
};

struct trace_event fargs_event = {
	.type	= TRACE_FN_ARGS,
	.funcs	= &fargs_event_funcs,
};

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/**
 * fgraph_args_print - print a function_graph entry's function and arguments
 * @s: where to print
 * @sv: the entry, as the graph output saved it
 * @func: the function's address (text_delta applied), for the symbol and
 *	the model
 *
 * Prints "func(name=value, ...)" for an entry that funcgraph-args
 * recorded, through the function's model, and "func()" for any other.
 * Words whose model is gone print raw, as the function_args tracer prints
 * them.
 */
void fgraph_args_print(struct trace_seq *s, struct fgraph_saved_ent *sv,
		       unsigned long func)
{
	struct ftrace_graph_ent_entry *entry = fgraph_saved_entry(sv);
	unsigned long words[FTRACE_ARGS_WORDS_MAX];
	struct fargs_print_ctx c = { .s = s };
	unsigned int nr = sv->nr_args;

	trace_seq_printf(s, "%ps(", (void *)func);
	/* The words follow the packed entry: copy them out aligned */
	memcpy(words, entry->args, nr * sizeof(long));

	/* Most entries have no words: no lookup for them */
	if (nr) {
		rcu_read_lock();
		/* @func has the previous boot's text delta applied */
		fargs_print_model(&c, func, words, nr, 0);
		rcu_read_unlock();
	}
	trace_seq_putc(s, ')');
}
#endif
