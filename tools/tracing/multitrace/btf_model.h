/* SPDX-License-Identifier: GPL-2.0 */
/*
 * multitrace: the argument model of a kernel function, from BTF, and the
 * formatting of its values as the function_args tracer prints them
 * (kernel/trace/trace_function_args_print.c without funcargs-strings and
 * funcargs-hex).
 */
#ifndef _MULTITRACE_BTF_MODEL_H
#define _MULTITRACE_BTF_MODEL_H

#include <stddef.h>
#include <linux/types.h>

struct btf;

/* The argument registers of x86-64: a multi link's functions use these */
#define MT_MAX_ARGS	6

/**
 * enum mt_class - how a value is printed
 * @MT_VOID: no value (a void return)
 * @MT_SIGNED: signed integer, decimal
 * @MT_UNSIGNED: unsigned integer, decimal
 * @MT_POINTER: pointer, hex (const char * too: strings are not read)
 * @MT_BOOL: _Bool, true or false
 * @MT_ENUM: enum, by the name of its enumerator
 */
enum mt_class {
	MT_VOID,
	MT_SIGNED,
	MT_UNSIGNED,
	MT_POINTER,
	MT_BOOL,
	MT_ENUM,
};

/**
 * enum mt_skip - why a function is not attached
 * @MT_OK: it is
 * @MT_SKIP_NO_BTF: no BTF FUNC of that name, or no prototype
 * @MT_SKIP_AMBIGUOUS: the name is there twice (static functions)
 * @MT_SKIP_TOO_MANY: more than %MT_MAX_ARGS arguments
 * @MT_SKIP_ARGS: an argument that takes no single register (struct by
 *	value, 128-bit integer, float, variadic)
 * @MT_SKIP_RET: a return value that takes no single register
 * @MT_SKIP_REFUSED: the kernel refused to attach it
 * @MT_NR_SKIP: the number of reasons
 */
enum mt_skip {
	MT_OK,
	MT_SKIP_NO_BTF,
	MT_SKIP_AMBIGUOUS,
	MT_SKIP_TOO_MANY,
	MT_SKIP_ARGS,
	MT_SKIP_RET,
	MT_SKIP_REFUSED,
	MT_NR_SKIP,
};

/**
 * struct mt_arg - an argument or the return value
 * @name: the parameter name from BTF, "" when it has none
 * @type_id: the BTF type, modifiers and typedefs skipped
 * @size: its size in bytes, 1 to 8
 * @class: an &enum mt_class
 */
struct mt_arg {
	const char	*name;
	__u32		type_id;
	unsigned int	size;
	enum mt_class	class;
};

/**
 * struct mt_model - the arguments and return value of a function
 * @btf: the BTF that the type ids are in
 * @nr_args: the number of arguments, at most %MT_MAX_ARGS
 * @args: the arguments, in order: argument i is bpf_get_func_arg(i)
 * @ret: the return value (class %MT_VOID for void)
 */
struct mt_model {
	const struct btf	*btf;
	unsigned int		nr_args;
	struct mt_arg		args[MT_MAX_ARGS];
	struct mt_arg		ret;
};

/* A line under construction; what does not fit is cut */
struct mt_sbuf {
	char	buf[1024];
	size_t	len;
};

static inline void mt_sbuf_init(struct mt_sbuf *sb)
{
	sb->buf[0] = '\0';
	sb->len = 0;
}

int mt_model_build(const struct btf *btf, __u32 func_id, struct mt_model *m);
const char *mt_skip_str(enum mt_skip reason);
void mt_sbuf_printf(struct mt_sbuf *sb, const char *fmt, ...);
void mt_format_value(struct mt_sbuf *sb, const struct mt_model *m,
		     const struct mt_arg *a, __u64 val, int json);
void mt_format_args(struct mt_sbuf *sb, const struct mt_model *m,
		    const __u64 *vals, int json);

#endif /* _MULTITRACE_BTF_MODEL_H */
