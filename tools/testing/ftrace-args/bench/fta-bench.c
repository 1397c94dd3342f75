// SPDX-License-Identifier: GPL-2.0
/*
 * fta-bench: the measuring half of `make bench`, run inside the guest.
 *
 *   fta-bench loop N [WORKLOAD]
 *	Run a system call N times and print the mean nanoseconds per call.
 *	WORKLOAD picks the call and so the kernel function it reaches:
 *	  getppid  getppid()                 __do_sys_getppid()  0 arguments
 *	  affinity sched_getaffinity(0, ...) sched_getaffinity() 2 arguments
 *	  futex    futex(&w, FUTEX_WAKE...)  do_futex()          7 arguments
 *	  openat   openat() of a missing     do_sys_openat2()    a user string
 *	           file in /tmp (tmpfs in the guest; the root is 9p, slow)
 *	  access   faccessat() of the same   do_faccessat()      a user string
 *	           missing file: no struct file to allocate, so cheaper and
 *	           steadier than openat, but the path walk still costs
 *	           tens of thousands of instructions and varies
 *	  badmode  faccessat() of the same   do_faccessat()      a user string
 *	           file with a mode that is not valid: do_faccessat() returns
 *	           -EINVAL before it looks at the path, so the untraced call
 *	           costs about what getppid() does, while a tracer still sees
 *	           (and with funcargs-strings reads) the path string
 *   fta-bench toggle TRACER REPS
 *	Write TRACER, then "nop", to current_tracer REPS times and print the
 *	median time of the enable and of the disable write, and the time of
 *	the first enable, in microseconds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TRACING "/sys/kernel/tracing/"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static unsigned long long median(unsigned long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_ull);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static unsigned long long write_time(const char *file, const char *val)
{
	unsigned long long t0, t1;
	int fd = open(file, O_WRONLY | O_TRUNC);

	if (fd < 0) {
		fprintf(stderr, "open %s: %s\n", file, strerror(errno));
		exit(1);
	}
	t0 = now_ns();
	if (write(fd, val, strlen(val)) < 0) {
		fprintf(stderr, "write '%s' to %s: %s\n", val, file, strerror(errno));
		exit(1);
	}
	t1 = now_ns();
	close(fd);
	return t1 - t0;
}

static unsigned int futex_word;

static void call_getppid(void)
{
	syscall(SYS_getppid);
}

static void call_affinity(void)
{
	cpu_set_t set;

	sched_getaffinity(0, sizeof(set), &set);
}

static void call_futex(void)
{
	syscall(SYS_futex, &futex_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void call_openat(void)
{
	int fd = openat(AT_FDCWD, "/tmp/fta-bench-no-such-file", O_RDONLY);

	if (fd >= 0)
		close(fd);
}

static void call_access(void)
{
	faccessat(AT_FDCWD, "/tmp/fta-bench-no-such-file", F_OK, 0);
}

static void call_badmode(void)
{
	/* Raw syscall: the C library may check the mode itself. */
	syscall(SYS_faccessat, AT_FDCWD, "/tmp/fta-bench-no-such-file", 0100);
}

static const struct {
	const char *name;
	void (*call)(void);
} workloads[] = {
	{ "getppid", call_getppid },
	{ "affinity", call_affinity },
	{ "futex", call_futex },
	{ "openat", call_openat },
	{ "access", call_access },
	{ "badmode", call_badmode },
};

static int cmd_loop(long n, const char *workload)
{
	void (*call)(void) = NULL;
	unsigned long long t0, t1;
	unsigned int w;
	long i;

	for (w = 0; w < ARRAY_SIZE(workloads); w++)
		if (!strcmp(workload, workloads[w].name))
			call = workloads[w].call;
	if (!call) {
		fprintf(stderr, "unknown workload %s\n", workload);
		return 2;
	}

	/* Warm up the caches and the syscall path first. */
	for (i = 0; i < n / 10; i++)
		call();
	t0 = now_ns();
	for (i = 0; i < n; i++)
		call();
	t1 = now_ns();
	printf("%.1f\n", (double)(t1 - t0) / n);
	return 0;
}

static int cmd_toggle(const char *tracer, int reps)
{
	unsigned long long *on, *off, first;
	int i;

	on = calloc(reps, sizeof(*on));
	off = calloc(reps, sizeof(*off));
	if (!on || !off)
		return 1;
	for (i = 0; i < reps; i++) {
		on[i] = write_time(TRACING "current_tracer", tracer);
		off[i] = write_time(TRACING "current_tracer", "nop");
	}
	first = on[0];
	printf("%.1f %.1f %.1f\n", median(on, reps) / 1000.0,
	       median(off, reps) / 1000.0, first / 1000.0);
	free(on);
	free(off);
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 3 || argc == 4) && !strcmp(argv[1], "loop"))
		return cmd_loop(atol(argv[2]), argc == 4 ? argv[3] : "getppid");
	if (argc == 4 && !strcmp(argv[1], "toggle"))
		return cmd_toggle(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: fta-bench loop N [WORKLOAD] | toggle TRACER REPS\n");
	return 2;
}
