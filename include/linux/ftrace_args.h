/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Function models for argument-aware ftrace_ops.
 *
 * An ftrace_ops with FTRACE_OPS_FL_ARGS_ONLY reads only the arguments of
 * the traced function (plus ip and parent ip).  For every function such an
 * ops enables, the ftrace core builds a model from BTF that tells where
 * each argument lives and how to format it.  The callback looks the model
 * up by ip and copies the arguments out of its ftrace_regs with
 * ftrace_args_read().
 */
#ifndef _LINUX_FTRACE_ARGS_H
#define _LINUX_FTRACE_ARGS_H

#include <linux/types.h>
#include <linux/jump_label.h>
#include <linux/percpu.h>

struct btf;
struct ftrace_regs;

/* Most arguments a model describes (the BPF trampoline limit too). */
#define FTRACE_ARGS_MAX		12
/* Largest argument, in bytes; larger by-value arguments are unsupported. */
#define FTRACE_ARG_SIZE_MAX	16
/* Words ftrace_args_read() stores at most (every argument two words). */
#define FTRACE_ARGS_WORDS_MAX	(2 * FTRACE_ARGS_MAX)
/* Argument registers of the x86-64 calling convention. */
#define FTRACE_ARGS_NR_REGS	6

/**
 * enum ftrace_arg_class - how an argument or return value is formatted
 * @FTRACE_ARG_VOID: no value (a void return)
 * @FTRACE_ARG_SIGNED: signed integer
 * @FTRACE_ARG_UNSIGNED: unsigned integer
 * @FTRACE_ARG_POINTER: pointer other than a string
 * @FTRACE_ARG_STRING: pointer to const char (a string the function reads)
 * @FTRACE_ARG_BOOL: _Bool
 * @FTRACE_ARG_ENUM: enum; the type id names its enumerators
 * @FTRACE_ARG_STRUCT: struct or union passed by value
 */
enum ftrace_arg_class {
	FTRACE_ARG_VOID,
	FTRACE_ARG_SIGNED,
	FTRACE_ARG_UNSIGNED,
	FTRACE_ARG_POINTER,
	FTRACE_ARG_STRING,
	FTRACE_ARG_BOOL,
	FTRACE_ARG_ENUM,
	FTRACE_ARG_STRUCT,
};

/**
 * enum ftrace_arg_loc - where an argument lives at function entry
 * @FTRACE_ARG_LOC_REG: in argument register number @slot (and @slot + 1
 *	for a two-word argument)
 * @FTRACE_ARG_LOC_STACK: in the caller's frame, @slot words above the
 *	return address
 * @FTRACE_ARG_LOC_RET: the return value registers
 * @FTRACE_ARG_LOC_RET_MEM: a struct or union returned in memory (larger
 *	than 16 bytes, or packed): the caller passes a pointer to it in the
 *	first argument register, which shifts the arguments by one, and the
 *	function returns that pointer in %rax.  The return value is that
 *	pointer (class %FTRACE_ARG_POINTER, size 8); @type_id is the struct's
 *	type
 */
enum ftrace_arg_loc {
	FTRACE_ARG_LOC_REG,
	FTRACE_ARG_LOC_STACK,
	FTRACE_ARG_LOC_RET,
	FTRACE_ARG_LOC_RET_MEM,
};

/**
 * struct ftrace_arg_desc - one argument (or the return value) of a model
 * @name: the parameter name from BTF, or "" when BTF has none
 * @type_id: BTF id of the type with modifiers and typedefs skipped; used to
 *	name enumerators and struct members when formatting
 * @size: size in bytes, 1 to %FTRACE_ARG_SIZE_MAX
 * @class: an &enum ftrace_arg_class
 * @loc: an &enum ftrace_arg_loc
 * @slot: register number or stack slot, see &enum ftrace_arg_loc
 * @word: index of the first word of this argument in the buffer that
 *	ftrace_args_read() fills
 */
struct ftrace_arg_desc {
	const char	*name;
	u32		type_id;
	u8		size;
	u8		class;
	u8		loc;
	u8		slot;
	u8		word;
};

/* Model flags */
#define FTRACE_MODEL_UNKNOWN	BIT(0)	/* no usable model: raw registers */

/**
 * enum ftrace_model_reason - why a model is unknown
 * @FTRACE_MODEL_OK: the model is usable
 * @FTRACE_MODEL_NO_SYMBOL: the ip has no symbol name
 * @FTRACE_MODEL_NO_BTF: BTF has no prototype for the symbol
 * @FTRACE_MODEL_VARIADIC: the function takes a variable argument list
 * @FTRACE_MODEL_TOO_MANY: more than %FTRACE_ARGS_MAX arguments
 * @FTRACE_MODEL_BAD_TYPE: an argument type cannot be expressed (float,
 *	by-value aggregate larger than %FTRACE_ARG_SIZE_MAX, ...)
 * @FTRACE_MODEL_AMBIGUOUS: BTF has several functions of the name, whose
 *	types differ (static functions of different files); it does not say
 *	which one is at the ip
 */
enum ftrace_model_reason {
	FTRACE_MODEL_OK,
	FTRACE_MODEL_NO_SYMBOL,
	FTRACE_MODEL_NO_BTF,
	FTRACE_MODEL_VARIADIC,
	FTRACE_MODEL_TOO_MANY,
	FTRACE_MODEL_BAD_TYPE,
	FTRACE_MODEL_AMBIGUOUS,
};

/**
 * struct ftrace_func_model - BTF model of a traced function
 * @ip: the ftrace location this model belongs to
 * @btf: the BTF the type ids refer to (a reference is held); NULL for an
 *	unknown model
 * @flags: FTRACE_MODEL_* flags
 * @reason: an &enum ftrace_model_reason
 * @nr_args: number of entries in @args
 * @nr_words: number of words ftrace_args_read() stores for this model
 * @nr_stack: number of stack slots the arguments take (the highest slot
 *	used plus one), 0 when they all travel in registers
 * @ret: the return value; its class is %FTRACE_ARG_VOID for void
 * @args: the arguments, in declaration order
 *
 * Models are built by the ftrace core when an ops with
 * %FTRACE_OPS_FL_ARGS_ONLY enables the function, never on the tracing
 * path.  The core may replace or free a model at any time (its text goes
 * away, or a module's BTF arrives); the old one is freed after an RCU
 * grace period and an RCU Tasks Rude one, so a model is valid only inside
 * the section that ftrace_args_model() describes.
 * An unknown model has no arguments and @nr_words equal to
 * %FTRACE_ARGS_NR_REGS: ftrace_args_read() then copies the raw argument
 * registers.  Users only read models that ftrace_args_model() returns:
 * the core keeps its own bookkeeping (the cache, the source of each
 * word) around them.
 */
struct ftrace_func_model {
	unsigned long		ip;
	struct btf		*btf;
	u8			flags;
	u8			reason;
	u8			nr_args;
	u8			nr_words;
	u8			nr_stack;
	struct ftrace_arg_desc	ret;
	struct ftrace_arg_desc	args[];
};

#ifdef CONFIG_FTRACE_ARGS
const struct ftrace_func_model *ftrace_args_model(unsigned long ip);
unsigned int ftrace_args_read(const struct ftrace_func_model *model,
			      struct ftrace_regs *fregs, unsigned long *buf);
int ftrace_args_prepare(unsigned long ip);
const char *ftrace_args_reason_str(unsigned int reason);
#else
static inline const struct ftrace_func_model *
ftrace_args_model(unsigned long ip)
{
	return NULL;
}

static inline unsigned int
ftrace_args_read(const struct ftrace_func_model *model,
		 struct ftrace_regs *fregs, unsigned long *buf)
{
	return 0;
}

static inline int ftrace_args_prepare(unsigned long ip)
{
	return -EOPNOTSUPP;
}

static inline const char *ftrace_args_reason_str(unsigned int reason)
{
	return "";
}
#endif

/*
 * The function_graph tracer's funcgraph-args option: the arch's graph
 * entry publishes the registers of the call that it hands to the graph
 * entry handlers, with the call's ip, for as long as they run, while an
 * instance has the option on.  Preemption must be disabled around the
 * publication (ftrace's recursion lock does that); a nested entry (an
 * interrupt) puts the outer one back.  A handler uses the registers only
 * when the ip is that of its own call.
 */
struct ftrace_graph_args_pub {
	struct ftrace_regs	*fregs;
	unsigned long		ip;
};

#if defined(CONFIG_FUNCTION_ARGS_TRACER) && defined(CONFIG_FUNCTION_GRAPH_TRACER)
DECLARE_STATIC_KEY_FALSE(ftrace_graph_args_key);
DECLARE_PER_CPU(struct ftrace_graph_args_pub, ftrace_graph_args_pub);

static __always_inline bool ftrace_graph_args_active(void)
{
	return static_branch_unlikely(&ftrace_graph_args_key);
}

static __always_inline struct ftrace_graph_args_pub
ftrace_graph_args_publish(struct ftrace_regs *fregs, unsigned long ip)
{
	struct ftrace_graph_args_pub *pub = this_cpu_ptr(&ftrace_graph_args_pub);
	struct ftrace_graph_args_pub prev = *pub;

	pub->fregs = fregs;
	pub->ip = ip;
	return prev;
}

static __always_inline void
ftrace_graph_args_unpublish(struct ftrace_graph_args_pub prev)
{
	*this_cpu_ptr(&ftrace_graph_args_pub) = prev;
}
#else
static __always_inline bool ftrace_graph_args_active(void)
{
	return false;
}

static __always_inline struct ftrace_graph_args_pub
ftrace_graph_args_publish(struct ftrace_regs *fregs, unsigned long ip)
{
	return (struct ftrace_graph_args_pub){ };
}

static __always_inline void
ftrace_graph_args_unpublish(struct ftrace_graph_args_pub prev)
{
}
#endif

#endif /* _LINUX_FTRACE_ARGS_H */
