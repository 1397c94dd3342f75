/* SPDX-License-Identifier: GPL-2.0 */
/*
 * function_args: what the tracer (trace_function_args.c), its output
 * (trace_function_args_print.c), its call-through handlers
 * (trace_function_args_ct.c) and its selftest
 * (trace_function_args_selftest.c) share, and the record layout.
 */
#ifndef _TRACE_FUNCTION_ARGS_H
#define _TRACE_FUNCTION_ARGS_H

#include <linux/types.h>
#include <linux/ftrace.h>
#include <linux/ftrace_args.h>
#include <linux/jump_label.h>

#include "trace.h"

/*
 * func_args_entry flags.  The low byte holds the bits below, the high
 * byte the enum ftrace_model_reason of an unknown model (FARGS_FL_RAW), or
 * the number of stack slots that were read (FARGS_FL_STACK_CUT).  The
 * layout is ABI for tools that read the ring buffer: keep it stable.
 */
#define FARGS_FL_STRINGS	0x01	/* string area follows the words */
#define FARGS_FL_RAW		0x02	/* words are raw argument registers */
#define FARGS_FL_NO_MODEL	0x04	/* no model was built for the ip */
#define FARGS_FL_RET		0x08	/* call-through: return value and duration */
#define FARGS_FL_ENTRY_ONLY	0x10	/* call-through refused: stack arguments */
#define FARGS_FL_STACK_CUT	0x20	/* stack slots past the stack's end */
#define FARGS_FL_LOW_STACK	0x40	/* with ENTRY_ONLY: little stack left */
#define FARGS_REASON_SHIFT	8
#define FARGS_STACK_SHIFT	8

/* Status byte in front of each recorded string */
enum fargs_str_status {
	FARGS_STR_OK,
	FARGS_STR_TRUNCATED,
	FARGS_STR_FAULT,
	FARGS_STR_NULL,
};

/* Longest string recorded, in bytes with the terminating NUL. */
#define FARGS_STR_MAX		128

/*
 * A call-through record (FARGS_FL_RET) has these words after the argument
 * words: the return value (two words, %rax then %rdx) and the duration in
 * nanoseconds.
 */
#define FARGS_RET_WORDS		3

/* Tracer options (fargs_flags.val) */
enum {
	FARGS_OPT_STRINGS	= 0x1,
	FARGS_OPT_HEX		= 0x2,
};

struct trace_array;
struct trace_event;
struct tracer;
struct tracer_flags;

extern struct tracer_flags fargs_flags;
/* The output of func_args records (trace_function_args_print.c) */
extern struct trace_event fargs_event;

/* Is @arg in a stack slot that a record with @flags did not read? */
static inline bool fargs_arg_cut(u16 flags, const struct ftrace_arg_desc *arg)
{
	unsigned int words = DIV_ROUND_UP(arg->size, sizeof(long));

	return (flags & FARGS_FL_STACK_CUT) &&
	       arg->loc == FTRACE_ARG_LOC_STACK &&
	       arg->slot + words > flags >> FARGS_STACK_SHIFT;
}

void fargs_call(unsigned long ip, unsigned long parent_ip,
		struct ftrace_ops *op, struct ftrace_regs *fregs);
void fargs_record(struct trace_array *tr, const struct ftrace_func_model *model,
		  unsigned long ip, unsigned long parent_ip,
		  struct ftrace_regs *fregs, unsigned int trace_ctx,
		  const unsigned long *tail, unsigned int nr_tail, u16 ct_flags);

/*
 * The frame of the call-through trampoline (ftrace_callthrough_64.S keeps
 * the same offsets): ftrace_regs as ftrace_caller fills them (the argument
 * registers, %rax, ip, sp and %rbp), the return value, and the entry time.
 */
struct fargs_ct_frame {
	struct __arch_ftrace_regs	regs;
	unsigned long			ret[2];
	u64				t0;
};

#ifdef CONFIG_FUNCTION_ARGS_CALLTHROUGH
void fargs_ct_tramp(void);
int fargs_ct_entry(struct fargs_ct_frame *frame, unsigned long *rp);
void fargs_ct_exit(struct fargs_ct_frame *frame, unsigned long *rp);
bool fargs_ct_stack_low(unsigned long *sp);
/* Called by the tracer: */
int fargs_ct_start(struct trace_array *tr);
void fargs_ct_stop(struct trace_array *tr);
bool __fargs_ct_serves(unsigned long ip, struct trace_array *tr);
DECLARE_STATIC_KEY_FALSE(fargs_ct_active);

/* Does the call-through trampoline record @ip into @tr itself? */
static __always_inline bool fargs_ct_serves(unsigned long ip,
					    struct trace_array *tr)
{
	return static_branch_unlikely(&fargs_ct_active) &&
	       __fargs_ct_serves(ip, tr);
}
#else
static inline int fargs_ct_start(struct trace_array *tr)
{
	return 0;
}

static inline void fargs_ct_stop(struct trace_array *tr)
{
}

static inline bool fargs_ct_serves(unsigned long ip, struct trace_array *tr)
{
	return false;
}
#endif

/* ---- funcgraph-args (trace_function_args_graph.c) ------------------- */
/*
 * A function_graph entry as the graph output keeps it while it looks ahead
 * for the return: the entry and the argument words that funcgraph-args
 * recorded after it (the entry is packed: the words are unaligned).
 * Every entry that the graph output prints goes through one.
 */
struct fgraph_saved_ent {
	unsigned long	room[DIV_ROUND_UP(sizeof(struct ftrace_graph_ent_entry),
					  sizeof(long)) + FTRACE_ARGS_WORDS_MAX];
	unsigned int	nr_args;
};

static inline struct ftrace_graph_ent_entry *
fgraph_saved_entry(struct fgraph_saved_ent *sv)
{
	return (struct ftrace_graph_ent_entry *)sv->room;
}

/* @size: the entry's size in the ring buffer */
static inline void fgraph_save_ent(struct fgraph_saved_ent *sv,
				   const struct ftrace_graph_ent_entry *ent,
				   unsigned int size)
{
	unsigned int nr = 0;

	if (size > sizeof(*ent))
		nr = min_t(unsigned int, (size - sizeof(*ent)) / sizeof(long),
			   FTRACE_ARGS_WORDS_MAX);
	memcpy(sv->room, ent, sizeof(*ent) + nr * sizeof(long));
	sv->nr_args = nr;
}

struct fgraph_ops;

#if defined(CONFIG_FUNCTION_ARGS_TRACER) && defined(CONFIG_FUNCTION_GRAPH_TRACER)
void fgraph_args_start(struct trace_array *tr, bool on);
void fgraph_args_stop(struct trace_array *tr);
int fgraph_args_entry(struct trace_array *tr, struct ftrace_graph_ent *trace,
		      unsigned int trace_ctx);
void fgraph_args_print(struct trace_seq *s, struct fgraph_saved_ent *sv,
		       unsigned long func);

/* Does this instance's graph ops record the arguments? */
static inline bool fgraph_args_wanted(struct fgraph_ops *gops)
{
	return gops->ops.flags & FTRACE_OPS_FL_ARGS_ONLY;
}
#else
static inline void fgraph_args_start(struct trace_array *tr, bool on)
{
}

static inline void fgraph_args_stop(struct trace_array *tr)
{
}

static inline int fgraph_args_entry(struct trace_array *tr,
				    struct ftrace_graph_ent *trace,
				    unsigned int trace_ctx)
{
	return 0;
}

static inline void fgraph_args_print(struct trace_seq *s,
				     struct fgraph_saved_ent *sv,
				     unsigned long func)
{
	trace_seq_printf(s, "%ps()", (void *)func);
}

static inline bool fgraph_args_wanted(struct fgraph_ops *gops)
{
	return false;
}
#endif

#ifdef CONFIG_FTRACE_STARTUP_TEST
/* The tracer's selftest (trace_function_args_selftest.c) */
int fargs_selftest(struct tracer *trace, struct trace_array *tr);

/* Its targets (trace_function_args_selftest_dynamic.c) */
struct fargs_selftest_pair {
	long	lo;
	long	hi;
};

long fargs_selftest_target(long a, unsigned int b, bool c, const char *d,
			   struct fargs_selftest_pair e, long f, short g);

/* Too large for %rax:%rdx: returned through a pointer in %rdi */
struct fargs_selftest_big {
	long	w[3];
};

struct fargs_selftest_big fargs_selftest_big_ret(long a, long b);
#endif

#endif /* _TRACE_FUNCTION_ARGS_H */
