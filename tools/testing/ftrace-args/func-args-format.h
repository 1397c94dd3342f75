/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftrace:func_args event's format, as events/ftrace/func_args/format
 * has it (kernel/trace/trace_entries.h), for the host programs that feed
 * the trace-cmd plugin records made by hand: plugin-records.c and the
 * bench's plugin-models.c.
 */
#ifndef FUNC_ARGS_FORMAT_H
#define FUNC_ARGS_FORMAT_H

/* The arguments of the format's print fmt */
#define PRINT_FMT_ARGS	"(void *)REC->ip, (void *)REC->parent_ip, REC->nr_words"

/* The fields of every event's format, then a blank line */
#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
	"\n"

/* The event as events/ftrace/func_args/format has it (trace_entries.h) */
#define FUNC_ARGS_ID	45
#define ARGS_OFFSET	32
static const char func_args_format[] =
	"name: func_args\n"
	"ID: 45\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned short flags;\toffset:24;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char nr_words;\toffset:26;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char nr_strs;\toffset:27;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned long args[];\toffset:32;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"%ps <-- %ps words=%u\", " PRINT_FMT_ARGS "\n";

#endif /* FUNC_ARGS_FORMAT_H */
