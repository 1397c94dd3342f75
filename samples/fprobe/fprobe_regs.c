// SPDX-License-Identifier: GPL-2.0
/*
 * The registers that an fprobe's entry handler gets, with and without
 * FPROBE_FL_FULL_REGS (Documentation/trace/fprobe.rst).
 *
 *   # modprobe fprobe_regs symbol=vfs_read flags=0
 *   # cat /sys/module/fprobe_regs/parameters/regs
 *   ip=vfs_read+0x9/0x270 cs=0x0 flags=0x2 bx=0x0 r12=0x0
 *
 * flags is the fprobe's: 0 for the partial register save, where the
 * registers that ftrace_caller does not save read 0 (flags reads
 * X86_EFLAGS_FIXED); FPROBE_FL_KPROBE_SHARED (2) or FPROBE_FL_FULL_REGS
 * (4) for every register (cs is __KERNEL_CS then).  regs shows the first
 * call only, "none" before it.  x86-64 only: it prints registers that
 * only x86-64's pt_regs has.
 */
#include <linux/atomic.h>
#include <linux/fprobe.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/ptrace.h>

static char symbol[KSYM_NAME_LEN] = "vfs_read";
module_param_string(symbol, symbol, sizeof(symbol), 0444);
MODULE_PARM_DESC(symbol, "the function to probe (a wildcard pattern)");

static unsigned int probe_flags;
module_param_named(flags, probe_flags, uint, 0444);
MODULE_PARM_DESC(flags, "the fprobe's flags: 2 KPROBE_SHARED, 4 FULL_REGS");

static struct fprobe regs_probe;
static atomic_t taken;
static int seen;
static struct pt_regs first;

static int fr_entry(struct fprobe *fp, unsigned long entry_ip,
		    unsigned long ret_ip, struct pt_regs *regs, void *data)
{
	if (!regs || atomic_cmpxchg(&taken, 0, 1))
		return 0;
	first = *regs;
	/* first is complete before seen: pairs with regs_get()'s acquire */
	smp_store_release(&seen, 1);
	return 0;
}

/* The registers may be kernel addresses: root only */
static int regs_get(char *buf, const struct kernel_param *kp)
{
	/* pairs with fr_entry()'s release: first is written before seen */
	if (!smp_load_acquire(&seen))
		return scnprintf(buf, PAGE_SIZE, "none\n");
	return scnprintf(buf, PAGE_SIZE,
			 "ip=%pS cs=0x%x flags=0x%lx bx=0x%lx r12=0x%lx\n",
			 (void *)first.ip, first.cs, first.flags, first.bx,
			 first.r12);
}

/* Read-only, also on the modprobe command line */
static int regs_set(const char *val, const struct kernel_param *kp)
{
	return -EPERM;
}

static const struct kernel_param_ops regs_ops = {
	.set = regs_set,
	.get = regs_get,
};
module_param_cb(regs, &regs_ops, NULL, 0400);
MODULE_PARM_DESC(regs, "the entry handler's registers in the first call");

static int __init fprobe_regs_init(void)
{
	if (probe_flags & ~(FPROBE_FL_KPROBE_SHARED | FPROBE_FL_FULL_REGS))
		return -EINVAL;
	regs_probe.entry_handler = fr_entry;
	regs_probe.flags = probe_flags;
	return register_fprobe(&regs_probe, symbol, NULL);
}

static void __exit fprobe_regs_exit(void)
{
	unregister_fprobe(&regs_probe);
}

module_init(fprobe_regs_init);
module_exit(fprobe_regs_exit);
MODULE_DESCRIPTION("The registers that an fprobe's entry handler gets");
MODULE_LICENSE("GPL");
