#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job, as `make run` shows it: the function_args tracer on vfs_read
# while a command reads a file, then the typed trace, and the same through
# trace-cmd.
set -e
T=/sys/kernel/tracing
echo "# uname -r: $(uname -r)"
echo "# tracers: $(cat $T/available_tracers)"
set -x
echo vfs_read > $T/set_ftrace_filter
echo function_args > $T/current_tracer
cat /etc/os-release > /dev/null
echo 0 > $T/tracing_on
{ set +x; } 2>/dev/null
grep -v '^#' $T/trace | grep ' cat-' | head -n 20
echo nop > $T/current_tracer
echo 1 > $T/tracing_on
echo > $T/set_ftrace_filter
set -x
trace-cmd record -q -o /tmp/trace.dat -p function_args -l vfs_read -- cat /etc/hostname > /dev/null
{ set +x; } 2>/dev/null
echo "+ trace-cmd report -i /tmp/trace.dat"
trace-cmd report -i /tmp/trace.dat | grep ' cat-' | head -n 5
