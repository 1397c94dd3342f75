// SPDX-License-Identifier: GPL-2.0
/*
 * plugin-models BTF: how long the trace-cmd plugin (plugin_function_args.so,
 * from $TRACEEVENT_PLUGIN_DIR) takes to build the model of every function
 * of BTF, as trace-cmd report does for a trace of every function: one
 * func_args record of each function, printed once, the first of them
 * loading the BTF.
 *
 * Each function of BTF gets an address of its own, and its record the
 * words that its prototype takes (a parameter of 9 to 16 bytes two), so
 * that the plugin prints it by name and type when it finds the right
 * prototype; every tenth function also has a twin whose name BTF lacks,
 * which prints raw.  Prints "records N ms T hash H": H hashes what the
 * plugin printed, which must not depend on how it finds a function in
 * the BTF.  Exits 2 if it cannot set up.
 *
 * Built and run by make bench-plugin (plugin-bench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/btf.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "../func-args-format.h"

#define BASE	0xffffffff81000000ULL
#define MAX_WORDS	24
#define NAME_LEN	128

/* The words of the prototype of @func, as the kernel counts them */
static unsigned int nr_words(const struct btf *btf, const struct btf_type *func)
{
	const struct btf_type *proto = btf__type_by_id(btf, func->type);
	const struct btf_param *p = btf_params(proto);
	unsigned int i, nr = 0;
	__s64 size;

	for (i = 0; i < btf_vlen(proto); i++, p++) {
		size = p->type ? btf__resolve_size(btf, p->type) : 8;
		nr += size > 8 ? 2 : 1;
	}
	return nr > MAX_WORDS ? MAX_WORDS : nr;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void put(unsigned char *at, unsigned long long val)
{
	unsigned int i;

	for (i = 0; i < 8; i++)
		at[i] = val >> (8 * i);
}

/* A func_args record of the function at @ip, with @nr words */
static unsigned int make_record(unsigned char *rec, unsigned long long ip,
				unsigned int nr)
{
	unsigned int i;

	memset(rec, 0, ARGS_OFFSET);
	rec[0] = FUNC_ARGS_ID;
	put(rec + 8, ip);
	rec[26] = nr;
	for (i = 0; i < nr; i++)
		put(rec + ARGS_OFFSET + 8 * i, 0x1000 * (i + 1) + (ip & 0xfff));
	return ARGS_OFFSET + 8 * nr;
}

int main(int argc, char **argv)
{
	unsigned char data[ARGS_OFFSET + 8 * MAX_WORDS];
	struct tep_plugin_list *plugins;
	unsigned char *words;
	unsigned long hash = 0;
	struct tep_record rec;
	struct tep_handle *tep;
	char name[NAME_LEN];
	struct trace_seq s;
	unsigned int i, n, nr = 0;
	const struct btf_type *t;
	struct btf *btf;
	double start;

	if (argc != 2) {
		fprintf(stderr, "usage: plugin-models BTF\n");
		return 2;
	}
	btf = btf__parse(argv[1], NULL);
	tep = tep_alloc();
	if (!btf || !tep || setenv("FTRACE_ARGS_BTF", argv[1], 1)) {
		fprintf(stderr, "plugin-models: cannot set up with %s\n", argv[1]);
		return 2;
	}
	tep_set_flag(tep, TEP_DISABLE_SYS_PLUGINS);
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	plugins = tep_load_plugins(tep);
	n = btf__type_cnt(btf);
	words = calloc(2 * n, 1);
	if (!words)
		return 2;
	for (i = 1; i < n; i++) {
		t = btf__type_by_id(btf, i);
		if (!btf_is_func(t))
			continue;
		words[nr] = nr_words(btf, t);
		if (tep_register_function(tep, (char *)btf__name_by_offset(btf, t->name_off),
					  BASE + 16ULL * nr++, NULL))
			return 2;
		if (nr % 10)
			continue;
		/* a name that BTF does not have */
		snprintf(name, sizeof(name), "%s.fta_bench",
			 btf__name_by_offset(btf, t->name_off));
		words[nr] = words[nr - 1];
		if (tep_register_function(tep, name, BASE + 16ULL * nr++, NULL))
			return 2;
	}
	if (tep_parse_event(tep, func_args_format, strlen(func_args_format),
			    "ftrace") || !tep_find_event(tep, FUNC_ARGS_ID) ||
	    !tep_find_event(tep, FUNC_ARGS_ID)->handler) {
		fprintf(stderr, "plugin-models: no plugin in TRACEEVENT_PLUGIN_DIR\n");
		return 2;
	}

	memset(&rec, 0, sizeof(rec));
	rec.data = data;
	start = now();
	for (i = 0; i < nr; i++) {
		rec.size = make_record(data, BASE + 16ULL * i, words[i]);
		rec.record_size = rec.size;
		trace_seq_init(&s);
		tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
		for (n = 0; n < s.len; n++)
			hash = hash * 31 + (unsigned char)s.buffer[n];
		trace_seq_destroy(&s);
	}
	printf("records %u ms %.1f hash %lx\n", nr, (now() - start) * 1000,
	       hash);
	free(words);
	tep_unload_plugins(plugins, tep);
	tep_free(tep);
	btf__free(btf);
	return 0;
}
