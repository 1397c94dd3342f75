// SPDX-License-Identifier: GPL-2.0
/*
 * multitrace - count, time or print the calls of many kernel functions
 * through one BPF tracing multi link (see multitrace.8)
 *
 * The functions are those of available_filter_functions that match the
 * patterns, that BTF has once, and whose arguments and return value each
 * take one register (btf_model.c).  Each mode hand-assembles one BPF
 * program (no BPF compiler needed) and attaches it to all of them with
 * one BPF_LINK_CREATE of a tracing multi link, function i with cookie i:
 *
 *   count    fentry.multi: calls[i]++, a per-CPU array of u64
 *   latency  fsession.multi: the entry run stores bpf_ktime_get_ns() in
 *            the session cookie; the exit run adds the call to
 *            hist[i].calls[log2(ns)] and its ns to hist[i].ns, a per-CPU
 *            array of struct mt_hist
 *   args     fsession.multi: the exit run sends a struct mt_record to a
 *            ring buffer, or counts it in lost[0] when that is full
 *
 * The filters (--pid, else "not multitrace"; --comm) run at entry; an
 * fsession program that returns 1 there skips its exit run.  The pid
 * filters take the ids of multitrace's pid namespace (pid_namespace()).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf_model.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define COMM_LEN	16
#define NR_BUCKETS	64		/* log2 buckets: a power of 2 */
#define RINGBUF_SIZE	(4 << 20)
#define MAX_FUNCS	131072		/* the most that one link takes */
#define MAX_INSNS	256
#define MAX_FIXUPS	32
#define MAX_PROBES	4096
/* latency: the most memory that the per-CPU histograms may take, in all */
#define MAX_HIST_BYTES	(1024ULL * 1024 * 1024)
/* The inode of the init pid namespace (PROC_PID_INIT_INO, not in the uapi) */
#define INIT_PID_NS_INO	0xEFFFFFFCU
/* A module's name is shorter (MODULE_NAME_LEN on 64-bit) */
#define MOD_NAME_LEN	56

#define EXIT_USAGE	1		/* bad usage or input */
#define EXIT_KERNEL	2		/* the kernel or the system */

/* What the args program sends for each call: fixed size */
struct mt_record {
	__u64	ts;			/* entry, bpf_ktime_get_ns() */
	__u64	dur;			/* ns from entry to exit */
	__u64	args[MT_MAX_ARGS];
	__u64	ret;
	__u32	func;			/* the function's index: its cookie */
	__u32	pid;			/* tgid, in the init pid namespace */
	__u32	tid;			/* pid, in the init pid namespace */
	__u32	cpu;
	char	comm[COMM_LEN];
};

/*
 * The latency histogram of a function: calls[b] counts its calls of 2^b
 * to 2^(b+1) - 1 ns (bucket 0: 0 or 1 ns), ns is the time of all of them
 */
struct mt_hist {
	__u64	ns;
	__u64	calls[NR_BUCKETS];
};

#define HIST_WORDS	(sizeof(struct mt_hist) / sizeof(__u64))

enum mode { MODE_COUNT, MODE_LATENCY, MODE_ARGS };

static const char * const mode_names[] = { "count", "latency", "args" };

struct func {
	char		*name;
	__u32		id;		/* its BTF FUNC */
	enum mt_skip	skip;
	int		err;		/* MT_SKIP_REFUSED: the errno */
	struct mt_model	model;
	__u64		calls;		/* so far */
	__u64		key;		/* what the rows are sorted by */
};

static struct {
	enum mode	mode;
	char		**patterns;
	int		nr_patterns;
	char		**names;	/* the patterns without a glob, sorted */
	int		nr_names;
	char		**globs;	/* the others */
	int		nr_globs;
	char		*module;
	int		pid;
	char		*exec;		/* -x: the command to run */
	char		comm[COMM_LEN];
	__u64		min_ns;
	int		has_min, has_interval;
	double		duration, interval;
	unsigned int	top;
	int		json, verbose;
	char		desc[256];	/* the patterns, for messages */
} opt = { .interval = 1.0 };

static struct {
	struct func	*funcs;
	unsigned int	nfunc;		/* with a cookie: attached or refused */
	unsigned int	nattached, max_args;
	unsigned int	skipped[MT_NR_SKIP];
	unsigned int	*row;		/* the functions shown, in order */
	struct btf	*vmlinux, *btf;	/* btf: where the functions are */
	int		btf_fd;		/* a module's BTF object, else -1 */
	enum bpf_attach_type type;
	int		kf_is_return, kf_cookie;
	int		map, lost_map, probe, prog, link;
	struct ring_buffer *rb;
	int		ncpu;
	__u64		*pcpu;		/* one per-CPU value, of every CPU */
	__u64		printed;
	double		t0, last;	/* tracing since; the last refresh */
	int		tty, shown, cols, rows;
	pid_t		child;		/* -x's shell, until it ends */
	int		child_status;	/* -x: what multitrace exits with */
	int		pidfd;		/* -p's process, else -1 */
	int		ns_init;	/* in the init pid namespace */
	__u64		ns_dev, ns_ino;	/* else its nsfs dev_t and inode */
} mt = { .btf_fd = -1, .map = -1, .lost_map = -1, .probe = -1, .prog = -1,
	 .link = -1, .pidfd = -1 };

static int stop_sig;	/* the signal that ends tracing; __atomic */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* On a terminal: "WHAT ... 0.4 s" on stderr, until progress_end() */
static struct {
	pthread_t	thread;
	int		running;	/* __atomic */
	int		tty;
	char		what[128];
	double		t0;
} progress;

static void *progress_fn(void *arg)
{
	struct timespec ts = { 0, 100000000 };

	(void)arg;
	while (__atomic_load_n(&progress.running, __ATOMIC_ACQUIRE)) {
		fprintf(stderr, "\r\033[K%s ... %.1f s", progress.what,
			now() - progress.t0);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void progress_begin(const char *what)
{
	if (!progress.tty)
		return;
	snprintf(progress.what, sizeof(progress.what), "%s", what);
	progress.t0 = now();
	__atomic_store_n(&progress.running, 1, __ATOMIC_RELEASE);
	if (pthread_create(&progress.thread, NULL, progress_fn, NULL))
		__atomic_store_n(&progress.running, 0, __ATOMIC_RELEASE);
}

static void progress_end(void)
{
	if (!__atomic_load_n(&progress.running, __ATOMIC_ACQUIRE))
		return;
	__atomic_store_n(&progress.running, 0, __ATOMIC_RELEASE);
	pthread_join(progress.thread, NULL);
	fputs("\r\033[K", stderr);
}

/* One line on stderr, and exit, which closes every fd: detaches */
static void die(int code, const char *fmt, ...)
{
	va_list ap;

	progress_end();
	fputs("multitrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* -x's command does not outlive the tracing that it was run for */
	if (mt.child > 0) {
		kill(mt.child, SIGTERM);
		waitpid(mt.child, NULL, 0);
	}
	exit(code);
}

static const char help[] =
	"Usage: multitrace MODE [OPTION]... PATTERN...\n"
	"Count, time or print the calls of many kernel functions at once, through\n"
	"one BPF tracing multi link.  PATTERN is a glob (*, ?, [...]) of the names\n"
	"in available_filter_functions; MOD:PATTERN takes module MOD's functions.\n"
	"Functions that cannot be traced are skipped, and counted: not in BTF, a\n"
	"name there twice (static functions), over 6 arguments, an argument or\n"
	"return value not in one register (a struct by value), refused by the\n"
	"kernel.\n"
	"\n"
	"Modes:\n"
	"  count     calls per function, refreshed every interval, busiest first\n"
	"  latency   per function: calls, average, p50 and p99 estimates, and a\n"
	"            histogram of the durations in log2 buckets\n"
	"  args      a line per call, as the function_args tracer prints it:\n"
	"            COMM-TID [CPU] TIME: func(arg=value, ...) = ret (DURATION us)\n"
	"\n"
	"Options:\n"
	"  -p, --pid PID         process PID only, all its threads (a thread's id\n"
	"                        stands for its process); ends when it exits\n"
	"  -x, --exec CMD        run CMD (with /bin/sh -c) once attached; end when\n"
	"                        it exits\n"
	"  -c, --comm COMM       tasks named COMM only (its first 15 characters)\n"
	"  -m, --min-us USECS    latency, args: calls of USECS or more only\n"
	"  -M, --module MOD      the functions of module MOD (or MOD:PATTERN)\n"
	"  -d, --duration SECS   end after SECS seconds (default: at Ctrl-C)\n"
	"  -i, --interval SECS   count: refresh every SECS seconds (default 1)\n"
	"  -n, --top N           the N busiest functions only (default: what the\n"
	"                        terminal holds, 20 off a terminal, all at the end)\n"
	"  -j, --json            JSON lines for scripts, with the same data\n"
	"  -v, --verbose         list the skipped functions; the verifier's log\n"
	"  -h, --help            this help\n"
	"\n"
	"Without -p, multitrace leaves its own calls out.  Ctrl-C, SIGTERM, the end\n"
	"of -d, of -p's process or of -x's command detaches every function and\n"
	"prints a summary:\n"
	"the calls of each function, the histograms, or the calls printed and lost.\n"
	"\n"
	"Examples:\n"
	"  multitrace count 'vfs_*'\n"
	"  multitrace latency 'ext4_*' -d 10\n"
	"  multitrace args vfs_read -p 1234\n"
	"  multitrace args -m 1000 -c postgres 'vfs_fsync*'\n"
	"  multitrace count --json -d 5 'xfs:xfs_file_*'\n"
	"\n"
	"Exit status: 0 traced until the end (with -x: the command's status, or\n"
	"128 + its signal); 1 bad usage or input (an unknown option, a bad value,\n"
	"a pattern that matches nothing, functions that cannot be traced); 2 the\n"
	"kernel or the system (not root, no tracefs, no BTF, no tracing multi\n"
	"links, a refused attach, output that cannot be written).  See\n"
	"multitrace(8).\n";

/* @s as a number in [@min, @max], or exit naming @what */
static double parse_num(const char *s, const char *what, double min,
			double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max))
		die(EXIT_USAGE, "%s: bad value '%s' (%g to %g)", what, s, min,
		    max);
	return v;
}

static int parse_int(const char *s, const char *what, int min, int max)
{
	double v = parse_num(s, what, min, max);

	if (v != (int)v)
		die(EXIT_USAGE, "%s: bad value '%s' (a whole number)", what, s);
	return (int)v;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* The @len bytes at @s: a module's name?  As modprobe, '-' stands for '_' */
static int is_module_name(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= MOD_NAME_LEN)
		return 0;
	for (i = 0; i < len; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-')
			return 0;
	}
	return 1;
}

/* @mod with '-' as '_', as the kernel names modules */
static void module_name(char *mod)
{
	for (; *mod; mod++) {
		if (*mod == '-')
			*mod = '_';
	}
}

/*
 * The module of MOD:PATTERN or --module, and the patterns for messages.
 * Only a module's name before the first ':' makes MOD:PATTERN, so that a
 * glob such as '[[:alpha:]]*' stays a pattern of vmlinux.  Without
 * --module, MOD:PATTERN and a PATTERN of vmlinux do not mix: one link
 * takes the functions of one BTF object.
 */
static void parse_patterns(void)
{
	const char *plain = NULL, *with_mod = NULL;
	int i, has_opt = !!opt.module;
	struct mt_sbuf sb;
	char *colon, *mod;

	if (opt.module && !is_module_name(opt.module, strlen(opt.module)))
		die(EXIT_USAGE, "--module: '%s' is no module name", opt.module);
	if (opt.module)
		module_name(opt.module);
	mt_sbuf_init(&sb);
	for (i = 0; i < opt.nr_patterns; i++) {
		colon = strchr(opt.patterns[i], ':');
		if (colon && is_module_name(opt.patterns[i],
					    colon - opt.patterns[i])) {
			if (!colon[1])
				die(EXIT_USAGE, "'%s': no pattern after the module",
				    opt.patterns[i]);
			mod = strndup(opt.patterns[i], colon - opt.patterns[i]);
			if (!mod)
				die(EXIT_KERNEL, "out of memory");
			module_name(mod);
			if (opt.module && strcmp(opt.module, mod))
				die(EXIT_USAGE, "one module at a time: %s or %s",
				    opt.module, mod);
			if (opt.module != mod)
				free(opt.module);
			opt.module = mod;
			with_mod = opt.patterns[i];
			opt.patterns[i] = colon + 1;
		} else if (!plain) {
			plain = opt.patterns[i];
		}
		mt_sbuf_printf(&sb, "%s'%s'", i ? " " : "", opt.patterns[i]);
	}
	if (!has_opt && with_mod && plain)
		die(EXIT_USAGE,
		    "'%s' is of module %s, '%s' of vmlinux: one link takes the functions of one, so give each pattern the module, or use --module",
		    with_mod, opt.module, plain);
	snprintf(opt.desc, sizeof(opt.desc), "%s", sb.buf);
	opt.names = calloc(opt.nr_patterns, sizeof(*opt.names));
	opt.globs = calloc(opt.nr_patterns, sizeof(*opt.globs));
	if (!opt.names || !opt.globs)
		die(EXIT_KERNEL, "out of memory");
	for (i = 0; i < opt.nr_patterns; i++) {
		if (strpbrk(opt.patterns[i], "*?[\\"))
			opt.globs[opt.nr_globs++] = opt.patterns[i];
		else
			opt.names[opt.nr_names++] = opt.patterns[i];
	}
	qsort(opt.names, opt.nr_names, sizeof(*opt.names), cmp_str);
}

static void parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid",	required_argument,	NULL, 'p' },
		{ "exec",	required_argument,	NULL, 'x' },
		{ "comm",	required_argument,	NULL, 'c' },
		{ "min-us",	required_argument,	NULL, 'm' },
		{ "module",	required_argument,	NULL, 'M' },
		{ "duration",	required_argument,	NULL, 'd' },
		{ "interval",	required_argument,	NULL, 'i' },
		{ "top",	required_argument,	NULL, 'n' },
		{ "json",	no_argument,		NULL, 'j' },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "help",	no_argument,		NULL, 'h' },
		{ NULL,		0,			NULL, 0 },
	};
	unsigned int i;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "p:x:c:m:M:d:i:n:jvh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'p':
			opt.pid = parse_int(optarg, "--pid", 1, 0x3fffffff);
			break;
		case 'x':
			opt.exec = optarg;
			break;
		case 'c':
			snprintf(opt.comm, sizeof(opt.comm), "%s", optarg);
			break;
		case 'm':
			opt.min_ns = parse_num(optarg, "--min-us", 0, 1e9) * 1000;
			opt.has_min = 1;
			break;
		case 'M':
			opt.module = strdup(optarg);
			if (!opt.module)
				die(EXIT_KERNEL, "out of memory");
			break;
		case 'd':
			opt.duration = parse_num(optarg, "--duration", 0.001, 1e7);
			break;
		case 'i':
			opt.interval = parse_num(optarg, "--interval", 0.01, 1e6);
			opt.has_interval = 1;
			break;
		case 'n':
			opt.top = parse_int(optarg, "--top", 1, 1000000);
			break;
		case 'j':
			opt.json = 1;
			break;
		case 'v':
			opt.verbose = 1;
			break;
		case 'h':
			fputs(help, stdout);
			exit(0);
			break;
		default:
			if (optopt)
				die(EXIT_USAGE,
				    "bad option -%c, or its value is missing; see --help",
				    optopt);
			die(EXIT_USAGE, "bad option %s; see --help",
			    argv[optind - 1]);
			break;
		}
	}
	if (optind >= argc)
		die(EXIT_USAGE, "no mode (count, latency or args); see --help");
	for (i = 0; i < ARRAY_SIZE(mode_names); i++) {
		if (!strcmp(argv[optind], mode_names[i]))
			break;
	}
	if (i == ARRAY_SIZE(mode_names))
		die(EXIT_USAGE,
		    "unknown mode '%s' (count, latency or args); see --help",
		    argv[optind]);
	opt.mode = i;
	opt.patterns = &argv[optind + 1];
	opt.nr_patterns = argc - optind - 1;
	if (!opt.nr_patterns)
		die(EXIT_USAGE, "no function pattern; see --help");
	if (opt.has_min && opt.mode == MODE_COUNT)
		die(EXIT_USAGE, "--min-us is for latency and args");
	if (opt.has_interval && opt.mode != MODE_COUNT)
		die(EXIT_USAGE, "--interval is for count");
	if (opt.pid && opt.exec)
		die(EXIT_USAGE, "--pid and --exec exclude each other");
	parse_patterns();
}

/* --- Which tasks ------------------------------------------------------- */

/*
 * The pid namespace that multitrace runs in.  bpf_get_current_pid_tgid()
 * gives the ids of the init pid namespace: they are getpid()'s and -p's
 * only when multitrace runs there.  Elsewhere (in a container), the
 * filters take a task's ids in multitrace's namespace from
 * bpf_get_ns_current_pid_tgid(), given the namespace's nsfs dev and
 * inode; it fails for the tasks of other namespaces.
 */
static void pid_namespace(void)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st)) {
		/* without CONFIG_PID_NS, the init namespace is the only one */
		if (errno == ENOENT && !access("/proc/self/stat", F_OK)) {
			mt.ns_init = 1;
			return;
		}
		die(EXIT_KERNEL, "cannot tell the pid namespace: /proc/self/ns/pid: %s",
		    strerror(errno));
	}
	mt.ns_init = st.st_ino == INIT_PID_NS_INO;
	/* the helper compares the kernel's dev_t, MKDEV(major, minor) */
	mt.ns_dev = (__u64)major(st.st_dev) << 20 | minor(st.st_dev);
	mt.ns_ino = st.st_ino;
}

/* The "Tgid:" of task @tid in /proc, 0 when it has none, -1 when gone */
static int proc_tgid(int tid)
{
	char path[40], *line = NULL;
	size_t size = 0;
	int tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT || errno == ESRCH ? -1 : 0;
	while (getline(&line, &size, f) > 0) {
		if (!strncmp(line, "Tgid:", 5)) {
			tgid = atoi(line + 5);
			break;
		}
	}
	free(line);
	fclose(f);
	return tgid;
}

/*
 * -p PID: a process of multitrace's pid namespace, as /proc shows it.
 * A thread's id stands for its process (as perf -p takes it), since the
 * filter compares the tgid.  A pidfd tells when the process ends, and
 * cannot be taken in by a new process with the same pid.
 */
static void setup_pid(void)
{
	char path[40], self[24];
	struct stat st;
	ssize_t len;
	int tgid;

	len = readlink("/proc/self", self, sizeof(self) - 1);
	self[len > 0 ? len : 0] = '\0';
	if (atoi(self) != getpid())
		die(EXIT_KERNEL, "--pid: /proc is not of multitrace's pid namespace");
	tgid = proc_tgid(opt.pid);
	if (tgid < 0)
		die(EXIT_USAGE, "--pid: no process %d", opt.pid);
	if (tgid > 0 && tgid != opt.pid) {
		fprintf(stderr,
			"multitrace: --pid: %d is a thread of process %d: tracing all of its threads\n",
			opt.pid, tgid);
		opt.pid = tgid;
	}
	mt.pidfd = syscall(SYS_pidfd_open, opt.pid, 0);
	if (mt.pidfd < 0 && errno == ESRCH)
		die(EXIT_USAGE, "--pid: no process %d", opt.pid);
	if (mt.pidfd < 0 && errno == EINVAL)
		die(EXIT_USAGE, "--pid: %d is a thread, and /proc does not tell its process",
		    opt.pid);
	/* no pidfd (before 5.3, or seccomp): pid_gone() polls /proc */
	if (mt.ns_init)
		return;
	/* the filter sees the tasks of multitrace's namespace, not nested */
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", opt.pid);
	if (!stat(path, &st) && st.st_ino != mt.ns_ino)
		die(EXIT_USAGE,
		    "--pid: process %d is in a pid namespace nested in multitrace's: run multitrace in that one, or in the init one",
		    opt.pid);
}

/* --- Which functions --------------------------------------------------- */

/*
 * Does @name match a pattern?  A plain name is looked up in the sorted
 * list, so that a list of thousands of names costs a bsearch a line of
 * available_filter_functions, not thousands of fnmatch() calls.
 */
static int match(const char *name)
{
	int i;

	if (opt.nr_names && bsearch(&name, opt.names, opt.nr_names,
				    sizeof(*opt.names), cmp_str))
		return 1;
	for (i = 0; i < opt.nr_globs; i++) {
		if (!fnmatch(opt.globs[i], name, 0))
			return 1;
	}
	return 0;
}

static int cmp_func_name(const void *a, const void *b)
{
	return strcmp(((const struct func *)a)->name,
		      ((const struct func *)b)->name);
}

/*
 * mt.funcs = the functions of available_filter_functions that match, of
 * vmlinux or of --module, a name once.  A name there twice (static
 * functions) is ambiguous: the link would take the one that kallsyms
 * finds first.  Returns their number.
 */
static unsigned int read_functions(void)
{
	static const char * const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	unsigned int n = 0, cap = 0, i, j, k;
	char path[96], *line = NULL, *sp, *mod;
	size_t size = 0;
	FILE *fp = NULL;
	struct func *f;
	int err = ENOENT;

	for (i = 0; i < ARRAY_SIZE(dirs) && !fp; i++) {
		snprintf(path, sizeof(path), "%s/available_filter_functions",
			 dirs[i]);
		fp = fopen(path, "r");
		if (!fp && errno != ENOENT)
			err = errno;
	}
	if (!fp)
		die(EXIT_KERNEL, "no available_filter_functions in %s or %s: %s%s",
		    dirs[0], dirs[1], strerror(err),
		    err == EACCES || err == EPERM ? " (run as root)" : "");
	while (getline(&line, &size, fp) > 0) {
		/* "name" of vmlinux, "name [module]" */
		line[strcspn(line, "\n")] = '\0';
		mod = NULL;
		sp = strchr(line, ' ');
		if (sp) {
			*sp = '\0';
			mod = strchr(sp + 1, '[');
		}
		if (mod) {
			mod++;
			mod[strcspn(mod, "]")] = '\0';
		}
		if (opt.module ? !mod || strcmp(mod, opt.module) : !!mod)
			continue;
		if (!match(line))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			f = realloc(mt.funcs, cap * sizeof(*f));
			if (!f)
				die(EXIT_KERNEL, "out of memory");
			mt.funcs = f;
		}
		memset(&mt.funcs[n], 0, sizeof(mt.funcs[n]));
		mt.funcs[n].name = strdup(line);
		if (!mt.funcs[n++].name)
			die(EXIT_KERNEL, "out of memory");
	}
	free(line);
	fclose(fp);
	if (n)
		qsort(mt.funcs, n, sizeof(*mt.funcs), cmp_func_name);
	for (i = 0, k = 0; i < n; i = j, k++) {
		j = i + 1;
		while (j < n && !strcmp(mt.funcs[i].name, mt.funcs[j].name))
			free(mt.funcs[j++].name);
		mt.funcs[k] = mt.funcs[i];
		if (j - i > 1)
			mt.funcs[k].skip = MT_SKIP_AMBIGUOUS;
	}
	return k;
}

/* A BTF FUNC by name; id 0 when the name is there twice */
struct btf_name {
	const char	*name;
	__u32		id;
};

static int cmp_btf_name(const void *a, const void *b)
{
	return strcmp(((const struct btf_name *)a)->name,
		      ((const struct btf_name *)b)->name);
}

/* The FUNCs of @btf from type @first on, sorted by name */
static struct btf_name *index_funcs(const struct btf *btf, __u32 first,
				    unsigned int *nr)
{
	__u32 id, cnt = btf__type_cnt(btf);
	const struct btf_type *t;
	struct btf_name *idx;
	unsigned int n = 0, i;

	idx = calloc(cnt, sizeof(*idx));
	if (!idx)
		die(EXIT_KERNEL, "out of memory");
	for (id = first; id < cnt; id++) {
		t = btf__type_by_id(btf, id);
		if (!t || !btf_is_func(t))
			continue;
		idx[n].name = btf__name_by_offset(btf, t->name_off);
		idx[n].id = id;
		if (idx[n].name)
			n++;
	}
	qsort(idx, n, sizeof(*idx), cmp_btf_name);
	for (i = 1; i < n; i++) {
		if (!strcmp(idx[i].name, idx[i - 1].name)) {
			idx[i].id = 0;
			idx[i - 1].id = 0;
		}
	}
	*nr = n;
	return idx;
}

/*
 * An fd of the kernel's BTF object of module @name, for the link, or -1.
 * It is above 2: in the link's btf_fds, 0 stands for vmlinux, and fd 0
 * is free when multitrace runs with stdin closed.
 */
static int module_btf_fd(const char *name)
{
	struct bpf_btf_info info;
	__u32 id = 0, len;
	char buf[64];
	int fd, high;

	while (!bpf_btf_get_next_id(id, &id)) {
		fd = bpf_btf_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		memset(buf, 0, sizeof(buf));
		info.name = (unsigned long)buf;
		info.name_len = sizeof(buf) - 1;
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    info.kernel_btf && !strcmp(buf, name)) {
			if (fd > STDERR_FILENO)
				return fd;
			high = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
			close(fd);
			return high;
		}
		close(fd);
	}
	return -1;
}

/* "10: 8 not in BTF, 2 over 6 arguments"; nothing when none is skipped */
static void skip_summary(struct mt_sbuf *sb)
{
	const char *sep = ": ";
	unsigned int r, n = 0;

	for (r = MT_OK + 1; r < MT_NR_SKIP; r++)
		n += mt.skipped[r];
	if (!n)
		return;
	mt_sbuf_printf(sb, "%u", n);
	for (r = MT_OK + 1; r < MT_NR_SKIP; r++) {
		if (!mt.skipped[r])
			continue;
		mt_sbuf_printf(sb, "%s%u %s", sep, mt.skipped[r],
			       mt_skip_str(r));
		sep = ", ";
	}
}

/* Can @f, found in BTF as @hit (or not), be traced?  Its model if so */
static enum mt_skip check_func(struct func *f, const struct btf_name *hit)
{
	if (!hit)
		return MT_SKIP_NO_BTF;
	if (!hit->id)
		return MT_SKIP_AMBIGUOUS;
	f->id = hit->id;
	return mt_model_build(mt.btf, hit->id, &f->model);
}

/*
 * The functions to attach: those that match, in BTF once, whose
 * arguments and return value a multi program can read.  The others are
 * counted by reason, and listed with --verbose.
 */
static void resolve(void)
{
	struct btf_name key, *idx;
	unsigned int n, i, k = 0, nidx;
	struct mt_sbuf sb;
	struct func *f;

	mt_sbuf_init(&sb);
	mt_sbuf_printf(&sb, "resolving %s%s%s", opt.module ? opt.module : "",
		       opt.module ? ":" : "", opt.desc);
	progress_begin(sb.buf);
	n = read_functions();
	if (!n && opt.module)
		die(EXIT_USAGE, "no function of module %s matches %s (is it loaded?)",
		    opt.module, opt.desc);
	if (!n)
		die(EXIT_USAGE, "no traceable function matches %s", opt.desc);

	mt.vmlinux = btf__load_vmlinux_btf();
	if (!mt.vmlinux)
		die(EXIT_KERNEL,
		    "no vmlinux BTF (/sys/kernel/btf/vmlinux): %s; the kernel needs CONFIG_DEBUG_INFO_BTF",
		    strerror(errno));
	mt.btf = mt.vmlinux;
	if (opt.module) {
		mt.btf = btf__load_module_btf(opt.module, mt.vmlinux);
		if (!mt.btf)
			die(EXIT_KERNEL, "no BTF of module %s: %s", opt.module,
			    strerror(errno));
		mt.btf_fd = module_btf_fd(opt.module);
		if (mt.btf_fd < 0)
			die(EXIT_KERNEL, "no BTF object of module %s", opt.module);
	}
	idx = index_funcs(mt.btf, opt.module ? btf__type_cnt(mt.vmlinux) : 1,
			  &nidx);
	for (i = 0; i < n; i++) {
		f = &mt.funcs[i];
		key.name = f->name;
		if (!f->skip)
			f->skip = check_func(f, bsearch(&key, idx, nidx,
							sizeof(*idx),
							cmp_btf_name));
		if (n == 1 && f->skip)
			die(EXIT_USAGE, "%s: cannot be traced: %s", f->name,
			    mt_skip_str(f->skip));
		if (!f->skip) {
			if (f->model.nr_args > mt.max_args)
				mt.max_args = f->model.nr_args;
			mt.funcs[k++] = *f;
			continue;
		}
		if (opt.verbose)
			fprintf(stderr, "skipped %s: %s\n", f->name,
				mt_skip_str(f->skip));
		mt.skipped[f->skip]++;
		free(f->name);
	}
	free(idx);
	progress_end();
	mt_sbuf_init(&sb);
	skip_summary(&sb);
	if (!k)
		die(EXIT_USAGE, "none of the %u functions that match %s can be traced (skipped %s)",
		    n, opt.desc, sb.buf);
	if (k > MAX_FUNCS)
		die(EXIT_USAGE, "%u functions match %s, over the %d of a link",
		    k, opt.desc, MAX_FUNCS);
	mt.nfunc = k;
	mt.row = calloc(k, sizeof(*mt.row));
	if (!mt.row)
		die(EXIT_KERNEL, "out of memory");
}

/* --- The BPF programs -------------------------------------------------- */

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
#define MOV_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define ALU_IMM(op, d, i)	INSN(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define ALU_REG(op, d, s)	INSN(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define JMP_IMM(op, d, i)	INSN(BPF_JMP | (op) | BPF_K, d, 0, 0, i)
#define JMP_REG(op, d, s)	INSN(BPF_JMP | (op) | BPF_X, d, s, 0, 0)
#define JA()			INSN(BPF_JMP | BPF_JA, 0, 0, 0, 0)
#define LDX(sz, d, s, o)	INSN(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define STX(sz, d, s, o)	INSN(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, i)		INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define KFUNC(id)		INSN(BPF_JMP | BPF_CALL, 0, \
				     BPF_PSEUDO_KFUNC_CALL, 0, id)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/*
 * The stack: the task's comm, a map key, the record of a call, the ids
 * of the task in multitrace's pid namespace
 */
#define COMM_OFF	(-16)
#define KEY_OFF		(-24)
#define REC_OFF		(KEY_OFF - (int)sizeof(struct mt_record))
#define REC(field)	(REC_OFF + (int)offsetof(struct mt_record, field))
#define NS_OFF		(REC_OFF - (int)sizeof(struct bpf_pidns_info))

/* Where jumps go: resolve_labels() fills in their offsets */
enum { L_RET0, L_RET1, L_EXIT_RUN, NR_LABELS };

struct prog_buf {
	struct bpf_insn	insn[MAX_INSNS];
	unsigned int	n, nfix;
	int		label[NR_LABELS], used[NR_LABELS];
	unsigned int	fix_at[MAX_FIXUPS], fix_label[MAX_FIXUPS];
	int		overflow;
};

static struct prog_buf prog;

static void prog_init(struct prog_buf *p)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < NR_LABELS; i++)
		p->label[i] = -1;
}

static void emit(struct prog_buf *p, struct bpf_insn insn)
{
	if (p->n >= MAX_INSNS)
		p->overflow = 1;
	else
		p->insn[p->n++] = insn;
}

static void emit_jmp(struct prog_buf *p, struct bpf_insn insn,
		     unsigned int label)
{
	if (p->nfix >= MAX_FIXUPS) {
		p->overflow = 1;
		return;
	}
	p->fix_at[p->nfix] = p->n;
	p->fix_label[p->nfix++] = label;
	p->used[label] = 1;
	emit(p, insn);
}

static void set_label(struct prog_buf *p, unsigned int label)
{
	p->label[label] = p->n;
}

/* The jump at @at, emitted with offset 0, lands on the next insn */
static void land_here(struct prog_buf *p, unsigned int at)
{
	if (at < p->n)
		p->insn[at].off = p->n - at - 1;
}

static int resolve_labels(struct prog_buf *p)
{
	unsigned int i;
	int to;

	for (i = 0; i < p->nfix && !p->overflow; i++) {
		to = p->label[p->fix_label[i]];
		if (to < 0 || p->fix_at[i] >= p->n)
			return -1;
		p->insn[p->fix_at[i]].off = to - (int)p->fix_at[i] - 1;
	}
	return p->overflow ? -1 : 0;
}

static void emit_ld64(struct prog_buf *p, int reg, int src, __u64 val)
{
	emit(p, INSN(BPF_LD | BPF_DW | BPF_IMM, reg, src, 0, (__u32)val));
	emit(p, INSN(0, 0, 0, 0, (__u32)(val >> 32)));
}

/* r0 = &@map[the u32 at KEY_OFF], or return 0 */
static void emit_lookup(struct prog_buf *p, int map)
{
	emit_ld64(p, BPF_REG_1, BPF_PSEUDO_MAP_FD, map);
	emit(p, MOV_REG(BPF_REG_2, BPF_REG_10));
	emit(p, ALU_IMM(BPF_ADD, BPF_REG_2, KEY_OFF));
	emit(p, CALL(BPF_FUNC_map_lookup_elem));
	emit_jmp(p, JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_RET0);
}

/*
 * r0 = &mt.map[the function's index], or return 0.  The index is the
 * attach cookie, checked against the number of functions; the context
 * is in r6.
 */
static void emit_func_lookup(struct prog_buf *p)
{
	emit(p, MOV_REG(BPF_REG_1, BPF_REG_6));
	emit(p, CALL(BPF_FUNC_get_attach_cookie));
	emit_jmp(p, JMP_IMM(BPF_JGE, BPF_REG_0, mt.nfunc), L_RET0);
	emit(p, STX(BPF_W, BPF_REG_10, BPF_REG_0, KEY_OFF));
	emit_lookup(p, mt.map);
}

/* *(u64 *)(r0 + @off) += @src, a register: a per-CPU value */
static void emit_add(struct prog_buf *p, int off, int src)
{
	emit(p, LDX(BPF_DW, BPF_REG_1, BPF_REG_0, off));
	emit(p, ALU_REG(BPF_ADD, BPF_REG_1, src));
	emit(p, STX(BPF_DW, BPF_REG_0, BPF_REG_1, off));
}

/*
 * The filters, on the current task: its tgid is --pid (without it: not
 * multitrace's), its comm is --comm.  A task that fails goes to @fail.
 * The tgid is the one of multitrace's pid namespace: outside the init
 * one, a task of another namespace is not --pid, nor multitrace.
 */
static void emit_filters(struct prog_buf *p, unsigned int fail)
{
	__u64 w[2];
	int i, at = -1;

	if (mt.ns_init) {
		emit(p, CALL(BPF_FUNC_get_current_pid_tgid));
		emit(p, ALU_IMM(BPF_RSH, BPF_REG_0, 32));
	} else {
		/* r0 = bpf_get_ns_current_pid_tgid(dev, ino, &ns, 8) */
		emit_ld64(p, BPF_REG_1, 0, mt.ns_dev);
		emit_ld64(p, BPF_REG_2, 0, mt.ns_ino);
		emit(p, MOV_REG(BPF_REG_3, BPF_REG_10));
		emit(p, ALU_IMM(BPF_ADD, BPF_REG_3, NS_OFF));
		emit(p, MOV_IMM(BPF_REG_4, sizeof(struct bpf_pidns_info)));
		emit(p, CALL(BPF_FUNC_get_ns_current_pid_tgid));
		if (opt.pid) {
			emit_jmp(p, JMP_IMM(BPF_JNE, BPF_REG_0, 0), fail);
		} else {
			at = p->n;
			emit(p, JMP_IMM(BPF_JNE, BPF_REG_0, 0));
		}
		emit(p, LDX(BPF_W, BPF_REG_0, BPF_REG_10,
			    NS_OFF + (int)offsetof(struct bpf_pidns_info, tgid)));
	}
	if (opt.pid)
		emit_jmp(p, JMP_IMM(BPF_JNE, BPF_REG_0, opt.pid), fail);
	else
		emit_jmp(p, JMP_IMM(BPF_JEQ, BPF_REG_0, getpid()), fail);
	/* another namespace's task: on to --comm */
	if (at >= 0)
		land_here(p, at);
	if (!opt.comm[0])
		return;
	/* bpf_get_current_comm() pads with NULs, as opt.comm is padded */
	emit(p, MOV_REG(BPF_REG_1, BPF_REG_10));
	emit(p, ALU_IMM(BPF_ADD, BPF_REG_1, COMM_OFF));
	emit(p, MOV_IMM(BPF_REG_2, COMM_LEN));
	emit(p, CALL(BPF_FUNC_get_current_comm));
	memcpy(w, opt.comm, sizeof(w));
	for (i = 0; i < 2; i++) {
		emit(p, LDX(BPF_DW, BPF_REG_1, BPF_REG_10, COMM_OFF + 8 * i));
		emit_ld64(p, BPF_REG_2, 0, w[i]);
		emit_jmp(p, JMP_REG(BPF_JNE, BPF_REG_1, BPF_REG_2), fail);
	}
}

/* The ends: return 0; return 1 (at entry: skip the exit run) */
static void emit_returns(struct prog_buf *p)
{
	set_label(p, L_RET0);
	emit(p, MOV_IMM(BPF_REG_0, 0));
	emit(p, EXIT());
	if (!p->used[L_RET1])
		return;
	set_label(p, L_RET1);
	emit(p, MOV_IMM(BPF_REG_0, 1));
	emit(p, EXIT());
}

/* fentry.multi: calls[cookie]++, for the tasks that pass */
static void gen_count(struct prog_buf *p)
{
	emit(p, MOV_REG(BPF_REG_6, BPF_REG_1));
	emit_filters(p, L_RET0);
	emit_func_lookup(p);
	emit(p, MOV_IMM(BPF_REG_2, 1));
	emit_add(p, 0, BPF_REG_2);
	emit_returns(p);
}

/*
 * fsession.multi, the start of both programs.  Entry run: a task that
 * passes the filters stores bpf_ktime_get_ns() in the session cookie and
 * returns 0; the others return 1, which skips their exit run.  Exit run:
 * what follows runs with r7 = the entry time, r8 = the call's ns, when
 * that is --min-us or more.
 */
static void gen_session(struct prog_buf *p)
{
	emit(p, MOV_REG(BPF_REG_6, BPF_REG_1));
	emit(p, KFUNC(mt.kf_is_return));
	emit(p, ALU_IMM(BPF_AND, BPF_REG_0, 0xff));	/* a bool */
	emit_jmp(p, JMP_IMM(BPF_JNE, BPF_REG_0, 0), L_EXIT_RUN);

	/* entry: *bpf_session_cookie() = bpf_ktime_get_ns() */
	emit_filters(p, L_RET1);
	emit(p, KFUNC(mt.kf_cookie));
	emit_jmp(p, JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_RET0);
	emit(p, MOV_REG(BPF_REG_7, BPF_REG_0));
	emit(p, CALL(BPF_FUNC_ktime_get_ns));
	emit(p, STX(BPF_DW, BPF_REG_7, BPF_REG_0, 0));
	emit_jmp(p, JA(), L_RET0);

	/* exit: r7 = *bpf_session_cookie(), r8 = now - r7 */
	set_label(p, L_EXIT_RUN);
	emit(p, KFUNC(mt.kf_cookie));
	emit_jmp(p, JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_RET0);
	emit(p, LDX(BPF_DW, BPF_REG_7, BPF_REG_0, 0));
	emit_jmp(p, JMP_IMM(BPF_JEQ, BPF_REG_7, 0), L_RET0);
	emit(p, CALL(BPF_FUNC_ktime_get_ns));
	emit(p, MOV_REG(BPF_REG_8, BPF_REG_0));
	emit(p, ALU_REG(BPF_SUB, BPF_REG_8, BPF_REG_7));
	if (opt.min_ns) {
		emit_ld64(p, BPF_REG_1, 0, opt.min_ns);
		emit_jmp(p, JMP_REG(BPF_JLT, BPF_REG_8, BPF_REG_1), L_RET0);
	}
}

/* fsession.multi: hist[cookie].calls[log2(ns)]++, hist[cookie].ns += ns */
static void gen_latency(struct prog_buf *p)
{
	unsigned int at;
	int s;

	gen_session(p);
	/* r9 = log2(r8) by halving: r7 is what is left of r8 */
	emit(p, MOV_REG(BPF_REG_7, BPF_REG_8));
	emit(p, MOV_IMM(BPF_REG_9, 0));
	for (s = 32; s; s /= 2) {
		emit(p, MOV_REG(BPF_REG_1, BPF_REG_7));
		emit(p, ALU_IMM(BPF_RSH, BPF_REG_1, s));
		at = p->n;
		emit(p, JMP_IMM(BPF_JEQ, BPF_REG_1, 0));
		emit(p, MOV_REG(BPF_REG_7, BPF_REG_1));
		emit(p, ALU_IMM(BPF_ADD, BPF_REG_9, s));
		land_here(p, at);
	}
	emit_func_lookup(p);
	emit_add(p, offsetof(struct mt_hist, ns), BPF_REG_8);
	/* r0 = &calls[r9]: the mask shows the verifier that it is in bounds */
	emit(p, ALU_IMM(BPF_AND, BPF_REG_9, NR_BUCKETS - 1));
	emit(p, ALU_IMM(BPF_LSH, BPF_REG_9, 3));
	emit(p, ALU_REG(BPF_ADD, BPF_REG_0, BPF_REG_9));
	emit(p, MOV_IMM(BPF_REG_2, 1));
	emit_add(p, offsetof(struct mt_hist, calls), BPF_REG_2);
	emit_returns(p);
}

/* fsession.multi: at exit, a struct mt_record to the ring buffer */
static void gen_args(struct prog_buf *p)
{
	int i;

	gen_session(p);
	/* the record, zeroed first: all of it goes out */
	for (i = 0; i < (int)sizeof(struct mt_record); i += 8)
		emit(p, ST(BPF_DW, BPF_REG_10, REC_OFF + i, 0));
	emit(p, STX(BPF_DW, BPF_REG_10, BPF_REG_7, REC(ts)));
	emit(p, STX(BPF_DW, BPF_REG_10, BPF_REG_8, REC(dur)));
	/* bpf_get_func_arg(ctx, i, &args[i]), as many as a function has */
	for (i = 0; i < (int)mt.max_args; i++) {
		emit(p, MOV_REG(BPF_REG_1, BPF_REG_6));
		emit(p, MOV_IMM(BPF_REG_2, i));
		emit(p, MOV_REG(BPF_REG_3, BPF_REG_10));
		emit(p, ALU_IMM(BPF_ADD, BPF_REG_3, REC(args) + 8 * i));
		emit(p, CALL(BPF_FUNC_get_func_arg));
	}
	emit(p, MOV_REG(BPF_REG_1, BPF_REG_6));
	emit(p, MOV_REG(BPF_REG_2, BPF_REG_10));
	emit(p, ALU_IMM(BPF_ADD, BPF_REG_2, REC(ret)));
	emit(p, CALL(BPF_FUNC_get_func_ret));
	/* the function, the task, the CPU */
	emit(p, MOV_REG(BPF_REG_1, BPF_REG_6));
	emit(p, CALL(BPF_FUNC_get_attach_cookie));
	emit(p, STX(BPF_W, BPF_REG_10, BPF_REG_0, REC(func)));
	emit(p, CALL(BPF_FUNC_get_current_pid_tgid));
	emit(p, STX(BPF_W, BPF_REG_10, BPF_REG_0, REC(tid)));
	emit(p, ALU_IMM(BPF_RSH, BPF_REG_0, 32));
	emit(p, STX(BPF_W, BPF_REG_10, BPF_REG_0, REC(pid)));
	emit(p, CALL(BPF_FUNC_get_smp_processor_id));
	emit(p, STX(BPF_W, BPF_REG_10, BPF_REG_0, REC(cpu)));
	emit(p, MOV_REG(BPF_REG_1, BPF_REG_10));
	emit(p, ALU_IMM(BPF_ADD, BPF_REG_1, REC(comm)));
	emit(p, MOV_IMM(BPF_REG_2, COMM_LEN));
	emit(p, CALL(BPF_FUNC_get_current_comm));
	/* bpf_ringbuf_output(); when it finds no room, lost[0]++ */
	emit_ld64(p, BPF_REG_1, BPF_PSEUDO_MAP_FD, mt.map);
	emit(p, MOV_REG(BPF_REG_2, BPF_REG_10));
	emit(p, ALU_IMM(BPF_ADD, BPF_REG_2, REC_OFF));
	emit(p, MOV_IMM(BPF_REG_3, (int)sizeof(struct mt_record)));
	emit(p, MOV_IMM(BPF_REG_4, 0));
	emit(p, CALL(BPF_FUNC_ringbuf_output));
	emit_jmp(p, JMP_IMM(BPF_JEQ, BPF_REG_0, 0), L_RET0);
	emit(p, ST(BPF_W, BPF_REG_10, KEY_OFF, 0));
	emit_lookup(p, mt.lost_map);
	emit(p, MOV_IMM(BPF_REG_2, 1));
	emit_add(p, 0, BPF_REG_2);
	emit_returns(p);
}

static char verifier_log[1 << 20];

/* The verifier's last word: its last line but the statistics */
static const char *log_reason(void)
{
	char *end = verifier_log + strlen(verifier_log), *line;

	while (end > verifier_log) {
		while (end > verifier_log && (end[-1] == '\n' || end[-1] == ' '))
			*--end = '\0';
		line = strrchr(verifier_log, '\n');
		line = line ? line + 1 : verifier_log;
		if (strncmp(line, "processed ", 10) &&
		    strncmp(line, "verification time", 17))
			return line;
		end = line;
		*end = '\0';
	}
	return "no verifier log";
}

/* Load @p: its fd, or -errno with the verifier's log in verifier_log */
static int load(struct prog_buf *p, const char *name)
{
	LIBBPF_OPTS(bpf_prog_load_opts, lo);
	int fd;

	if (resolve_labels(p))
		die(EXIT_KERNEL, "internal error: the %s program does not fit",
		    name);
	/* libbpf loads again with a log when the first load fails */
	lo.expected_attach_type = mt.type;
	lo.log_buf = verifier_log;
	lo.log_size = sizeof(verifier_log);
	verifier_log[0] = '\0';
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, name, "GPL", p->insn, p->n,
			   &lo);
	if (fd < 0 && opt.verbose)
		fprintf(stderr, "%s: %u insns; verifier log:\n%s\n", name, p->n,
			verifier_log);
	return fd;
}

/*
 * Does the kernel have tracing multi programs of our type, and for
 * fsession, the session kfuncs?  An empty program tells; attach_link()
 * also uses it to find the functions that the kernel refuses.
 */
static void check_kernel(void)
{
	const char *type = opt.mode == MODE_COUNT ? "fentry.multi" :
						    "fsession.multi";
	int fd;

	mt.type = opt.mode == MODE_COUNT ? BPF_TRACE_FENTRY_MULTI :
					   BPF_TRACE_FSESSION_MULTI;
	prog_init(&prog);
	emit(&prog, MOV_IMM(BPF_REG_0, 0));
	emit(&prog, EXIT());
	fd = load(&prog, "mt_probe");
	if (fd == -EPERM || fd == -EACCES)
		die(EXIT_KERNEL, "not permitted to load BPF programs: run as root");
	if (fd < 0)
		die(EXIT_KERNEL, "this kernel has no %s programs: %s (%s)",
		    type, strerror(-fd), log_reason());
	mt.probe = fd;
	if (opt.mode == MODE_COUNT)
		return;
	mt.kf_is_return = btf__find_by_name_kind(mt.vmlinux,
						 "bpf_session_is_return",
						 BTF_KIND_FUNC);
	mt.kf_cookie = btf__find_by_name_kind(mt.vmlinux, "bpf_session_cookie",
					      BTF_KIND_FUNC);
	if (mt.kf_is_return <= 0 || mt.kf_cookie <= 0)
		die(EXIT_KERNEL, "no session kfuncs in vmlinux BTF: no %s programs",
		    type);
}

static void create_maps(void)
{
	unsigned long long bytes;

	mt.ncpu = libbpf_num_possible_cpus();
	if (mt.ncpu <= 0)
		die(EXIT_KERNEL, "cannot tell the number of CPUs");
	/* the histograms: a struct mt_hist per function and possible CPU */
	bytes = (unsigned long long)mt.nfunc * sizeof(struct mt_hist) * mt.ncpu;
	if (opt.mode == MODE_LATENCY && bytes > MAX_HIST_BYTES)
		die(EXIT_USAGE,
		    "latency: the histograms of %u functions on %d CPUs would take %llu MiB, over %llu MiB: trace fewer functions",
		    mt.nfunc, mt.ncpu, bytes >> 20, MAX_HIST_BYTES >> 20);
	if (opt.mode == MODE_COUNT)
		mt.map = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "mt_calls",
					sizeof(__u32), sizeof(__u64), mt.nfunc,
					NULL);
	else if (opt.mode == MODE_LATENCY)
		mt.map = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "mt_hist",
					sizeof(__u32), sizeof(struct mt_hist),
					mt.nfunc, NULL);
	else
		mt.map = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "mt_records", 0,
					0, RINGBUF_SIZE, NULL);
	if (mt.map >= 0 && opt.mode == MODE_ARGS)
		mt.lost_map = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY,
					     "mt_lost", sizeof(__u32),
					     sizeof(__u64), 1, NULL);
	if (mt.map < 0 || (opt.mode == MODE_ARGS && mt.lost_map < 0))
		die(EXIT_KERNEL, "cannot create the BPF maps for %u functions: %s",
		    mt.nfunc, strerror(errno));
	mt.pcpu = calloc((size_t)mt.ncpu * HIST_WORDS, sizeof(*mt.pcpu));
	if (!mt.pcpu)
		die(EXIT_KERNEL, "out of memory");
}

static void load_program(void)
{
	static const char * const names[] = {
		"mt_count", "mt_latency", "mt_args",
	};
	int fd;

	prog_init(&prog);
	if (opt.mode == MODE_COUNT)
		gen_count(&prog);
	else if (opt.mode == MODE_LATENCY)
		gen_latency(&prog);
	else
		gen_args(&prog);
	fd = load(&prog, names[opt.mode]);
	if (fd < 0)
		die(EXIT_KERNEL, "the verifier refused the %s program: %s (%s)%s",
		    names[opt.mode], strerror(-fd), log_reason(),
		    opt.verbose ? "" : "; -v shows its log");
	mt.prog = fd;
}

/* --- Attaching --------------------------------------------------------- */

/* The arrays of BPF_LINK_CREATE: the functions not refused so far */
struct link_args {
	__u32		*ids;
	__u64		*cookies;
	__u32		*fds;		/* NULL: all in vmlinux */
	unsigned int	cnt;
};

static void fill_link_args(struct link_args *la)
{
	unsigned int i;

	la->cnt = 0;
	for (i = 0; i < mt.nfunc; i++) {
		if (mt.funcs[i].skip)
			continue;
		la->ids[la->cnt] = mt.funcs[i].id;
		la->cookies[la->cnt] = i;
		if (la->fds)
			la->fds[la->cnt] = mt.btf_fd;
		la->cnt++;
	}
}

/* A tracing multi link of @prog_fd on @cnt functions of @la from @first */
static int link_create(int prog_fd, const struct link_args *la,
		       unsigned int first, unsigned int cnt)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.attach_type = mt.type;
	attr.link_create.tracing_multi.ids = (unsigned long)(la->ids + first);
	attr.link_create.tracing_multi.cookies =
		(unsigned long)(la->cookies + first);
	attr.link_create.tracing_multi.cnt = cnt;
	if (la->fds)
		attr.link_create.tracing_multi.btf_fds =
			(unsigned long)(la->fds + first);
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}

/* Could one function cause @err, rather than the system? */
static int per_function(int err)
{
	return err != EPERM && err != EACCES && err != ENOMEM &&
	       err != EFAULT && err != EOPNOTSUPP;
}

/*
 * Which of the @cnt functions of @la from @first does the kernel refuse?
 * The empty program goes on halves of the range, each for a moment,
 * down to single functions, which get MT_SKIP_REFUSED.
 *
 * Return: how many it found, or a -errno that no function causes.
 */
static int find_refused(const struct link_args *la, unsigned int first,
			unsigned int cnt, unsigned int *probes)
{
	struct func *f;
	int fd, a, b;

	if (++*probes > MAX_PROBES)
		return -E2BIG;
	fd = link_create(mt.probe, la, first, cnt);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (!per_function(-fd))
		return fd;
	if (cnt == 1) {
		f = &mt.funcs[la->cookies[first]];
		f->skip = MT_SKIP_REFUSED;
		f->err = -fd;
		return 1;
	}
	a = find_refused(la, first, cnt / 2, probes);
	if (a < 0)
		return a;
	b = find_refused(la, first + cnt / 2, cnt - cnt / 2, probes);
	return b < 0 ? b : a + b;
}

/*
 * Die of the error @err of the link of @la: the functions left of @total
 * when the search for those that the kernel refuses (if @searched) found
 * @found of them, or failed (@found < 0) after finding @nref.
 */
static void attach_error(const struct link_args *la, unsigned int total,
			 int err, int searched, int found, unsigned int nref)
{
	const struct func *f = NULL;
	unsigned int i;

	if (err == EPERM || err == EACCES)
		die(EXIT_KERNEL, "not permitted to attach: %s%s", strerror(err),
		    geteuid() ? " (run as root)" : "");
	if (!la->cnt) {
		for (i = 0; i < mt.nfunc && !f; i++) {
			if (mt.funcs[i].skip == MT_SKIP_REFUSED)
				f = &mt.funcs[i];
		}
		die(EXIT_KERNEL, "the kernel refuses each of the %u functions (%s: %s)",
		    total, f ? f->name : "?", strerror(f ? f->err : err));
	}
	if (la->cnt == 1)
		die(EXIT_KERNEL, "cannot attach to %s: %s",
		    mt.funcs[la->cookies[0]].name, strerror(err));
	if (found > 0)
		die(EXIT_KERNEL,
		    "cannot attach to the %u functions left of %u when %d are refused: %s",
		    la->cnt, total, found, strerror(err));
	if (found == -E2BIG)
		die(EXIT_KERNEL,
		    "cannot attach to the %u functions: %s; gave up looking for those that the kernel refuses after %u tries (%u found)",
		    la->cnt, strerror(err), MAX_PROBES, nref);
	if (found < 0)
		die(EXIT_KERNEL,
		    "cannot attach to the %u functions: %s; looking for those that the kernel refuses: %s",
		    la->cnt, strerror(err), strerror(-found));
	if (searched)
		die(EXIT_KERNEL,
		    "cannot attach to the %u functions: %s; an empty program finds none that the kernel refuses",
		    la->cnt, strerror(err));
	die(EXIT_KERNEL, "cannot attach to the %u functions: %s", la->cnt,
	    strerror(err));
}

/*
 * One link on every function.  It is all or nothing: when the kernel
 * refuses it for what may be one function's sake, find those functions,
 * say which, and link the others.
 */
static void attach_link(void)
{
	unsigned int i, probes = 0, total, nref = 0;
	struct link_args la = { 0 };
	int fd, found = 0, searched = 0;
	double t0 = now();
	struct mt_sbuf sb;

	la.ids = calloc(mt.nfunc, sizeof(*la.ids));
	la.cookies = calloc(mt.nfunc, sizeof(*la.cookies));
	la.fds = mt.btf_fd >= 0 ? calloc(mt.nfunc, sizeof(*la.fds)) : NULL;
	if (!la.ids || !la.cookies || (mt.btf_fd >= 0 && !la.fds))
		die(EXIT_KERNEL, "out of memory");
	fill_link_args(&la);
	mt_sbuf_init(&sb);
	mt_sbuf_printf(&sb, "attaching %u functions", la.cnt);
	progress_begin(sb.buf);
	total = la.cnt;
	fd = link_create(mt.prog, &la, 0, la.cnt);
	if (fd < 0 && la.cnt > 1 && per_function(-fd)) {
		searched = 1;
		found = find_refused(&la, 0, la.cnt, &probes);
		if (found > 0) {
			mt.skipped[MT_SKIP_REFUSED] += found;
			fill_link_args(&la);
			if (la.cnt)
				fd = link_create(mt.prog, &la, 0, la.cnt);
		}
	}
	progress_end();
	mt_sbuf_init(&sb);
	for (i = 0; i < mt.nfunc; i++) {
		if (mt.funcs[i].skip != MT_SKIP_REFUSED)
			continue;
		nref++;
		mt_sbuf_printf(&sb, "%s %s (%s)", sb.len ? "," : ":",
			       mt.funcs[i].name, strerror(mt.funcs[i].err));
	}
	/* the refused, when found; not all of them, nor a search cut short */
	if (found > 0 && la.cnt)
		fprintf(stderr, "refused by the kernel%s\n", sb.buf);
	if (fd < 0)
		attach_error(&la, total, -fd, searched, found, nref);
	mt.link = fd;
	mt.nattached = la.cnt;
	mt.t0 = now();
	mt.last = mt.t0;
	mt_sbuf_init(&sb);
	skip_summary(&sb);
	fprintf(stderr, "attached %u functions in %.2f s%s%s%s\n", la.cnt,
		mt.t0 - t0, sb.len ? "; skipped " : "", sb.buf,
		progress.tty ? " (Ctrl-C to end)" : "");
	free(la.ids);
	free(la.cookies);
	free(la.fds);
}

/* --- Output ------------------------------------------------------------ */

static void term_size(void)
{
	struct winsize ws;

	mt.cols = 80;
	mt.rows = 24;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col) {
		mt.cols = ws.ws_col < 40 ? 40 : ws.ws_col;
		mt.rows = ws.ws_row ? ws.ws_row : 24;
	}
}

/* @name in at most @width columns: its middle gives way to ".." */
static const char *fit(char *buf, size_t size, const char *name, int width)
{
	int len = strlen(name), tail = width / 3;

	if (len <= width || width < 8 || (size_t)width >= size)
		return name;
	snprintf(buf, size, "%.*s..%s", width - 2 - tail, name,
		 name + len - tail);
	return buf;
}

static void json_str(const char *s)
{
	const unsigned char *c;

	putchar('"');
	for (c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			printf("\\u%04x", *c);
		else
			putchar(*c);
	}
	putchar('"');
}

static const char *fmt_ns(char *buf, size_t size, double ns)
{
	if (ns < 1e3)
		snprintf(buf, size, "%.0fns", ns);
	else if (ns < 1e6)
		snprintf(buf, size, "%.1fus", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, size, "%.1fms", ns / 1e6);
	else
		snprintf(buf, size, "%.2fs", ns / 1e9);
	return buf;
}

/* The sum over the CPUs of the @words u64s at @key of per-CPU array @map */
static int read_percpu(int map, __u32 key, __u64 *sum, unsigned int words)
{
	unsigned int cpu, w;

	if (bpf_map_lookup_elem(map, &key, mt.pcpu))
		return -1;
	for (w = 0; w < words; w++) {
		sum[w] = 0;
		for (cpu = 0; cpu < (unsigned int)mt.ncpu; cpu++)
			sum[w] += mt.pcpu[cpu * words + w];
	}
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	const struct func *fa = &mt.funcs[*(const unsigned int *)a];
	const struct func *fb = &mt.funcs[*(const unsigned int *)b];

	if (fa->key != fb->key)
		return fa->key < fb->key ? 1 : -1;
	return strcmp(fa->name, fb->name);
}

/* mt.row = the functions whose key is not 0, busiest first */
static unsigned int sort_rows(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < mt.nfunc; i++) {
		if (mt.funcs[i].key)
			mt.row[n++] = i;
	}
	qsort(mt.row, n, sizeof(*mt.row), cmp_key);
	return n;
}

/*
 * count: the busiest functions, by their calls since the last refresh,
 * or (@final) in all
 */
static void show_counts(double t, int final)
{
	unsigned int n, i, top;
	__u64 v, sum = 0, total = 0;
	char name[256], hms[16];
	time_t wall = time(NULL);
	struct func *f;
	struct tm tm;
	int w;

	for (i = 0; i < mt.nfunc; i++) {
		f = &mt.funcs[i];
		v = f->calls;
		if (!f->skip)
			read_percpu(mt.map, i, &v, 1);
		f->key = final ? v : v - f->calls;
		f->calls = v;
		sum += f->key;
		total += f->calls;
	}
	n = sort_rows();
	term_size();
	if (opt.top)
		top = opt.top;
	else if (final)
		top = n;
	else if (!mt.tty)
		top = 20;
	else
		top = mt.rows > 9 ? mt.rows - 4 : 5;
	top = top < n ? top : n;
	if (opt.json) {
		printf("{\"type\":\"%s\",\"mode\":\"count\",\"elapsed_s\":%.3f,",
		       final ? "summary" : "interval", t - mt.t0);
		printf("\"interval_s\":%.3f,\"functions\":%u,\"called\":%u,",
		       t - mt.last, mt.nattached, n);
		printf("\"calls\":%llu,\"total\":%llu,\"counts\":[", sum, total);
		for (i = 0; i < top; i++) {
			f = &mt.funcs[mt.row[i]];
			printf("%s{\"func\":", i ? "," : "");
			json_str(f->name);
			printf(",\"calls\":%llu,\"total\":%llu}", f->key,
			       f->calls);
		}
		puts("]}");
		goto out;
	}
	w = mt.cols - (final ? 14 : 27);
	if (final) {
		printf("%s--- %u of %u functions called, %llu calls in %.1f s ---\n",
		       mt.shown ? "\n" : "", n, mt.nattached, total,
		       t - mt.t0);
		printf("%-*s %12s\n", w, "FUNCTION", "CALLS");
	} else {
		localtime_r(&wall, &tm);
		strftime(hms, sizeof(hms), "%H:%M:%S", &tm);
		fputs(mt.tty ? "\033[H\033[J" : mt.shown ? "\n" : "", stdout);
		printf("%s  %u functions, %llu calls in %.1f s, %.1f s in all\n",
		       hms, mt.nattached, sum, t - mt.last, t - mt.t0);
		printf("%-*s %12s %12s\n", w, "FUNCTION", "CALLS", "TOTAL");
	}
	for (i = 0; i < top; i++) {
		f = &mt.funcs[mt.row[i]];
		printf("%-*s %12llu", w, fit(name, sizeof(name), f->name, w),
		       f->key);
		if (final)
			putchar('\n');
		else
			printf(" %12llu\n", f->calls);
	}
	if (n > top)
		printf("(%u more)\n", n - top);
out:
	fflush(stdout);
	mt.shown = 1;
	mt.last = t;
}

/* The @q quantile of histogram @h of @calls calls, linear in its bucket */
static double quantile(const struct mt_hist *h, __u64 calls, double q)
{
	double want = q * calls, seen = 0, lo;
	unsigned int b;

	if (want < 1)
		want = 1;
	for (b = 0; b < NR_BUCKETS; b++) {
		if (!h->calls[b])
			continue;
		lo = b ? (double)(1ULL << b) : 0;
		if (seen + h->calls[b] >= want)
			return lo + (2 * (double)(1ULL << b) - lo) *
				    (want - seen) / h->calls[b];
		seen += h->calls[b];
	}
	return 0;
}

static void show_histogram(const struct func *f, const struct mt_hist *h)
{
	unsigned int i, first = NR_BUCKETS, last = 0, bw, len;
	char a[32], b[32], c[32], name[256], bar[64];
	double avg, p50, p99;
	__u64 max = 0;

	for (i = 0; i < NR_BUCKETS; i++) {
		if (!h->calls[i])
			continue;
		first = first < i ? first : i;
		last = i;
		max = h->calls[i] > max ? h->calls[i] : max;
	}
	avg = (double)h->ns / f->calls;
	p50 = quantile(h, f->calls, 0.5);
	p99 = quantile(h, f->calls, 0.99);
	if (opt.json) {
		printf("{\"type\":\"latency\",\"func\":");
		json_str(f->name);
		printf(",\"calls\":%llu,\"avg_ns\":%.0f,\"p50_ns\":%.0f,",
		       f->calls, avg, p50);
		printf("\"p99_ns\":%.0f,\"hist\":[", p99);
		for (i = first; i <= last; i++) {
			if (h->calls[i])
				printf("%s{\"lo_ns\":%.0f,\"hi_ns\":%.0f,\"calls\":%llu}",
				       i > first ? "," : "",
				       i ? (double)(1ULL << i) : 0,
				       2 * (double)(1ULL << i), h->calls[i]);
		}
		puts("]}");
		return;
	}
	printf("%s: %llu calls, avg %s, p50 ~%s, p99 ~%s\n",
	       fit(name, sizeof(name), f->name, mt.cols - 55), f->calls,
	       fmt_ns(a, sizeof(a), avg), fmt_ns(b, sizeof(b), p50),
	       fmt_ns(c, sizeof(c), p99));
	/* the bars: 10 to 60 columns, what the terminal has left */
	bw = mt.cols > 46 ? mt.cols - 36 : 10;
	bw = bw > 60 ? 60 : bw;
	printf("  %8s - %-8s %10s  distribution\n", "from", "to", "calls");
	for (i = first; i <= last; i++) {
		len = max ? h->calls[i] * bw / max : 0;
		len = len > bw ? bw : len;
		len = h->calls[i] && !len ? 1 : len;
		memset(bar, '#', len);
		bar[len] = '\0';
		printf("  %8s - %-8s %10llu |%-*s|\n",
		       fmt_ns(a, sizeof(a), i ? (double)(1ULL << i) : 0),
		       fmt_ns(b, sizeof(b), 2 * (double)(1ULL << i)),
		       h->calls[i], (int)bw, bar);
	}
	putchar('\n');
}

/* The histograms: one lookup a function, of all CPUs' struct mt_hist */
static void latency_summary(double elapsed)
{
	unsigned int i, b, n, top;
	struct mt_hist *h;
	__u64 sum = 0;
	struct func *f;

	h = calloc(mt.nfunc, sizeof(*h));
	if (!h)
		die(EXIT_KERNEL, "out of memory");
	for (i = 0; i < mt.nfunc; i++) {
		f = &mt.funcs[i];
		if (!f->skip &&
		    !read_percpu(mt.map, i, (__u64 *)&h[i], HIST_WORDS)) {
			for (b = 0; b < NR_BUCKETS; b++)
				f->calls += h[i].calls[b];
		}
		f->key = f->calls;
		sum += f->calls;
	}
	n = sort_rows();
	top = opt.top && opt.top < n ? opt.top : n;
	if (!opt.json)
		printf("--- %u of %u functions called, %llu calls in %.1f s ---\n",
		       n, mt.nattached, sum, elapsed);
	for (i = 0; i < top; i++)
		show_histogram(&mt.funcs[mt.row[i]], &h[mt.row[i]]);
	if (!opt.json && n > top)
		printf("(%u more)\n", n - top);
	if (opt.json) {
		printf("{\"type\":\"summary\",\"mode\":\"latency\",");
		printf("\"elapsed_s\":%.3f,\"functions\":%u,\"called\":%u,",
		       elapsed, mt.nattached, n);
		printf("\"calls\":%llu}\n", sum);
	}
	free(h);
}

/*
 * args: a call, as function_args prints it, or as JSON.  As function_args
 * stamps a call-through record, the time is the call's exit, so that the
 * lines of a CPU go forward in time; but the clock is CLOCK_MONOTONIC
 * (bpf_ktime_get_ns()), not the trace clock.
 */
static int on_record(void *ctx, void *data, size_t size)
{
	const struct mt_record *r = data;
	const struct mt_model *m;
	char comm[COMM_LEN + 1];
	struct mt_sbuf sb, ret;
	__u64 ts;

	(void)ctx;
	if (size < sizeof(*r) || r->func >= mt.nfunc)
		return 0;
	ts = r->ts + r->dur;
	m = &mt.funcs[r->func].model;
	memcpy(comm, r->comm, COMM_LEN);
	comm[COMM_LEN] = '\0';
	mt_sbuf_init(&sb);
	mt_format_args(&sb, m, r->args, opt.json);
	mt_sbuf_init(&ret);
	if (m->ret.class != MT_VOID)
		mt_format_value(&ret, m, &m->ret, r->ret, opt.json);
	if (opt.json) {
		printf("{\"type\":\"call\",\"func\":");
		json_str(mt.funcs[r->func].name);
		printf(",\"comm\":");
		json_str(comm);
		printf(",\"pid\":%u,\"tid\":%u,\"cpu\":%u,\"ts_ns\":%llu,",
		       r->pid, r->tid, r->cpu, ts);
		printf("\"dur_ns\":%llu,\"args\":{%s},\"ret\":%s}\n", r->dur,
		       sb.buf, ret.len ? ret.buf : "null");
	} else {
		printf("%s-%u [%03u] %llu.%06llu: %s(%s)%s%s (%llu.%03llu us)\n",
		       comm, r->tid, r->cpu, ts / 1000000000,
		       ts % 1000000000 / 1000, mt.funcs[r->func].name,
		       sb.buf, ret.len ? " = " : "", ret.buf, r->dur / 1000,
		       r->dur % 1000);
	}
	mt.printed++;
	return 0;
}

/* --- Running ----------------------------------------------------------- */

static void on_signal(int sig)
{
	__atomic_store_n(&stop_sig, sig, __ATOMIC_RELAXED);
}

/* SIGCHLD: only cuts the sleep short, so that -x's end is seen at once */
static void on_child(int sig)
{
	(void)sig;
}

/*
 * Has -p's process ended?  Its pidfd tells, readable once it has; without
 * one, /proc: gone, or a zombie (a new process may take its pid there).
 */
static int pid_gone(void)
{
	struct pollfd pfd = { .fd = mt.pidfd, .events = POLLIN };
	char path[32], buf[256], *p;
	int gone = 0;
	FILE *f;

	if (mt.pidfd >= 0)
		return poll(&pfd, 1, 0) > 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", opt.pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	if (fgets(buf, sizeof(buf), f)) {
		/* "pid (comm) S ...": the comm may hold anything */
		p = strrchr(buf, ')');
		gone = p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
	}
	fclose(f);
	return gone;
}

/* A waitpid() status as a shell gives it: the exit code, or 128 + signal */
static int exit_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Has -x's command ended?  Then it is reaped */
static int child_done(void)
{
	int status;

	if (mt.child <= 0 || waitpid(mt.child, &status, WNOHANG) != mt.child)
		return 0;
	mt.child = 0;
	mt.child_status = exit_status(status);
	return 1;
}

/* -x: run the command, now that the functions are attached */
static void start_child(void)
{
	fflush(NULL);
	mt.child = fork();
	if (mt.child < 0)
		die(EXIT_KERNEL, "--exec: fork: %s", strerror(errno));
	if (!mt.child) {
		execl("/bin/sh", "sh", "-c", opt.exec, (char *)NULL);
		fprintf(stderr, "multitrace: --exec: /bin/sh: %s\n",
			strerror(errno));
		_exit(127);
	}
}

/*
 * Trace until a signal, the end of -d, the end of -p's process or of
 * -x's command
 */
static void run(void)
{
	double end = opt.duration ? mt.t0 + opt.duration : 0;
	double next = mt.t0 + opt.interval, t, nap;
	struct pollfd pfd = { .fd = mt.pidfd, .events = POLLIN };
	struct timespec ts;
	int ret;

	if (opt.mode == MODE_ARGS) {
		mt.rb = ring_buffer__new(mt.map, on_record, NULL, NULL);
		if (!mt.rb)
			die(EXIT_KERNEL, "ring buffer: %s", strerror(errno));
	}
	while (!__atomic_load_n(&stop_sig, __ATOMIC_RELAXED)) {
		t = now();
		if ((end && t >= end) || (opt.pid && pid_gone()) ||
		    child_done())
			break;
		if (opt.mode == MODE_COUNT && t >= next) {
			show_counts(t, 0);
			while (next <= t)
				next += opt.interval;
			continue;
		}
		nap = 0.2;
		if (opt.mode == MODE_COUNT && next - t < nap)
			nap = next - t;
		if (end && end - t < nap)
			nap = end - t;
		if (mt.rb) {
			ret = ring_buffer__poll(mt.rb, (int)(nap * 1000) + 1);
			if (ret < 0 && ret != -EINTR)
				die(EXIT_KERNEL, "ring buffer: %s",
				    strerror(-ret));
			if (ret > 0)
				fflush(stdout);
			continue;
		}
		/* -p: the nap ends when its process does */
		if (mt.pidfd >= 0) {
			poll(&pfd, 1, (int)(nap * 1000) + 1);
			continue;
		}
		ts.tv_sec = (time_t)nap;
		ts.tv_nsec = (long)((nap - ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
}

/* Detach every function at once, then print what is final */
static void finish(void)
{
	double elapsed = now() - mt.t0;
	__u64 lost = 0;

	close(mt.link);
	mt.link = -1;
	term_size();
	if (opt.mode == MODE_COUNT) {
		show_counts(now(), 1);
	} else if (opt.mode == MODE_LATENCY) {
		latency_summary(elapsed);
	} else {
		ring_buffer__consume(mt.rb);
		read_percpu(mt.lost_map, 0, &lost, 1);
		if (!opt.json)
			printf("--- %llu calls printed, %llu lost, in %.1f s ---\n",
			       mt.printed, lost, elapsed);
		if (opt.json) {
			printf("{\"type\":\"summary\",\"mode\":\"args\",");
			printf("\"elapsed_s\":%.3f,\"functions\":%u,", elapsed,
			       mt.nattached);
			printf("\"printed\":%llu,\"lost\":%llu}\n", mt.printed,
			       lost);
		}
	}
	fflush(stdout);
	ring_buffer__free(mt.rb);
	close(mt.prog);
	close(mt.probe);
	close(mt.map);
	if (mt.lost_map >= 0)
		close(mt.lost_map);
	if (mt.btf_fd >= 0)
		close(mt.btf_fd);
	if (mt.pidfd >= 0)
		close(mt.pidfd);
}

int main(int argc, char **argv)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/*
	 * A signal cuts the sleep and the poll short with or without
	 * SA_RESTART (signal(7)); SA_RESTART keeps a write to a full pipe
	 * from failing with EINTR and losing the output.
	 */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	mt.tty = isatty(STDOUT_FILENO);
	progress.tty = isatty(STDERR_FILENO);

	parse_args(argc, argv);
	pid_namespace();
	if (opt.pid)
		setup_pid();
	resolve();
	check_kernel();
	create_maps();
	load_program();
	attach_link();
	/* a signal during the set-up ends the run before -x's command */
	if (opt.exec && !__atomic_load_n(&stop_sig, __ATOMIC_RELAXED))
		start_child();
	run();
	finish();
	/* tracing ended before -x's command: it gets the signal too */
	if (mt.child > 0) {
		int status;

		/* A second signal cuts the wait short, as before SA_RESTART */
		sa.sa_flags = 0;
		sa.sa_handler = on_signal;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		kill(mt.child, SIGTERM);
		if (waitpid(mt.child, &status, 0) == mt.child)
			mt.child_status = exit_status(status);
		else
			mt.child_status = 128 + SIGTERM;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "multitrace: writing the output: %s\n",
			strerror(errno));
		return EXIT_KERNEL;
	}
	if (mt.btf != mt.vmlinux)
		btf__free(mt.btf);
	btf__free(mt.vmlinux);
	return mt.child_status;
}
