// SPDX-License-Identifier: GPL-2.0
/*
 * plugin-records BTF: the trace-cmd plugin (plugin_function_args.so) on
 * ftrace:func_args and ftrace:funcgraph_entry records made by hand.
 *
 * libtraceevent loads the plugin from $TRACEEVENT_PLUGIN_DIR, as trace-cmd
 * report does, and the plugin reads the functions' BTF from the file BTF
 * (a vmlinux with a .BTF section, or a raw BTF file such as
 * /sys/kernel/btf/vmlinux), through FTRACE_ARGS_BTF.  Each record is
 * printed with tep_print_event() and its text compared with what
 * Documentation/trace/function-args.rst and the plugin say it is:
 *
 *  - a vfs_read() record: its arguments by name and type;
 *  - that record cut to every size below its own: the event's print fmt
 *    while the fixed fields are not all there, then the function with no
 *    words, never a word past the end;
 *  - FARGS_FL_RAW with each reason of the kernel's table and past it,
 *    FARGS_FL_NO_MODEL, FARGS_FL_ENTRY_ONLY and FARGS_FL_LOW_STACK;
 *  - call-through records (FARGS_FL_RET): the return value typed, or raw
 *    when the model does not fit, and the duration, cut short too;
 *  - word counts past the record's end or past the plugin's limit;
 *  - FARGS_FL_STRINGS: the strings of const char * arguments, cut at
 *    every size, a string without its NUL at the record's end;
 *  - flag bits that no kernel writes;
 *  - structs passed by value, in one word and in two;
 *  - funcgraph_entry records with funcgraph-args' words: with no handler
 *    (the print fmt's line), cut short, and in handles of their own with
 *    a handler as trace-cmd registers it, waiting for the event or on
 *    the event already parsed, before and after the plugin unloads;
 *  - a second handle (trace file) where two functions swap addresses,
 *    with a bare "-O function_args:hex" as trace-cmd gives it;
 *  - functions of one name with several prototypes in BTF (pahole before
 *    1.25): none when their types differ (m_start), the lowest id's
 *    when only their parameter names do (m_next), as the kernel decides.
 *
 * Each record ends where an unmapped page starts, so that any read past
 * its end faults, the plugin's or libtraceevent's.  Prints
 * "ok NAME" or "FAIL NAME: got '...' want '...'" per check; exits 0 if
 * all passed, 1 if one failed, 2 if it could not set up (no plugin, no
 * BTF, a kernel whose prototypes are not the ones used here).
 *
 * Built and run by host-tests.sh (t_plugin_records).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <bpf/btf.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "func-args-format.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The arguments of the format's print fmt, and the words of a raw record */
#define REGS_LINE_ARGS	"di=0x1, si=0x0, dx=0x0, cx=0x1, r8=0x0, r9=0x6"

/* The record flags, as kernel/trace/trace_function_args.h has them */
#define FARGS_FL_STRINGS	0x01
#define FARGS_FL_RAW		0x02
#define FARGS_FL_NO_MODEL	0x04
#define FARGS_FL_RET		0x08
#define FARGS_FL_ENTRY_ONLY	0x10
#define FARGS_FL_STACK_CUT	0x20
#define FARGS_FL_LOW_STACK	0x40
#define FARGS_REASON_SHIFT	8
#define FARGS_RET_WORDS		3

/* The status byte in front of a string (enum fargs_str_status) */
#define STR_OK			0
#define STR_TRUNCATED		1
#define STR_FAULT		2
#define STR_NULL		3

/* The plugin's limit on the words of a record: 2 * MAX_ARGS */
#define MAX_WORDS		24

/*
 * enum ftrace_model_reason, as fta_reasons[] in kernel/trace/ftrace_args.c
 * names them; the plugin must say the same.
 */
static const char * const reasons[] = {
	"", "no symbol", "no BTF", "variadic", "too many arguments",
	"unsupported argument type", "several prototypes",
};

/*
 * funcgraph_entry with funcgraph-args (patch 0026): 6.12's packed entry,
 * then the argument words, unaligned
 */
#define FGRAPH_ID	11
#define FGRAPH_ARGS	20
static const char fgraph_format[] =
	"name: funcgraph_entry\n"
	"ID: 11\n"
	"format:\n"
	COMMON_FIELDS
	"\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:u8 args[];\toffset:20;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n";

/* The kernel's functions, as a trace.dat's kallsyms would name them */
#define VFS_READ	0xffffffff81400000ULL
#define KSYS_READ	0xffffffff81401000ULL
#define GETNAME_KERNEL	0xffffffff81402000ULL
#define FILP_OPEN	0xffffffff81403000ULL
#define FPUT		0xffffffff81404000ULL
#define STRCMP		0xffffffff81405000ULL
#define CPU_UTIL	0xffffffff81406000ULL
#define UPDATE_SD	0xffffffff81407000ULL
#define FROM_KUID	0xffffffff81408000ULL
#define TS_ADD		0xffffffff81409000ULL
#define M_START		0xffffffff8140a000ULL
#define M_NEXT		0xffffffff8140b000ULL
/* Below every function: no name */
#define NO_SYMBOL	0xffffffff80000000ULL

static struct {
	char			*name;
	unsigned long long	addr;
} functions[] = {
	{ "vfs_read",				VFS_READ },
	{ "ksys_read",				KSYS_READ },
	{ "getname_kernel",			GETNAME_KERNEL },
	{ "filp_open",				FILP_OPEN },
	{ "fput",				FPUT },
	{ "strcmp",				STRCMP },
	{ "from_kuid_munged",			FROM_KUID },
	{ "timespec64_add_safe",		TS_ADD },
	{ "m_start",				M_START },
	{ "m_next",				M_NEXT },
	/* GCC clones: never in BTF */
	{ "cpu_util.constprop.0",		CPU_UTIL },
	{ "update_sd_lb_stats.constprop.0",	UPDATE_SD },
};

/*
 * The prototypes that the expected lines rest on, as 6.12 has them:
 * the parameter names (NULL-terminated) and whether it returns void.
 */
static const struct {
	const char	*name;
	const char	*params[5];
	int		ret_void;
} prototypes[] = {
	/* ssize_t vfs_read(struct file *, char __user *, size_t, loff_t *) */
	{ "vfs_read",		{ "file", "buf", "count", "pos" },	0 },
	/* void fput(struct file *) */
	{ "fput",		{ "file" },				1 },
	/* struct filename *getname_kernel(const char *) */
	{ "getname_kernel",	{ "filename" },				0 },
	/* int strcmp(const char *, const char *) */
	{ "strcmp",		{ "cs", "ct" },				0 },
	/* uid_t from_kuid_munged(struct user_namespace *, kuid_t) */
	{ "from_kuid_munged",	{ "targ", "kuid" },			0 },
	/* struct timespec64 timespec64_add_safe(2 x struct timespec64) */
	{ "timespec64_add_safe", { "lhs", "rhs" },			0 },
};

/* vfs_read()'s arguments */
#define FILE_PTR	0xffff888001234000ULL
#define BUF_PTR		0x7ffc00001000ULL
#define COUNT		131072ULL
#define POS_PTR		0xffffc90000123e58ULL
#define NAMED		"file=0xffff888001234000, buf=0x7ffc00001000, " \
			"count=131072, pos=0xffffc90000123e58"
#define NAMED_HEX	"file=0xffff888001234000, buf=0x7ffc00001000, " \
			"count=0x20000, pos=0xffffc90000123e58"
#define VFS_READ_LINE	"vfs_read(" NAMED ") <-ksys_read"
#define NO_WORDS_LINE	"vfs_read() <-ksys_read [raw: no BTF model]"
/* The pointers of strings */
#define NAME_PTR	0xffff888003c4d000ULL
#define NAME2_PTR	0xffff888003c4e000ULL

static struct tep_handle *tep;
static int failed;

/* The record being made, little-endian as on x86-64, and its size */
static unsigned char img[4096];
static size_t img_len;

static void put(size_t off, unsigned long long val, unsigned int size)
{
	unsigned int i;

	if (off + size > sizeof(img)) {
		fprintf(stderr, "plugin-records: a record past %zu bytes\n",
			sizeof(img));
		exit(2);
	}
	for (i = 0; i < size; i++)
		img[off + i] = val >> (8 * i);
}

/* A new record: the common and the fixed fields, no words yet */
static void rec_start(unsigned long long ip, unsigned long long parent,
		      unsigned int flags, unsigned int nr_words,
		      unsigned int nr_strs)
{
	memset(img, 0, sizeof(img));
	put(0, FUNC_ARGS_ID, 2);	/* common_type */
	put(4, 87, 4);			/* common_pid */
	put(8, ip, 8);
	put(16, parent, 8);
	put(24, flags, 2);
	put(26, nr_words, 1);
	put(27, nr_strs, 1);
	img_len = ARGS_OFFSET;
}

static void rec_word(unsigned long long word)
{
	put(img_len, word, 8);
	img_len += 8;
}

static void rec_words(const unsigned long long *words, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		rec_word(words[i]);
}

/* vfs_read(file, buf, count, pos) from ksys_read: its four words */
static const unsigned long long vfs_read_words[] = {
	FILE_PTR, BUF_PTR, COUNT, POS_PTR,
};

static void rec_vfs_read(unsigned int flags)
{
	rec_start(VFS_READ, KSYS_READ, flags, 4, 0);
	rec_words(vfs_read_words, 4);
}

/* One string of the string area: its status, its text, its NUL if @nul */
static void rec_str(unsigned int status, const char *text, int nul)
{
	size_t i, len = strlen(text);

	put(img_len++, status, 1);
	for (i = 0; i < len; i++)
		put(img_len++, (unsigned char)text[i], 1);
	if (nul)
		put(img_len++, 0, 1);
}

/*
 * Where a record is printed from: its last byte is the last one before a
 * page that is not mapped, so that a read past its end faults, made by
 * the plugin or by libtraceevent on its behalf (AddressSanitizer does
 * not see the reads of libtraceevent, which it did not build)
 */
static unsigned char *guarded(size_t len)
{
	static unsigned char *area;
	static size_t size;
	long page = sysconf(_SC_PAGESIZE);

	if (!area) {
		size = (sizeof(img) + page - 1) / page * page;
		area = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (area == MAP_FAILED ||
		    mprotect(area + size, page, PROT_NONE)) {
			perror("plugin-records: the guard page");
			exit(2);
		}
	}
	return area + size - len;
}

/* The text of the record made so far, cut to @len bytes */
static const char *print_record(size_t len)
{
	static char text[8192];
	struct tep_record rec;
	struct trace_seq s;
	unsigned char *data;
	size_t alloc = len;

	/*
	 * libtraceevent reads common_type, 2 bytes, before it looks at the
	 * size (tep_find_event_by_record()): a record shorter than that has
	 * them after its end, where the plugin must not look either.
	 */
	if (alloc < 2)
		alloc = 2;
	data = guarded(alloc);
	memcpy(data, img, alloc);

	memset(&rec, 0, sizeof(rec));
	rec.ts = 18306987000ULL;
	rec.data = data;
	rec.size = len;
	rec.record_size = len;
	rec.cpu = 1;

	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	if (s.state != TRACE_SEQ__GOOD || !s.buffer)
		snprintf(text, sizeof(text), "<trace_seq failed>");
	else
		snprintf(text, sizeof(text), "%.*s", (int)s.len, s.buffer);
	trace_seq_destroy(&s);
	return text;
}

static void check(const char *name, const char *got, const char *want)
{
	if (!strcmp(got, want)) {
		printf("ok %s\n", name);
		return;
	}
	printf("FAIL %s: got '%s' want '%s'\n", name, got, want);
	failed = 1;
}

/* The record made so far prints as @want */
static void expect(const char *name, const char *want)
{
	check(name, print_record(img_len), want);
}

/* ... and as @want when cut to @len bytes */
static void expect_cut(const char *name, size_t len, const char *want)
{
	check(name, print_record(len), want);
}

/* "w0=0x<first>, w1=0x<first + 1>, ..." for @nr words, as print_raw() */
static void raw_words(char *buf, size_t size, unsigned int nr,
		      unsigned long long first)
{
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < nr && len < size; i++)
		len += snprintf(buf + len, size - len, "%sw%u=0x%llx",
				i ? ", " : "", i, first + i);
}

/* a. a record as the kernel writes it */
static void test_named(void)
{
	rec_vfs_read(0);
	expect("a: vfs_read, 4 words: named and typed", VFS_READ_LINE);

	/* an address that kallsyms does not name: no model either */
	rec_start(NO_SYMBOL, 0, 0, 2, 0);
	rec_word(1);
	rec_word(2);
	expect("a: an ip without a name, no parent: raw words",
	       "0xffffffff80000000(w0=0x1, w1=0x2) [raw: no BTF model]");
}

/*
 * b. record (a) cut to every size below its own.  Short of the fixed
 * fields (args at 32), the plugin hands it back to the print fmt
 * ("%ps <-- %ps words=%u"), which libtraceevent 1.7.1 prints with 0 for
 * a field past the end (check_data_offset_size()): 0x0 for an address.
 * Short of its words, the plugin prints the function without them.
 */
static void test_cut(void)
{
	char name[128];
	const char *want;
	size_t full, len;

	rec_vfs_read(0);
	full = img_len;
	for (len = 0; len < full; len++) {
		if (len < 16)		/* no ip */
			want = "0x0 <-- 0x0 words=0";
		else if (len < 24)	/* no parent_ip */
			want = "vfs_read <-- 0x0 words=0";
		else if (len < 27)	/* no nr_words */
			want = "vfs_read <-- ksys_read words=0";
		else if (len < ARGS_OFFSET)
			want = "vfs_read <-- ksys_read words=4";
		else
			want = NO_WORDS_LINE;
		snprintf(name, sizeof(name),
			 "b: vfs_read record cut to %zu of %zu bytes", len, full);
		expect_cut(name, len, want);
	}
}

/* c, d. raw registers: the reasons, and no model */
static void test_raw(void)
{
	static const unsigned long long regs[] = { 0x1, 0x0, 0x0, 0x1, 0x0, 0x6 };
	const char *regs_line =
		"cpu_util.constprop.0(" REGS_LINE_ARGS ") <-update_sd_lb_stats.constprop.0";
	char name[128], want[512];
	unsigned int r;

	/* every reason, one past the table, the largest the byte holds */
	for (r = 0; r <= ARRAY_SIZE(reasons) + 1; r++) {
		unsigned int reason = r <= ARRAY_SIZE(reasons) ? r : 0xff;

		rec_start(CPU_UTIL, UPDATE_SD,
			  FARGS_FL_RAW | reason << FARGS_REASON_SHIFT, 6, 0);
		rec_words(regs, 6);
		snprintf(name, sizeof(name), "c: FARGS_FL_RAW, reason %u", reason);
		snprintf(want, sizeof(want), "%s [raw: %s]", regs_line,
			 reason < ARRAY_SIZE(reasons) ? reasons[reason] : "unknown");
		expect(name, want);
	}

	/* past the six registers: words by number */
	rec_start(CPU_UTIL, UPDATE_SD, FARGS_FL_RAW | 2 << FARGS_REASON_SHIFT,
		  7, 0);
	rec_words(regs, 6);
	rec_word(0x7);
	expect("c: FARGS_FL_RAW, 7 words: the seventh is w6",
	       "cpu_util.constprop.0(di=0x1, si=0x0, dx=0x0, cx=0x1, r8=0x0, r9=0x6, w6=0x7) <-update_sd_lb_stats.constprop.0 [raw: no BTF]");

	/* raw even when BTF has a model of as many words */
	rec_vfs_read(FARGS_FL_RAW | 3 << FARGS_REASON_SHIFT);
	expect("c: FARGS_FL_RAW on a function with a model: registers",
	       "vfs_read(di=0xffff888001234000, si=0x7ffc00001000, dx=0x20000, cx=0xffffc90000123e58) <-ksys_read [raw: variadic]");

	/* d. no model: the six registers (fargs_record() with fregs) ... */
	rec_start(VFS_READ, KSYS_READ, FARGS_FL_RAW | FARGS_FL_NO_MODEL, 6, 0);
	rec_words(vfs_read_words, 4);
	rec_word(0);
	rec_word(0);
	expect("d: FARGS_FL_RAW | FARGS_FL_NO_MODEL",
	       "vfs_read(di=0xffff888001234000, si=0x7ffc00001000, dx=0x20000, cx=0xffffc90000123e58, r8=0x0, r9=0x0) <-ksys_read [raw: no model]");

	/* ... or nothing (without them) */
	rec_start(VFS_READ, KSYS_READ, FARGS_FL_NO_MODEL, 0, 0);
	expect("d: FARGS_FL_NO_MODEL, no words",
	       "vfs_read() <-ksys_read [raw: no model]");
}

/* e. call-through refused */
static void test_entry_only(void)
{
	rec_vfs_read(FARGS_FL_ENTRY_ONLY | FARGS_FL_LOW_STACK);
	expect("e: FARGS_FL_ENTRY_ONLY | FARGS_FL_LOW_STACK",
	       VFS_READ_LINE " [entry only: low stack]");

	rec_vfs_read(FARGS_FL_LOW_STACK);
	expect("e: FARGS_FL_LOW_STACK alone",
	       VFS_READ_LINE " [entry only: low stack]");

	rec_vfs_read(FARGS_FL_ENTRY_ONLY);
	expect("e: FARGS_FL_ENTRY_ONLY",
	       VFS_READ_LINE " [entry only: stack arguments]");

	/* strings come with an entry-only record */
	rec_start(GETNAME_KERNEL, FILP_OPEN,
		  FARGS_FL_ENTRY_ONLY | FARGS_FL_STRINGS, 1, 1);
	rec_word(NAME_PTR);
	rec_str(STR_OK, "/etc/hostname", 1);
	expect("e: FARGS_FL_ENTRY_ONLY with a string",
	       "getname_kernel(filename=\"/etc/hostname\") <-filp_open [entry only: stack arguments]");
}

/* f, g. call-through records: the return value and the duration */
static void test_ret(void)
{
	char name[128];
	size_t full, len;

	/* f. ssize_t: signed, in decimal */
	rec_vfs_read(FARGS_FL_RET);
	rec_word(131072);	/* %rax */
	rec_word(0);		/* %rdx */
	rec_word(1234);		/* ns */
	expect("f: FARGS_FL_RET on vfs_read",
	       "vfs_read(" NAMED ") = 131072 <-ksys_read (1.234 us)");

	/* a record short of its return words: none of them is read */
	full = img_len;
	for (len = ARGS_OFFSET; len < full; len++) {
		snprintf(name, sizeof(name),
			 "f: FARGS_FL_RET record cut to %zu of %zu bytes",
			 len, full);
		expect_cut(name, len, NO_WORDS_LINE);
	}

	rec_vfs_read(FARGS_FL_RET);
	rec_word(-14ULL);	/* -EFAULT */
	rec_word(0);
	rec_word(5);
	expect("f: FARGS_FL_RET, a negative return value",
	       "vfs_read(" NAMED ") = -14 <-ksys_read (0.005 us)");

	/* void: no " = " */
	rec_start(FPUT, KSYS_READ, FARGS_FL_RET, 1, 0);
	rec_word(FILE_PTR);
	rec_word(0xdead);
	rec_word(0);
	rec_word(100000);
	expect("f: FARGS_FL_RET on a void function",
	       "fput(file=0xffff888001234000) <-ksys_read (100.000 us)");

	/* g. a model of another number of words: the raw %rax */
	rec_start(VFS_READ, KSYS_READ, FARGS_FL_RET, 3, 0);
	rec_word(1);
	rec_word(2);
	rec_word(3);
	rec_word(0x20000);
	rec_word(0);
	rec_word(1234);
	expect("g: FARGS_FL_RET, 3 words for a model of 4",
	       "vfs_read(w0=0x1, w1=0x2, w2=0x3) = 0x20000 <-ksys_read (1.234 us) [raw: no BTF model]");

	/* ... or a function that BTF does not have */
	rec_start(CPU_UTIL, UPDATE_SD, FARGS_FL_RET, 2, 0);
	rec_word(1);
	rec_word(2);
	rec_word(0x400);
	rec_word(0);
	rec_word(2000);
	expect("g: FARGS_FL_RET on a function without BTF",
	       "cpu_util.constprop.0(w0=0x1, w1=0x2) = 0x400 <-update_sd_lb_stats.constprop.0 (2.000 us) [raw: no BTF model]");
}

/* h. word counts that the record or the plugin cannot hold */
static void test_nr_words(void)
{
	char want[1024], list[768];
	unsigned int i;

	/* 255 words claimed, 4 there */
	rec_start(VFS_READ, KSYS_READ, 0, 255, 0);
	for (i = 0; i < 4; i++)
		rec_word(i + 1);
	expect("h: nr_words 255 in a record of 4 words", NO_WORDS_LINE);

	/* 255 words there: more than the plugin takes */
	rec_start(VFS_READ, KSYS_READ, 0, 255, 0);
	for (i = 0; i < 255; i++)
		rec_word(i + 1);
	expect("h: nr_words 255, all there", NO_WORDS_LINE);

	rec_start(VFS_READ, KSYS_READ, FARGS_FL_RET, 255, 0);
	for (i = 0; i < 255; i++)
		rec_word(i + 1);
	expect("h: nr_words 255 with FARGS_FL_RET, all there", NO_WORDS_LINE);

	rec_start(VFS_READ, KSYS_READ, 0, MAX_WORDS + 1, 0);
	for (i = 0; i < MAX_WORDS + 1; i++)
		rec_word(i + 1);
	expect("h: nr_words 25, one past the plugin's limit", NO_WORDS_LINE);

	/* the most the plugin takes: 24 words and the 3 of a return */
	rec_start(VFS_READ, KSYS_READ, FARGS_FL_RET, MAX_WORDS, 0);
	for (i = 0; i < MAX_WORDS + FARGS_RET_WORDS; i++)
		rec_word(i + 1);
	raw_words(list, sizeof(list), MAX_WORDS, 1);
	snprintf(want, sizeof(want),
		 "vfs_read(%s) = 0x19 <-ksys_read (0.027 us) [raw: no BTF model]",
		 list);
	expect("h: nr_words 24 with FARGS_FL_RET: 27 words read", want);

	/* 24 claimed, with strings announced, 2 there */
	rec_start(VFS_READ, KSYS_READ, FARGS_FL_STRINGS, MAX_WORDS, 3);
	rec_word(1);
	rec_word(2);
	expect("h: nr_words 24 in a record of 2 words, with strings",
	       NO_WORDS_LINE);
}

/* i. the strings of FARGS_FL_STRINGS */
static void test_strings(void)
{
	static const char path[] = "/etc/hostname";
	/* where the text starts: after the word and the status byte */
	const size_t text = ARGS_OFFSET + 8 + 1;
	char name[128], want[256];
	size_t full, len;

	rec_start(GETNAME_KERNEL, FILP_OPEN, FARGS_FL_STRINGS, 1, 1);
	rec_word(NAME_PTR);
	rec_str(STR_OK, path, 1);
	expect("i: a const char * argument with its string",
	       "getname_kernel(filename=\"/etc/hostname\") <-filp_open");

	/*
	 * Every size below: short of the word, no words; without room for
	 * the status byte and one more, the pointer; else the text up to
	 * the record's end (strnlen() to the end, no NUL needed).
	 */
	full = img_len;
	for (len = ARGS_OFFSET; len < full; len++) {
		if (len < ARGS_OFFSET + 8)
			snprintf(want, sizeof(want),
				 "getname_kernel() <-filp_open [raw: no BTF model]");
		else if (len < text + 1)
			snprintf(want, sizeof(want),
				 "getname_kernel(filename=0x%llx) <-filp_open",
				 NAME_PTR);
		else
			snprintf(want, sizeof(want),
				 "getname_kernel(filename=\"%.*s\") <-filp_open",
				 (int)(len - text), path);
		snprintf(name, sizeof(name),
			 "i: string record cut to %zu of %zu bytes", len, full);
		expect_cut(name, len, want);
	}

	/* the record ends where the NUL would be */
	rec_start(GETNAME_KERNEL, FILP_OPEN, FARGS_FL_STRINGS, 1, 1);
	rec_word(NAME_PTR);
	rec_str(STR_OK, path, 0);
	expect("i: a string without its NUL at the record's end",
	       "getname_kernel(filename=\"/etc/hostname\") <-filp_open");

	rec_start(GETNAME_KERNEL, FILP_OPEN, FARGS_FL_STRINGS, 1, 1);
	rec_word(NAME_PTR);
	rec_str(STR_TRUNCATED, "/usr/share/zoneinfo", 1);
	expect("i: a string cut by the kernel",
	       "getname_kernel(filename=\"/usr/share/zoneinfo\"...) <-filp_open");

	rec_start(GETNAME_KERNEL, FILP_OPEN, FARGS_FL_STRINGS, 1, 1);
	rec_word(NAME_PTR);
	rec_str(STR_FAULT, "", 1);
	expect("i: a string that faulted",
	       "getname_kernel(filename=0xffff888003c4d000(fault)) <-filp_open");

	rec_start(GETNAME_KERNEL, FILP_OPEN, FARGS_FL_STRINGS, 1, 1);
	rec_word(0);
	rec_str(STR_NULL, "", 1);
	expect("i: a NULL string",
	       "getname_kernel(filename=(null)) <-filp_open");

	rec_start(GETNAME_KERNEL, FILP_OPEN, FARGS_FL_STRINGS, 1, 1);
	rec_word(NAME_PTR);
	rec_str(STR_OK, "a\"b\\c\x01\x7f", 1);
	expect("i: quotes, backslashes and unprintable bytes escaped",
	       "getname_kernel(filename=\"a\\\"b\\\\c\\x01\\x7f\") <-filp_open");

	/* two strings, no parent */
	rec_start(STRCMP, 0, FARGS_FL_STRINGS, 2, 2);
	rec_word(NAME_PTR);
	rec_word(NAME2_PTR);
	rec_str(STR_OK, "abc", 1);
	rec_str(STR_OK, "xyz", 1);
	expect("i: two strings", "strcmp(cs=\"abc\", ct=\"xyz\")");

	/* the second one's status byte ends the record */
	rec_start(STRCMP, 0, FARGS_FL_STRINGS, 2, 2);
	rec_word(NAME_PTR);
	rec_word(NAME2_PTR);
	rec_str(STR_OK, "abc", 1);
	put(img_len++, STR_OK, 1);
	expect("i: two strings, the second cut after its status",
	       "strcmp(cs=\"abc\", ct=0xffff888003c4e000)");

	/* the first one runs to the record's end: none left for the second */
	rec_start(STRCMP, 0, FARGS_FL_STRINGS, 2, 2);
	rec_word(NAME_PTR);
	rec_word(NAME2_PTR);
	rec_str(STR_OK, "abc", 0);
	expect("i: two strings, the first without its NUL at the end",
	       "strcmp(cs=\"abc\", ct=0xffff888003c4e000)");
}

/* j. flag bits that no kernel writes */
static void test_unknown_flags(void)
{
	rec_vfs_read(0x80);
	expect("j: flag 0x80: ignored", VFS_READ_LINE);

	rec_vfs_read(0xff80);
	expect("j: flags 0xff80: ignored", VFS_READ_LINE);

	/* no argument on the stack: a cut stack changes nothing */
	rec_vfs_read(FARGS_FL_STACK_CUT);
	expect("j: FARGS_FL_STACK_CUT, all arguments in registers",
	       VFS_READ_LINE);

	/* every bit: raw registers, the raw %rax, every marker */
	rec_vfs_read(0xffff);
	rec_word(0x20000);
	rec_word(0);
	rec_word(1234);
	expect("j: flags 0xffff",
	       "vfs_read(di=0xffff888001234000, si=0x7ffc00001000, dx=0x20000, cx=0xffffc90000123e58) = 0x20000 <-ksys_read (1.234 us) [entry only: low stack] [raw: no model]");
}

/* A funcgraph_entry record of @func at @depth, with @nr words of vfs_read */
static void rec_fgraph(unsigned long long func, int depth, unsigned int nr)
{
	memset(img, 0, sizeof(img));
	put(0, FGRAPH_ID, 2);		/* common_type */
	put(4, 87, 4);			/* common_pid */
	put(8, func, 8);
	put(16, (unsigned int)depth, 4);
	img_len = FGRAPH_ARGS;
	rec_words(vfs_read_words, nr);
}

/* print_raw()'s text of the first words of vfs_read's */
static const char * const vfs_read_raw[] = {
	"",
	"w0=0xffff888001234000",
	"w0=0xffff888001234000, w1=0x7ffc00001000",
	"w0=0xffff888001234000, w1=0x7ffc00001000, w2=0x20000",
};

static int parse_format(const char *format)
{
	char msg[256];
	enum tep_errno err;

	err = tep_parse_event(tep, format, strlen(format), "ftrace");
	if (!err)
		return 0;
	tep_strerror(tep, err, msg, sizeof(msg));
	printf("FAIL parse the format '%.24s...': %s\n", format, msg);
	failed = 1;
	return -1;
}

/*
 * k. funcgraph_entry where nothing registered a handler (a libtraceevent
 * tool other than trace-cmd): the plugin prints the print fmt's line
 * with the arguments, and the print fmt itself for a record without
 * words, past the plugin's limit, or cut short (the print fmt prints 0
 * for a field past the record's end); a cut record is read no further
 * than its end.
 */
static void test_fgraph_bare(void)
{
	char name[128], want[256];
	size_t full, len;
	unsigned int i;

	if (parse_format(fgraph_format))
		return;
	rec_fgraph(VFS_READ, 3, 4);
	expect("k: funcgraph_entry, 4 words, no handler: the print fmt's line with them",
	       "--> vfs_read(" NAMED ") (3)");
	full = img_len;
	for (len = 0; len < full; len++) {
		if (len < 16)		/* no func */
			snprintf(want, sizeof(want), "--> 0x0 (0)");
		else if (len < FGRAPH_ARGS)	/* no depth */
			snprintf(want, sizeof(want), "--> vfs_read (0)");
		else if (len < FGRAPH_ARGS + 8)	/* no whole word */
			snprintf(want, sizeof(want), "--> vfs_read (3)");
		else
			snprintf(want, sizeof(want), "--> vfs_read(%s) (3)",
				 vfs_read_raw[(len - FGRAPH_ARGS) / 8]);
		snprintf(name, sizeof(name),
			 "k: funcgraph_entry cut to %zu of %zu bytes", len, full);
		expect_cut(name, len, want);
	}

	rec_fgraph(VFS_READ, 3, 0);
	expect("k: funcgraph_entry without words: the print fmt",
	       "--> vfs_read (3)");

	rec_fgraph(NO_SYMBOL, 0, 0);
	rec_word(1);
	rec_word(2);
	expect("k: an address without a name: raw words",
	       "--> 0xffffffff80000000(w0=0x1, w1=0x2) (0)");

	rec_fgraph(VFS_READ, 3, 0);
	for (i = 0; i <= MAX_WORDS; i++)
		rec_word(i);
	expect("k: more words than the plugin's limit: the print fmt",
	       "--> vfs_read (3)");
}

/* trace-cmd's funcgraph_entry handler, as much of it as the plugin sees */
static int tc_graph_handler(struct trace_seq *s, struct tep_record *record,
			    struct tep_event *event, void *context)
{
	unsigned long long func;
	const char *name;

	if (tep_get_field_val(s, event, "func", record, &func, 0))
		return 1;
	name = tep_find_function(event->tep, func);
	trace_seq_printf(s, "%s|  %s() {", (const char *)context,
			 name ? name : "?");
	return 0;
}

/* The plugin's probe events in the handle under test */
static int nr_fgraph_probes(void)
{
	int i, n = 0, nr = tep_get_events_count(tep);
	struct tep_event *event;

	for (i = 0; i < nr; i++) {
		event = tep_get_event(tep, i);
		if (event && !strcmp(event->name, "fgraph_probe"))
			n++;
	}
	return n;
}

static struct tep_handle *new_tep(unsigned long long a,
				  unsigned long long b);

/*
 * l. funcgraph_entry with a handler, as trace-cmd registers one, in a
 * handle of its own: registered before the plugins load and the event
 * parsed after them (trace-cmd report's order: the plugin takes the
 * waiting handler with a probe event), or the event parsed before they
 * load (the plugin wraps the event's handler).  The arguments go between
 * the parentheses of the handler's "vfs_read()", the handler's context
 * is its own; a record without words keeps the handler's line, and so
 * does every record once the plugin is unloaded.
 */
static void test_fgraph_wrapped(int parsed_first)
{
	const char *how = parsed_first ? "l: event parsed first" :
					 "l: handler waiting";
	struct tep_plugin_list *plugins;
	struct tep_handle *main_tep = tep;
	char name[128];

	tep = new_tep(0, 0);
	if (!tep) {
		printf("FAIL %s: no tep handle\n", how);
		failed = 1;
		tep = main_tep;
		return;
	}
	tep_register_event_handler(tep, -1, "ftrace", "funcgraph_entry",
				   tc_graph_handler, "tc ");
	if (parsed_first && parse_format(fgraph_format))
		goto out;
	plugins = tep_load_plugins(tep);
	if (!parsed_first && parse_format(fgraph_format))
		goto unload;

	rec_fgraph(VFS_READ, 3, 4);
	snprintf(name, sizeof(name), "%s: the arguments in the handler's line", how);
	expect(name, "tc |  vfs_read(" NAMED ") {");
	rec_fgraph(VFS_READ, 3, 0);
	snprintf(name, sizeof(name), "%s: no words: the handler's line", how);
	expect(name, "tc |  vfs_read() {");
	snprintf(name, sizeof(name), "%s: probe events", how);
	check(name, nr_fgraph_probes() ? "1" : "0", parsed_first ? "0" : "1");
unload:
	tep_unload_plugins(plugins, tep);
	rec_fgraph(VFS_READ, 3, 4);
	snprintf(name, sizeof(name), "%s: plugin unloaded: the handler's line", how);
	expect(name, "tc |  vfs_read() {");
out:
	tep_free(tep);
	tep = main_tep;
}

/*
 * m. A second trace file, where vfs_read and fput have each other's
 * addresses (another boot): its handle gets its own models, while the
 * first handle, which built vfs_read's at that address, keeps its own,
 * before and after the second handle's plugin unloads.
 */
static void test_two_handles(void)
{
	struct tep_handle *first = tep, *second;
	struct tep_plugin_list *plugins;

	second = new_tep(VFS_READ, FPUT);
	if (!second) {
		printf("FAIL m: no second tep handle\n");
		failed = 1;
		return;
	}
	/*
	 * As "trace-cmd report -O function_args:hex -i a.dat -i b.dat": the
	 * bare option is on for both files after the second one's load
	 */
	tep_plugin_add_option("function_args:hex", NULL);
	tep = second;
	plugins = tep_load_plugins(second);
	if (parse_format(func_args_format))
		goto unload;
	rec_start(VFS_READ, KSYS_READ, 0, 1, 0);
	rec_word(FILE_PTR);
	expect("m: second handle: fput at vfs_read's address of the first",
	       "fput(file=0xffff888001234000) <-ksys_read");
	rec_start(FPUT, KSYS_READ, 0, 4, 0);
	rec_words(vfs_read_words, 4);
	expect("m: second handle: vfs_read at fput's address of the first",
	       "vfs_read(" NAMED_HEX ") <-ksys_read");
	tep = first;
	rec_vfs_read(0);
	expect("m: first handle, beside the second",
	       "vfs_read(" NAMED_HEX ") <-ksys_read");
	tep_plugin_add_option("function_args:hex", "0");
	rec_vfs_read(0);
	expect("m: hex=0", VFS_READ_LINE);
unload:
	tep_unload_plugins(plugins, second);
	tep_free(second);
	tep = first;
	rec_vfs_read(0);
	expect("m: first handle, the second one gone", VFS_READ_LINE);
}

/*
 * n. structs passed by value, member by member: kuid_t in one word (its
 * 4 bytes: the word's upper half is not the value's), struct timespec64
 * in two, with a negative member
 */
static void test_struct(void)
{
	rec_start(FROM_KUID, KSYS_READ, 0, 2, 0);
	rec_word(0xffff888001235000ULL);
	rec_word(0xdeadbeef000003e8ULL);
	expect("n: kuid_t, one word",
	       "from_kuid_munged(targ=0xffff888001235000, kuid={val=1000}) <-ksys_read");

	rec_start(TS_ADD, KSYS_READ, 0, 4, 0);
	rec_word(1700000000);
	rec_word(999999999);
	rec_word(5);
	rec_word(-1ULL);
	expect("n: struct timespec64, two words each",
	       "timespec64_add_safe(lhs={tv_sec=1700000000, tv_nsec=999999999}, rhs={tv_sec=5, tv_nsec=-1}) <-ksys_read");
}

/*
 * What BTF has of m_start and m_next, found by a walk of every type: the
 * number of their FUNCs, whether their return and parameter types all
 * agree, and the parameter names of the lowest id.  Filled by check_btf().
 */
static struct dup {
	const char	*name;
	unsigned long long addr;
	int		want_same;	/* the case: types agree */
	unsigned int	nr_funcs;
	int		same_types;
	unsigned int	nr_params;
	char		params[4][32];
} dups[] = {
	{ .name = "m_start",	.addr = M_START,	.want_same = 0 },
	{ .name = "m_next",	.addr = M_NEXT,		.want_same = 1 },
};

static void find_dup(const struct btf *btf, struct dup *d)
{
	const struct btf_type *t, *proto, *first = NULL;
	const struct btf_param *p, *q;
	unsigned int i, j, n = btf__type_cnt(btf);
	const char *name;

	d->same_types = 1;
	for (i = 1; i < n; i++) {
		t = btf__type_by_id(btf, i);
		if (!btf_is_func(t) ||
		    strcmp(btf__name_by_offset(btf, t->name_off), d->name))
			continue;
		d->nr_funcs++;
		proto = btf__type_by_id(btf, t->type);
		if (!first) {
			first = proto;
			d->nr_params = btf_vlen(proto);
			if (d->nr_params > ARRAY_SIZE(d->params))
				d->nr_params = ARRAY_SIZE(d->params);
			p = btf_params(proto);
			for (j = 0; j < d->nr_params; j++, p++) {
				name = btf__name_by_offset(btf, p->name_off);
				snprintf(d->params[j], sizeof(d->params[j]),
					 "%s", name ?: "");
			}
			continue;
		}
		if (proto->type != first->type ||
		    btf_vlen(proto) != btf_vlen(first)) {
			d->same_types = 0;
			continue;
		}
		p = btf_params(proto);
		q = btf_params(first);
		for (j = 0; j < btf_vlen(proto); j++)
			if (p[j].type != q[j].type)
				d->same_types = 0;
	}
}

/*
 * o. BTF from pahole before 1.25 has several FUNCs of these names and does
 * not say which is at an address.  m_start's take two and three pointers:
 * a record of m_start prints raw whatever its words, as the kernel writes
 * no model for it.  m_next's take the same types under other names: the
 * names of the lowest id.
 */
static void test_dups(void)
{
	const struct dup *d;
	char want[512];
	unsigned int i, j;
	int len;

	for (i = 0; i < ARRAY_SIZE(dups); i++) {
		d = &dups[i];
		if (d->nr_funcs < 2 || d->same_types != d->want_same ||
		    (d->same_types && d->nr_params != 3)) {
			printf("skip o: %s: %u FUNCs in BTF, %s types: %s %s\n",
			       d->name, d->nr_funcs,
			       d->same_types ? "the same" : "other",
			       "not the case this checks",
			       "(pahole 1.25 or later?)");
			continue;
		}
		rec_start(d->addr, KSYS_READ, 0, 3, 0);
		rec_word(0x1000);
		rec_word(0x2000);
		rec_word(0x3000);
		if (!d->same_types) {
			snprintf(want, sizeof(want), "%s(%s) <-ksys_read %s",
				 d->name, "w0=0x1000, w1=0x2000, w2=0x3000",
				 "[raw: no BTF model]");
			expect("o: several prototypes: raw", want);
			continue;
		}
		len = snprintf(want, sizeof(want), "%s(", d->name);
		for (j = 0; j < 3; j++)
			len += snprintf(want + len, sizeof(want) - len,
					"%s%s=0x%x", j ? ", " : "",
					d->params[j], 0x1000 * (j + 1));
		snprintf(want + len, sizeof(want) - len, ") <-ksys_read");
		expect("o: one shape, several names: the lowest id's", want);
	}
}

/* Is prototypes[@i] a function of @btf, as the test expects it? */
static int proto_ok(const struct btf *btf, unsigned int i)
{
	const struct btf_type *fn, *proto;
	const struct btf_param *p;
	unsigned int j;
	__s32 id;

	id = btf__find_by_name_kind(btf, prototypes[i].name, BTF_KIND_FUNC);
	fn = id > 0 ? btf__type_by_id(btf, id) : NULL;
	proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
	if (!proto || !btf_is_func_proto(proto))
		return 0;
	if (!proto->type != !!prototypes[i].ret_void)
		return 0;
	p = btf_params(proto);
	for (j = 0; prototypes[i].params[j]; j++, p++) {
		if (j >= btf_vlen(proto) ||
		    strcmp(btf__name_by_offset(btf, p->name_off),
			   prototypes[i].params[j]))
			return 0;
	}
	return j == btf_vlen(proto);
}

/* Does the BTF in @path have the prototypes that the lines rest on? */
static int check_btf(const char *path)
{
	struct btf *btf = btf__parse(path, NULL);
	unsigned int i;
	int ret = 0;

	if (!btf) {
		fprintf(stderr, "plugin-records: no BTF in %s\n", path);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(dups); i++)
		find_dup(btf, &dups[i]);
	for (i = 0; i < ARRAY_SIZE(prototypes); i++) {
		if (!proto_ok(btf, i)) {
			fprintf(stderr,
				"plugin-records: %s: %s() is not the function of 6.12 that the test expects\n",
				path, prototypes[i].name);
			ret = -1;
		}
	}
	btf__free(btf);
	return ret;
}

/*
 * Did tep_load_plugins() load the plugin from $TRACEEVENT_PLUGIN_DIR, and
 * no other copy (~/.local/lib/traceevent/plugins), whose handler would be
 * the one tested?
 */
static int check_plugin(const struct tep_plugin_list *list)
{
	const char *dir = getenv("TRACEEVENT_PLUGIN_DIR");
	char want[4096], *line, *next;
	int ours = 0, others = 0;
	struct trace_seq s;

	if (!dir || !*dir) {
		fprintf(stderr,
			"plugin-records: TRACEEVENT_PLUGIN_DIR is not set: point it at the plugin's folder\n");
		return -1;
	}
	/* the name that libtraceevent's load_plugin() gives it */
	snprintf(want, sizeof(want), "%s/plugin_function_args.so", dir);

	trace_seq_init(&s);
	tep_print_plugins(&s, "", "\n", list);
	trace_seq_terminate(&s);
	for (line = s.buffer; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strcmp(line, want)) {
			ours++;
		} else if (strlen(line) >= strlen("/plugin_function_args.so") &&
			   !strcmp(line + strlen(line) -
				   strlen("/plugin_function_args.so"),
				   "/plugin_function_args.so")) {
			fprintf(stderr,
				"plugin-records: another copy of the plugin was loaded too: %s (HOME=%s)\n",
				line, getenv("HOME") ? getenv("HOME") : "");
			others++;
		}
	}
	trace_seq_destroy(&s);
	if (!ours)
		fprintf(stderr, "plugin-records: %s was not loaded\n", want);
	return ours == 1 && !others ? 0 : -1;
}

/*
 * A handle as trace-cmd report makes one for a trace.dat of this kernel:
 * x86-64, little-endian, the functions of functions[] in its kallsyms,
 * but for the functions at @a and @b, which swap their addresses
 */
static struct tep_handle *new_tep(unsigned long long a, unsigned long long b)
{
	struct tep_handle *t = tep_alloc();
	unsigned long long addr;
	unsigned int i;

	if (!t) {
		fprintf(stderr, "plugin-records: tep_alloc() failed\n");
		return NULL;
	}
	/* only the plugins of TRACEEVENT_PLUGIN_DIR and ~/.local */
	tep_set_flag(t, TEP_DISABLE_SYS_PLUGINS);
	tep_set_long_size(t, 8);
	tep_set_page_size(t, 4096);
	tep_set_file_bigendian(t, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t, tep_is_bigendian() ? TEP_BIG_ENDIAN :
						      TEP_LITTLE_ENDIAN);
	for (i = 0; i < ARRAY_SIZE(functions); i++) {
		addr = functions[i].addr;
		if (addr == a || addr == b)
			addr = addr == a ? b : a;
		if (tep_register_function(t, functions[i].name, addr, NULL)) {
			fprintf(stderr, "plugin-records: tep_register_function(%s) failed\n",
				functions[i].name);
			tep_free(t);
			return NULL;
		}
	}
	return t;
}

int main(int argc, char **argv)
{
	struct tep_plugin_list *plugins;
	struct tep_event *event;
	enum tep_errno err;
	char msg[256];

	/* the lines so far, should AddressSanitizer stop the program */
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: plugin-records BTF\n");
		return 2;
	}
	if (check_btf(argv[1]))
		return 2;
	/* the plugin reads it when it builds its first model */
	if (setenv("FTRACE_ARGS_BTF", argv[1], 1)) {
		perror("plugin-records: setenv");
		return 2;
	}

	tep = new_tep(0, 0);
	if (!tep)
		return 2;
	/* as trace-cmd report: the plugins first, then the formats */
	plugins = tep_load_plugins(tep);
	if (check_plugin(plugins))
		goto setup_failed;
	err = tep_parse_event(tep, func_args_format,
			      strlen(func_args_format), "ftrace");
	if (err) {
		tep_strerror(tep, err, msg, sizeof(msg));
		fprintf(stderr, "plugin-records: the func_args format: %s\n",
			msg);
		goto setup_failed;
	}
	event = tep_find_event(tep, FUNC_ARGS_ID);
	if (!event || !event->handler) {
		fprintf(stderr,
			"plugin-records: the plugin registered no handler for ftrace:func_args\n");
		goto setup_failed;
	}

	test_named();
	test_cut();
	test_raw();
	test_entry_only();
	test_ret();
	test_nr_words();
	test_strings();
	test_unknown_flags();
	test_struct();
	test_fgraph_bare();
	test_fgraph_wrapped(0);
	test_fgraph_wrapped(1);
	test_two_handles();
	test_dups();

	tep_unload_plugins(plugins, tep);
	tep_free(tep);
	return failed;

setup_failed:
	tep_unload_plugins(plugins, tep);
	tep_free(tep);
	return 2;
}
