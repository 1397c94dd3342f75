// SPDX-License-Identifier: GPL-2.0
/*
 * An argument-aware ftrace_ops: it reads one argument of one function, by
 * name, through the function's BTF model
 * (Documentation/trace/function-args.rst, "Reading arguments").
 *
 *   # modprobe ftrace-args-sample func=vfs_read arg=count
 *   # sh -c 'echo $$ > /sys/module/ftrace_args_sample/parameters/pid;
 *            exec dd if=/etc/hostname of=/dev/null bs=3000 count=1'
 *   # cat /sys/module/ftrace_args_sample/parameters/last
 *   3000
 *
 * hits counts the calls of the process that pid names (of every process
 * while it is 0), last holds the argument's word in the latest one (an
 * argument of up to 8 bytes: a pointer or an integer).
 */
#include <linux/ftrace_args.h>
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>

static char func[KSYM_NAME_LEN] = "vfs_read";
module_param_string(func, func, sizeof(func), 0444);
MODULE_PARM_DESC(func, "the function to trace");

static char arg[KSYM_NAME_LEN] = "count";
module_param_string(arg, arg, sizeof(arg), 0444);
MODULE_PARM_DESC(arg, "the name of the argument to read");

static int pid;
module_param(pid, int, 0644);
MODULE_PARM_DESC(pid, "read the calls of this process only (0: of every process)");

static unsigned long hits;
module_param(hits, ulong, 0444);
MODULE_PARM_DESC(hits, "calls that had the argument");

/* An argument may be a kernel pointer: root only */
static unsigned long last;
module_param(last, ulong, 0400);
MODULE_PARM_DESC(last, "the argument in the latest call");

static void my_use(const char *name, const unsigned long *word)
{
	if (strcmp(name, arg))
		return;
	WRITE_ONCE(last, *word);
	WRITE_ONCE(hits, READ_ONCE(hits) + 1);
}

static void my_callback(unsigned long ip, unsigned long parent_ip,
			struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	unsigned long words[FTRACE_ARGS_WORDS_MAX];
	const struct ftrace_func_model *model;
	unsigned int i;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (READ_ONCE(pid) && task_tgid_nr(current) != READ_ONCE(pid))
		goto out;
	model = ftrace_args_model(ip);
	if (!model || (model->flags & FTRACE_MODEL_UNKNOWN))
		goto out;
	ftrace_args_read(model, fregs, words);
	for (i = 0; i < model->nr_args; i++)
		my_use(model->args[i].name, &words[model->args[i].word]);
out:
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops my_ops = {
	.func	= my_callback,
	.flags	= FTRACE_OPS_FL_ARGS_ONLY,
};

static int __init ftrace_args_sample_init(void)
{
	int ret;

	ret = ftrace_set_filter(&my_ops, func, strlen(func), 0);
	if (ret)
		return ret;
	ret = register_ftrace_function(&my_ops);
	if (ret)
		ftrace_free_filter(&my_ops);
	return ret;
}

static void __exit ftrace_args_sample_exit(void)
{
	unregister_ftrace_function(&my_ops);
	ftrace_free_filter(&my_ops);
}

module_init(ftrace_args_sample_init);
module_exit(ftrace_args_sample_exit);

MODULE_DESCRIPTION("Sample: read a function's argument by name with an argument-aware ftrace_ops");
MODULE_LICENSE("GPL");
