#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# pc-sample.py SOCK VMLINUX OUT: a flat profile of a QEMU guest, by
# sampling its program counter through the HMP monitor at SOCK (QEMU's
# "-monitor unix:SOCK,server=on,wait=off") from the moment the file
# OUT.start exists until the monitor goes away or OUT.stop appears (the
# guest makes them in a folder that vm-run --share gives it).  Writes OUT: one line per function, most
# samples first, "SAMPLES PERCENT FUNCTION"; a pc in user space counts
# as [user], one with no symbol of VMLINUX as [no-symbol] (BPF programs,
# trampolines, modules).
#
# The samples come at the host's pace, so code that QEMU emulates slowly
# weighs more than its instruction count: read it as where the time goes
# under TCG, not as instructions.  call-profile counts instructions.
import bisect
import os
import re
import socket
import subprocess
import sys
import time

sock_path, vmlinux, out = sys.argv[1:4]
interval = float(os.environ.get("FTA_SAMPLE_INTERVAL", "0.005"))

syms = []
nm = subprocess.run(["nm", "-n", vmlinux], capture_output=True, text=True, check=True)
for line in nm.stdout.splitlines():
    w = line.split()
    if len(w) == 3 and w[1] in "tTwW":
        syms.append((int(w[0], 16), w[2]))
addrs = [a for a, _ in syms]
text_end = syms[-1][0] if syms else 0

for _ in range(600):
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sock_path)
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit("pc-sample: no monitor at " + sock_path)


def until_prompt():
    buf = b""
    while not buf.endswith(b"(qemu) "):
        d = s.recv(65536)
        if not d:
            raise EOFError
        buf += d
    return buf.decode(errors="replace")


counts = {}
total = 0
rip_re = re.compile(r"RIP=([0-9a-f]{16})")
try:
    until_prompt()
    while not os.path.exists(out + ".start"):
        # the monitor answers as long as QEMU runs
        s.sendall(b"info status\n")
        until_prompt()
        time.sleep(0.2)
    while not os.path.exists(out + ".stop"):
        s.sendall(b"info registers\n")
        m = rip_re.search(until_prompt())
        if m:
            pc = int(m.group(1), 16)
            if pc < 0xffff800000000000:
                name = "[user]"
            else:
                i = bisect.bisect_right(addrs, pc) - 1
                name = syms[i][1] if i >= 0 and pc < text_end + 0x1000000 and pc < 0xffffffffa0000000 else "[no-symbol]"
            counts[name] = counts.get(name, 0) + 1
            total += 1
        time.sleep(interval)
except (EOFError, OSError):
    pass

with open(out, "w") as f:
    for name, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        f.write("%d %.1f %s\n" % (n, 100.0 * n / max(total, 1), name))
    f.write("total %d\n" % total)
