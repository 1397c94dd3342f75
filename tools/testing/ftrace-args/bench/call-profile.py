# SPDX-License-Identifier: GPL-2.0
#
# gdb script of call-profile: count, function by function, the guest
# instructions that one call of the bench's attach point executes,
# probes and trampolines included.
#
# gdb runs it against QEMU's gdbstub (TCG single-steps one guest
# instruction at a time, with interrupts and timers masked).  It waits
# for the attach point to be called, records the stack pointer and the
# return address, and steps until the call returns there.  It does that
# for FTA_PROF_CALLS calls (each one after FTA_PROF_SKIP more calls) and
# prints, for the shortest, one line per function:
#	insns FUNCTION
# then "total N", "calls C", and "spread MIN MAX" over the calls.  A
# program counter with no symbol in vmlinux is an ftrace trampoline or a
# BPF program (both live in execmem): "[no-symbol:trampoline-or-BPF]".
# With FTA_PROF_TRACE=FILE, FILE gets the instructions of that call.
import os
import gdb

func = os.environ.get("FTA_PROF_FUNC", "bpf_get_numa_node_id")
ncalls = int(os.environ.get("FTA_PROF_CALLS", "3"))
skip = int(os.environ.get("FTA_PROF_SKIP", "1000"))
out = os.environ["FTA_PROF_OUT"]
limit = 100000

gdb.execute("set pagination off")
gdb.execute("set confirm off")
# vm-run starts QEMU after its own checks: give it time
gdb.execute("set tcp connect-timeout 120")
gdb.execute("target remote " + os.environ["FTA_PROF_GDB"])
bp = gdb.Breakpoint("*" + str(int(gdb.parse_and_eval("&" + func))), type=gdb.BP_HARDWARE_BREAKPOINT)


def reg(name):
    return int(gdb.parse_and_eval("$" + name)) & 0xffffffffffffffff


def one_call():
    sp = reg("sp")
    ret = int(gdb.parse_and_eval("*(unsigned long *)$sp")) & 0xffffffffffffffff
    pcs = []
    while len(pcs) < limit:
        pc = reg("pc")
        if pc == ret and reg("sp") == sp + 8:
            return pcs
        pcs.append(pc)
        gdb.execute("stepi", to_string=True)
    raise gdb.GdbError("call-profile: no return after %d instructions" % limit)


names = {}


def name(pc):
    if pc not in names:
        s = gdb.execute("info symbol 0x%x" % pc, to_string=True)
        if s.startswith("No symbol"):
            names[pc] = "[no-symbol:trampoline-or-BPF]"
        else:
            names[pc] = s.split()[0]
    return names[pc]


runs = []
for i in range(ncalls):
    bp.enabled = True
    bp.ignore_count = skip if i else 0
    gdb.execute("continue", to_string=True)
    bp.enabled = False
    runs.append(one_call())

best = min(runs, key=len)
counts = {}
order = []
for pc in best:
    n = name(pc)
    if n not in counts:
        counts[n] = 0
        order.append(n)
    counts[n] += 1
with open(out, "w") as f:
    for n in sorted(order, key=lambda k: -counts[k]):
        f.write("%d %s\n" % (counts[n], n))
    f.write("total %d\n" % len(best))
    f.write("calls %d\n" % len(runs))
    f.write("spread %d %d\n" % (min(len(r) for r in runs), max(len(r) for r in runs)))
trace = os.environ.get("FTA_PROF_TRACE")
if trace:
    with open(trace, "w") as f:
        for pc in best:
            f.write(gdb.execute("x/i 0x%x" % pc, to_string=True).replace("=> ", "   "))
gdb.execute("detach", to_string=True)
