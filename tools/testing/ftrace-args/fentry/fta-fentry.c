// SPDX-License-Identifier: GPL-2.0
/*
 * fta-fentry FUNC... -- CMD [ARG...]
 *
 * Attaches an empty BPF fentry program to each kernel function FUNC, runs
 * CMD while they are attached, then exits, which detaches them.  The
 * tests use it to see BPF trampolines in direct_functions without a BPF
 * compiler: the program is two instructions, loaded with libbpf's
 * low-level calls.  Exits with CMD's status, or 2 when an attach fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

static int attach_fentry(const struct btf *btf, const char *func)
{
	/* r0 = 0; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int id, prog, link;

	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	if (id < 0) {
		fprintf(stderr, "fta-fentry: %s: not in vmlinux BTF\n", func);
		return -1;
	}
	opts.expected_attach_type = BPF_TRACE_FENTRY;
	opts.attach_btf_id = id;
	prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "fta_fentry", "GPL",
			     insns, 2, &opts);
	if (prog < 0) {
		fprintf(stderr, "fta-fentry: %s: load: %s\n", func,
			strerror(-prog));
		return -1;
	}
	link = bpf_raw_tracepoint_open(NULL, prog);
	if (link < 0) {
		fprintf(stderr, "fta-fentry: %s: attach: %s\n", func,
			strerror(-link));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct btf *btf;
	int i, status;
	pid_t pid;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		;
	if (i == 1 || i >= argc - 1) {
		fprintf(stderr, "usage: fta-fentry FUNC... -- CMD [ARG...]\n");
		return 2;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf) {
		fprintf(stderr, "fta-fentry: no vmlinux BTF: %s\n",
			strerror(errno));
		return 2;
	}
	for (i = 1; strcmp(argv[i], "--"); i++) {
		if (attach_fentry(btf, argv[i]))
			return 2;
	}

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 2;
	if (!pid) {
		execvp(argv[i + 1], &argv[i + 1]);
		fprintf(stderr, "fta-fentry: %s: %s\n", argv[i + 1],
			strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 2;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
