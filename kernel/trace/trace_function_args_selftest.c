// SPDX-License-Identifier: GPL-2.0
/*
 * function_args: the boot-time selftest (CONFIG_FTRACE_STARTUP_TEST).
 *
 * register_tracer() runs fargs_selftest() when the tracer registers.  It
 * traces the targets in trace_function_args_selftest_dynamic.c, which is
 * built with the ftrace flags, and checks the records (register, struct
 * and stack arguments, the three kinds of string), the reads at the end
 * of the stack, the model of a struct returned in memory, how a cut stack
 * argument and a struct returned in memory print, and that an
 * argument-only ops cannot ask for the full pt_regs.
 */
#include <linux/ftrace_args.h>
#include <linux/ftrace.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>

#include "trace.h"
#include "trace_function_args.h"

/*
 * The selftest calls the target three times; the sixth argument (a stack
 * argument) tells the calls apart: 17 passes a string, 18 a pointer that
 * faults, 19 NULL.
 */
static __init bool fargs_selftest_record_ok(struct func_args_entry *entry)
{
	static const u8 status[] = { FARGS_STR_OK, FARGS_STR_FAULT,
				     FARGS_STR_NULL };
	const char *str = (const char *)&entry->args[entry->nr_words];
	unsigned long f = entry->args[6];

	if (entry->flags != FARGS_FL_STRINGS || entry->nr_words != 8 ||
	    entry->nr_strs != 1 || f < 17 || f > 19)
		return false;
	if (entry->args[0] != -5UL || (u32)entry->args[1] != 7 ||
	    (u8)entry->args[2] != 1 || entry->args[4] != 11 ||
	    entry->args[5] != -13UL || (s16)entry->args[7] != -19)
		return false;
	if (str[0] != status[f - 17])
		return false;
	return f != 17 || !strcmp(str + 1, "selftest");
}

static __init int fargs_selftest_check(struct trace_array *tr, unsigned long ip)
{
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	struct ring_buffer_event *event;
	struct func_args_entry *entry;
	int cpu, found = 0;

	for_each_online_cpu(cpu) {
		while ((event = ring_buffer_consume(buffer, cpu, NULL, NULL))) {
			entry = ring_buffer_event_data(event);
			if (entry->ent.type != TRACE_FN_ARGS || entry->ip != ip)
				continue;
			if (!fargs_selftest_record_ok(entry)) {
				pr_err("function_args selftest: bad record: flags %x words %u\n",
				       entry->flags, entry->nr_words);
				return -EINVAL;
			}
			found++;
		}
	}
	if (found != 3) {
		pr_err("function_args selftest: %d records for the target\n",
		       found);
		return -EINVAL;
	}
	return 0;
}

/*
 * ftrace_args_read() as a callback runs it: with preemption disabled.  The
 * stack bounds it checks come from per-CPU data (get_stack_info_noinstr()
 * reads the IRQ and entry stacks of this CPU).
 */
static __init unsigned int
fargs_selftest_read(const struct ftrace_func_model *model,
		    struct ftrace_regs *fregs, unsigned long *words)
{
	guard(preempt)();
	return ftrace_args_read(model, fregs, words);
}

/*
 * Stack arguments are read only within the stack: pretend the target was
 * entered with its return address in the last word but one of this task's
 * stack.  Its first stack argument (f) is then in the last word and read,
 * its second (g) past the end and not.  A stack pointer on no stack reads
 * none.
 */
static __init int fargs_selftest_stack_end(unsigned long ip)
{
	unsigned long *top = task_stack_page(current) + THREAD_SIZE;
	static unsigned long not_a_stack[4] __initdata = { 1, 2, 3, 4 };
	unsigned long words[FTRACE_ARGS_WORDS_MAX];
	const struct ftrace_func_model *model;
	struct __arch_ftrace_regs regs = {};
	struct ftrace_regs *fregs = (struct ftrace_regs *)&regs;
	int ret = -EINVAL;

	rcu_read_lock();
	model = ftrace_args_model(ip);
	if (!model || model->nr_stack != 2 || model->nr_words != 8)
		goto out;
	regs.regs.sp = (unsigned long)(top - 2);
	if (fargs_selftest_read(model, fregs, words) != 1 ||
	    words[6] != top[-1] || words[7])
		goto out;
	regs.regs.sp = (unsigned long)not_a_stack;
	if (fargs_selftest_read(model, fregs, words) != 0 || words[6] ||
	    words[7])
		goto out;
	ret = 0;
out:
	rcu_read_unlock();
	if (ret)
		pr_err("function_args selftest: stack arguments read past the stack\n");
	return ret;
}

/*
 * A struct larger than 16 bytes comes back in memory: the model returns
 * the pointer the caller passes in %rdi, and reads the arguments from %rsi
 * on.
 */
static __init int fargs_selftest_ret_mem(void)
{
	unsigned long ip = ftrace_location((unsigned long)fargs_selftest_big_ret);
	unsigned long words[FTRACE_ARGS_WORDS_MAX];
	const struct ftrace_func_model *model;
	struct __arch_ftrace_regs regs = {};
	int ret = -EINVAL;

	if (!ip || ftrace_args_prepare(ip))
		goto err;
	regs.regs.di = 0x1000;
	regs.regs.si = 11;
	regs.regs.dx = 13;
	rcu_read_lock();
	model = ftrace_args_model(ip);
	/* pahole may leave out a function whose registers look unusual. */
	if (model && model->reason == FTRACE_MODEL_NO_BTF) {
		pr_info("function_args selftest: no BTF for %ps, not checked\n",
			(void *)ip);
		ret = 0;
	} else if (model && !model->flags && model->nr_args == 2 &&
	    model->nr_words == 2 && !model->nr_stack &&
	    model->ret.loc == FTRACE_ARG_LOC_RET_MEM &&
	    model->ret.class == FTRACE_ARG_POINTER &&
	    model->args[0].slot == 1 && model->args[1].slot == 2) {
		fargs_selftest_read(model, (struct ftrace_regs *)&regs, words);
		if (words[0] == 11 && words[1] == 13)
			ret = 0;
	}
	rcu_read_unlock();
err:
	if (ret)
		pr_err("function_args selftest: bad model for a struct returned in memory\n");
	return ret;
}

/*
 * Print @entry as the trace file would, into @iter's seq; false when the
 * line does not hold @want.
 */
static __init bool fargs_selftest_prints(struct trace_iterator *iter,
					 struct func_args_entry *entry,
					 unsigned int nr, const char *want)
{
	char *buf = iter->seq.buffer, *nl;

	trace_seq_init(&iter->seq);
	entry->ent.type = TRACE_FN_ARGS;
	iter->ent = &entry->ent;
	iter->ent_size = sizeof(*entry) + nr * sizeof(long);
	fargs_event.funcs->trace(iter, 0, &fargs_event);
	trace_seq_putc(&iter->seq, '\0');
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	if (strstr(buf, want))
		return true;
	pr_err("function_args selftest: printed \"%s\", expected \"%s\" in it\n",
	       buf, want);
	return false;
}

/*
 * The output of the two kinds of value that no traced call can make on
 * demand: a stack argument past the end of the stack prints as <bad>
 * (the record that fargs_selftest_stack_end()'s first read makes), and a
 * struct returned in memory prints as the pointer to it, with its type.
 */
static __init int fargs_selftest_print(struct trace_array *tr,
				       unsigned long ip)
{
	unsigned long big = ftrace_location((unsigned long)fargs_selftest_big_ret);
	/* Any value: the pointer is printed, never read */
	const unsigned long ret_buf = 0xffff888000123450UL;
	const struct ftrace_func_model *model;
	struct trace_iterator *iter;
	struct func_args_entry *entry;
	char want[80];
	bool no_btf;
	int ret = -EINVAL;

	iter = kzalloc(sizeof(*iter), GFP_KERNEL);
	entry = kzalloc(sizeof(*entry) + 16 * sizeof(long), GFP_KERNEL);
	if (!iter || !entry) {
		ret = -ENOMEM;
		goto out;
	}
	iter->tr = tr;

	/* f, the first stack slot, was read; g, the second, was not */
	entry->ip = ip;
	entry->flags = FARGS_FL_STACK_CUT | 1 << FARGS_STACK_SHIFT;
	entry->nr_words = 8;
	entry->args[4] = 11;
	entry->args[5] = -13;
	entry->args[6] = 17;
	if (!fargs_selftest_prints(iter, entry, 8, ", f=17, g=<bad>)"))
		goto out;

	/* pahole may leave it out: fargs_selftest_ret_mem() said so */
	rcu_read_lock();
	model = ftrace_args_model(big);
	no_btf = model && model->reason == FTRACE_MODEL_NO_BTF;
	rcu_read_unlock();
	if (no_btf) {
		ret = 0;
		goto out;
	}

	/* A call-through record: %rax holds the caller's buffer */
	memset(entry, 0, sizeof(*entry) + 16 * sizeof(long));
	entry->ip = big;
	entry->flags = FARGS_FL_RET;
	entry->nr_words = 2;
	entry->args[0] = 3;
	entry->args[1] = 4;
	entry->args[2] = ret_buf;
	entry->args[4] = 1500;
	snprintf(want, sizeof(want),
		 "(a=3, b=4) = (struct fargs_selftest_big *)0x%lx (1.500 us)",
		 ret_buf);
	if (fargs_selftest_prints(iter, entry, 2 + FARGS_RET_WORDS, want))
		ret = 0;
out:
	kfree(entry);
	kfree(iter);
	return ret;
}

/* An argument-only ops must not be able to ask for the full pt_regs. */
static struct ftrace_ops fargs_selftest_regs_ops __initdata = {
	.func	= ftrace_stub,
	.flags	= FTRACE_OPS_FL_ARGS_ONLY | FTRACE_OPS_FL_SAVE_REGS,
};

/*
 * The call-through trampoline enters a function only when less than a
 * quarter of the stack is left: near the bottom of this task's stack that
 * is so, near its top not, and a pointer on no stack counts as low.
 */
static __init int fargs_selftest_ct_stack(void)
{
#ifdef CONFIG_FUNCTION_ARGS_CALLTHROUGH
	unsigned long *base = task_stack_page(current);
	static unsigned long not_a_stack[4] __initdata;

	if (!fargs_ct_stack_low(base + 8) ||
	    fargs_ct_stack_low(base + THREAD_SIZE / sizeof(long) - 8) ||
	    !fargs_ct_stack_low(not_a_stack)) {
		pr_err("function_args selftest: call-through stack check\n");
		return -EINVAL;
	}
#endif
	return 0;
}

__init int fargs_selftest(struct tracer *trace, struct trace_array *tr)
{
	static const char name[] = "fargs_selftest_target";
	struct fargs_selftest_pair pair = { .lo = 11, .hi = -13 };
	u32 saved_flags = fargs_flags.val;
	unsigned long ip;
	int ret;

	ret = register_ftrace_function(&fargs_selftest_regs_ops);
	if (ret != -EINVAL) {
		pr_err("function_args selftest: ARGS_ONLY with SAVE_REGS registered (%d)\n",
		       ret);
		if (!ret)
			unregister_ftrace_function(&fargs_selftest_regs_ops);
		return -EINVAL;
	}

	ip = ftrace_location((unsigned long)fargs_selftest_target);
	if (!ip) {
		pr_err("function_args selftest: target not traceable\n");
		return -ENODEV;
	}

	ret = ftrace_set_filter(tr->ops, (unsigned char *)name, strlen(name), 1);
	if (ret)
		return ret;

	fargs_flags.val |= FARGS_OPT_STRINGS;
	ret = tracer_init(trace, tr);
	if (ret) {
		pr_err("function_args selftest: init failed (%d)\n", ret);
		goto out;
	}

	/* In another file, built with ftrace flags: no inlining here. */
	fargs_selftest_target(-5, 7, true, "selftest", pair, 17, -19);
	fargs_selftest_target(-5, 7, true, (const char *)16, pair, 18, -19);
	fargs_selftest_target(-5, 7, true, NULL, pair, 19, -19);

	tracing_stop();
	ret = fargs_selftest_check(tr, ip);
	trace->reset(tr);
	tracing_start();
	if (!ret)
		ret = fargs_selftest_stack_end(ip);
	if (!ret)
		ret = fargs_selftest_ret_mem();
	if (!ret)
		ret = fargs_selftest_print(tr, ip);
	if (!ret)
		ret = fargs_selftest_ct_stack();
out:
	fargs_flags.val = saved_flags;
	ftrace_set_filter(tr->ops, NULL, 0, 1);
	return ret;
}
