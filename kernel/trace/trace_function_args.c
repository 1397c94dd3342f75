// SPDX-License-Identifier: GPL-2.0
/*
 * function_args: the function tracer, with each call's arguments.
 *
 * The tracer uses the trace array's own ftrace_ops, like the function
 * tracer, so set_ftrace_filter, set_ftrace_notrace, set_ftrace_pid,
 * set_ftrace_notrace_pid, tracing_cpumask and instances all apply.  It sets
 * FTRACE_OPS_FL_ARGS_ONLY on that ops while it runs: the ftrace core then
 * builds a BTF model of every enabled function, and the callback only
 * copies the raw argument words (and, with the funcargs-strings option,
 * const char * strings) into the ring buffer.  Everything else happens
 * when the trace is read.
 *
 * The records are formatted in trace_function_args_print.c, the
 * call-through trampoline's handlers are in trace_function_args_ct.c and
 * the boot-time selftest in trace_function_args_selftest.c.
 */
#include <linux/ftrace_args.h>
#include <linux/ftrace.h>
#include <linux/uaccess.h>
#include <linux/percpu.h>
#include <asm/tlb.h>

#include "trace.h"
#include "trace_function_args.h"

static struct tracer_opt fargs_opts[] = {
	/* Record const char * arguments as strings */
	{ .name = "funcargs-strings", .bit = FARGS_OPT_STRINGS },
	/* Print every value as raw hex */
	{ .name = "funcargs-hex", .bit = FARGS_OPT_HEX },
	{ } /* Always set a last empty entry */
};

struct tracer_flags fargs_flags = {
	.val = 0,
	.opts = fargs_opts,
};

/*
 * Room for every string of one call, per CPU and per nesting level: a
 * record that interrupts another's copy takes the next area, as
 * ftrace_stack_reserve does for stack traces (an interrupt can nest in
 * the same context level through the recursion lock's transition bit).
 * A fifth level records no strings.
 */
#define FARGS_STR_AREA		(FTRACE_ARGS_MAX * (FARGS_STR_MAX + 1))
#define FARGS_CONTEXTS		4

struct fargs_str_buf {
	char	buf[FARGS_CONTEXTS][FARGS_STR_AREA];
};

static struct fargs_str_buf __percpu *fargs_str_bufs;
static DEFINE_PER_CPU(int, fargs_str_nest);

/* Give back the string area that fargs_record() took */
static __always_inline void fargs_str_put(void)
{
	/* The area is read before it is given back */
	barrier();
	__this_cpu_dec(fargs_str_nest);
}

static unsigned int fargs_copy_str(char *dst, unsigned long addr)
{
	char status, next;
	bool user;
	long len;

	if (!addr) {
		dst[0] = FARGS_STR_NULL;
		dst[1] = '\0';
		return 2;
	}

	user = addr < TASK_SIZE_MAX;
	/* As copy_from_user_nofault(): not in an NMI that came mid-switch */
	if (user && !nmi_uaccess_okay())
		len = -EFAULT;
	else if (user)
		len = strncpy_from_user_nofault(dst + 1,
						(const char __user *)addr,
						FARGS_STR_MAX);
	else
		len = strncpy_from_kernel_nofault(dst + 1, (const char *)addr,
						  FARGS_STR_MAX);
	if (len < 0) {
		dst[0] = FARGS_STR_FAULT;
		dst[1] = '\0';
		return 2;
	}
	/* The user copy counts no NUL for "": it wrote one at dst[1] */
	if (!len)
		len = 1;
	/*
	 * FARGS_STR_MAX is the length of a string of FARGS_STR_MAX - 1
	 * characters and of a longer one cut to them: the next byte tells.
	 */
	status = FARGS_STR_OK;
	if (len >= FARGS_STR_MAX) {
		addr += FARGS_STR_MAX - 1;
		if ((user ? copy_from_user_nofault(&next,
						   (const char __user *)addr, 1) :
			    copy_from_kernel_nofault(&next, (const char *)addr,
						     1)) || next)
			status = FARGS_STR_TRUNCATED;
	}
	dst[0] = status;
	return 1 + len;
}

/*
 * The flags of a record whose stack slots from @stack_ok on were not read
 * (they lie past the end of the stack), 0 when all of them were.
 */
static inline u16 fargs_stack_flags(const struct ftrace_func_model *model,
				    unsigned int stack_ok)
{
	if (likely(stack_ok >= model->nr_stack))
		return 0;
	return FARGS_FL_STACK_CUT | stack_ok << FARGS_STACK_SHIFT;
}

/* Copy the strings of the const char * arguments; returns the bytes used. */
static unsigned int fargs_copy_strings(const struct ftrace_func_model *model,
				       const unsigned long *words, u16 cut,
				       char *area, unsigned int *nr_strs)
{
	unsigned int i, len = 0;

	for (i = 0; i < model->nr_args; i++) {
		const struct ftrace_arg_desc *arg = &model->args[i];

		if (arg->class != FTRACE_ARG_STRING || fargs_arg_cut(cut, arg))
			continue;
		len += fargs_copy_str(area + len, words[arg->word]);
		(*nr_strs)++;
	}
	return len;
}

/*
 * The common case: a known model and no strings.  The record's size is
 * known before anything is read, so the words go straight into the ring
 * buffer.
 */
static __always_inline void
fargs_record_fast(struct trace_array *tr, const struct ftrace_func_model *model,
		  unsigned long ip, unsigned long parent_ip,
		  struct ftrace_regs *fregs, unsigned int trace_ctx)
{
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	struct ring_buffer_event *event;
	struct func_args_entry *entry;

	event = trace_buffer_lock_reserve(buffer, TRACE_FN_ARGS,
					  sizeof(*entry) +
					  model->nr_words * sizeof(long),
					  trace_ctx);
	if (!event)
		return;

	entry = ring_buffer_event_data(event);
	entry->ip = ip;
	entry->parent_ip = parent_ip;
	entry->nr_strs = 0;
	entry->nr_words = model->nr_words;
	entry->flags = fargs_stack_flags(model,
					 ftrace_args_read(model, fregs,
							  entry->args));
	trace_buffer_unlock_commit_nostack(buffer, event);
}

/**
 * fargs_record - write a record the general way
 * @tr: the instance
 * @model: the function's model, or NULL
 * @ip: the function
 * @parent_ip: its caller
 * @fregs: the registers at the function's entry, or NULL
 * @trace_ctx: from tracing_gen_ctx_dec()
 * @tail: words to store after the argument words, or NULL
 * @nr_tail: number of @tail words
 * @ct_flags: flags of a call-through record (%FARGS_FL_RET with the
 *	return value and duration in @tail, or %FARGS_FL_ENTRY_ONLY), for a
 *	usable model
 *
 * For unknown or missing models, records with strings, and the records of
 * the call-through trampoline.
 */
void fargs_record(struct trace_array *tr, const struct ftrace_func_model *model,
		  unsigned long ip, unsigned long parent_ip,
		  struct ftrace_regs *fregs, unsigned int trace_ctx,
		  const unsigned long *tail, unsigned int nr_tail, u16 ct_flags)
{
	unsigned long words[FTRACE_ARGS_WORDS_MAX];
	unsigned int nr = 0, nr_strs = 0, str_len = 0;
	struct ring_buffer_event *event;
	struct func_args_entry *entry;
	struct trace_buffer *buffer;
	char *strs = NULL;
	u16 flags = 0, cut = 0;
	int nest;

	if (model && fregs) {
		nr = model->nr_words;
		cut = fargs_stack_flags(model,
					ftrace_args_read(model, fregs, words));
		if (model->flags & FTRACE_MODEL_UNKNOWN)
			flags = FARGS_FL_RAW | model->reason << FARGS_REASON_SHIFT;
	} else if (fregs) {
		for (nr = 0; nr < FTRACE_ARGS_NR_REGS; nr++)
			words[nr] = ftrace_regs_get_argument(fregs, nr);
		flags = FARGS_FL_RAW | FARGS_FL_NO_MODEL;
	} else {
		flags = FARGS_FL_NO_MODEL;
	}

	if (!flags && model && !model->flags)
		flags = ct_flags;
	else
		nr_tail = 0;

	/* Strings would go where a call-through record has its tail. */
	if ((fargs_flags.val & FARGS_OPT_STRINGS) &&
	    !(flags & ~(FARGS_FL_ENTRY_ONLY | FARGS_FL_LOW_STACK)) &&
	    fargs_str_bufs) {
		nest = __this_cpu_inc_return(fargs_str_nest) - 1;
		/* The area is taken before it is written */
		barrier();
		if (nest < FARGS_CONTEXTS) {
			strs = this_cpu_ptr(fargs_str_bufs)->buf[nest];
			str_len = fargs_copy_strings(model, words, cut, strs,
						     &nr_strs);
		}
		if (nr_strs)
			flags |= FARGS_FL_STRINGS;
		else
			fargs_str_put();
	}
	/* Slots past the end of the stack print as <bad>. */
	flags |= cut;

	buffer = tr->array_buffer.buffer;
	event = trace_buffer_lock_reserve(buffer, TRACE_FN_ARGS,
					  sizeof(*entry) +
					  (nr + nr_tail) * sizeof(long) +
					  str_len, trace_ctx);
	if (!event) {
		if (flags & FARGS_FL_STRINGS)
			fargs_str_put();
		return;
	}

	entry = ring_buffer_event_data(event);
	entry->ip = ip;
	entry->parent_ip = parent_ip;
	entry->flags = flags;
	entry->nr_words = nr;
	entry->nr_strs = nr_strs;
	memcpy(entry->args, words, nr * sizeof(long));
	if (nr_tail)
		memcpy(&entry->args[nr], tail, nr_tail * sizeof(long));
	if (flags & FARGS_FL_STRINGS) {
		memcpy(&entry->args[nr], strs, str_len);
		fargs_str_put();
	}
	trace_buffer_unlock_commit_nostack(buffer, event);
}

/**
 * fargs_call - record one call with its arguments
 * @ip: the function
 * @parent_ip: its caller
 * @op: the instance's ftrace_ops, with %FTRACE_OPS_FL_ARGS_ONLY
 * @fregs: the registers at the function's entry
 *
 * The callback of the function_args tracer, and of the function tracer
 * with its func-args option (trace_functions.c).
 */
void fargs_call(unsigned long ip, unsigned long parent_ip,
		struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	const struct ftrace_func_model *model;
	struct trace_array *tr = op->private;
	unsigned int trace_ctx;
	int bit;

	if (unlikely(!tr->function_enabled))
		return;

	/*
	 * tr->ops has no FTRACE_OPS_FL_RECURSION, so ftrace_ops_get_func()
	 * gives ftrace this function itself, not ftrace_ops_assist_func():
	 * when it is the only ops of a function, it runs preemptible and
	 * without ftrace's recursion lock, which it takes here (that also
	 * disables preemption).
	 */
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;

	/*
	 * The call-through trampoline records these calls itself.  Its map
	 * is read under RCU: only with preemption disabled.
	 */
	if (fargs_ct_serves(ip, tr))
		goto out;

	trace_ctx = tracing_gen_ctx_dec();
	if (atomic_read(&this_cpu_ptr(tr->array_buffer.data)->disabled))
		goto out;

	model = ftrace_args_model(ip);
	if (likely(model && fregs && !model->flags &&
		   !(fargs_flags.val & FARGS_OPT_STRINGS)))
		fargs_record_fast(tr, model, ip, parent_ip, fregs, trace_ctx);
	else
		fargs_record(tr, model, ip, parent_ip, fregs, trace_ctx, NULL, 0,
			     0);
out:
	ftrace_test_recursion_unlock(bit);
}

/* ---- tracer ---------------------------------------------------------- */

/* error_log keeps a pointer to the message: it must be static. */
static const char * const fargs_errs[] = {
	"No selected function has a BTF model",
};

/*
 * When a filter is set and not one of its functions has a usable model,
 * the tracer would print nothing but raw registers: refuse, and say why.
 */
static int fargs_check_filter(struct trace_array *tr)
{
	struct ftrace_ops *ops = tr->ops;
	struct ftrace_func_entry *entry;
	struct ftrace_hash *hash;
	const struct ftrace_func_model *model;
	unsigned long first_ip = 0;
	int i, ret = 0;
	bool usable = false;

	/* An ops whose filter files were never opened has no filter yet. */
	if (!(smp_load_acquire(&ops->flags) & FTRACE_OPS_FL_INITIALIZED))
		return 0;

	mutex_lock(&ops->func_hash->regex_lock);
	hash = ops->func_hash->filter_hash;
	/* No filter, or only ":mod:" filters of modules not loaded yet */
	if (ftrace_hash_empty(hash) || !hash->count)
		goto out;

	for (i = 0; i < (1 << hash->size_bits) && !usable; i++) {
		hlist_for_each_entry(entry, &hash->buckets[i], hlist) {
			if (ftrace_args_prepare(entry->ip))
				continue;
			if (!first_ip)
				first_ip = entry->ip;
			rcu_read_lock();
			model = ftrace_args_model(entry->ip);
			usable = model && !(model->flags & FTRACE_MODEL_UNKNOWN);
			rcu_read_unlock();
			if (usable)
				break;
		}
	}
	if (!usable) {
		char msg[KSYM_SYMBOL_LEN + 32];

		snprintf(msg, sizeof(msg), "e.g. %ps", (void *)first_ip);
		tracing_log_err(tr, "function_args", msg, (const char **)fargs_errs,
				0, 0);
		ret = -ENOENT;
	}
out:
	mutex_unlock(&ops->func_hash->regex_lock);
	return ret;
}

static int fargs_init(struct trace_array *tr)
{
	int ret;

	/* Instances get their ops when they are created. */
	if (!tr->ops)
		return -ENOMEM;

	ret = fargs_check_filter(tr);
	if (ret)
		return ret;

	tr->ops->flags |= FTRACE_OPS_FL_ARGS_ONLY;
	ftrace_init_array_ops(tr, fargs_call);
	tr->array_buffer.cpu = raw_smp_processor_id();

	tracing_start_cmdline_record();
	tr->function_enabled = 0;
	ret = register_ftrace_function(tr->ops);
	if (ret)
		goto out;
	ret = fargs_ct_start(tr);
	if (ret) {
		unregister_ftrace_function(tr->ops);
		goto out;
	}
	tr->function_enabled = 1;
	return 0;
out:
	tracing_stop_cmdline_record();
	ftrace_reset_array_ops(tr);
	tr->ops->flags &= ~FTRACE_OPS_FL_ARGS_ONLY;
	return ret;
}

static void fargs_reset(struct trace_array *tr)
{
	tr->function_enabled = 0;
	fargs_ct_stop(tr);
	unregister_ftrace_function(tr->ops);
	tracing_stop_cmdline_record();
	ftrace_reset_array_ops(tr);
	tr->ops->flags &= ~FTRACE_OPS_FL_ARGS_ONLY;
}

static void fargs_start(struct trace_array *tr)
{
	tracing_reset_online_cpus(&tr->array_buffer);
}

static int fargs_set_flag(struct trace_array *tr, u32 old_flags, u32 bit,
			  int set)
{
	/* Both options take effect on the next record or read. */
	return 0;
}

static struct tracer fargs_tracer __tracer_data = {
	.name		= "function_args",
	.init		= fargs_init,
	.reset		= fargs_reset,
	.start		= fargs_start,
	.flags		= &fargs_flags,
	.set_flag	= fargs_set_flag,
	.allow_instances = true,
#ifdef CONFIG_FTRACE_STARTUP_TEST
	.selftest	= fargs_selftest,
#endif
};

static __init int init_function_args_trace(void)
{
	fargs_str_bufs = alloc_percpu(struct fargs_str_buf);
	if (!fargs_str_bufs)
		pr_warn("function_args: no string buffers, funcargs-strings is off\n");

	if (!register_trace_event(&fargs_event)) {
		pr_warn("function_args: cannot register the output event\n");
		return -EBUSY;
	}
	return register_tracer(&fargs_tracer);
}
core_initcall(init_function_args_trace);
