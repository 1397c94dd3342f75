# SPDX-License-Identifier: GPL-2.0
#
# ftrace-args: build the patched 6.12 kernel and the tools, boot them under
# QEMU, run the tests and the benchmarks.  `make help` lists the targets.

BASE_VERSION	?= 6.12.117-1~deb12u1
FTA_CACHE	?= $(HOME)/.cache/ftrace-args
JOBS		?= $(shell nproc)

REPO		:= $(CURDIR)
BASE		:= $(FTA_CACHE)/base-$(subst ~,_,$(BASE_VERSION))
SRC		:= $(FTA_CACHE)/src
OBJ		:= $(FTA_CACHE)/obj
STAGE		:= $(FTA_CACHE)/stage
MODROOT		:= $(FTA_CACHE)/modroot
BPFSEL		:= $(FTA_CACHE)/bpf-selftests
export FTA_CACHE
# The start of this make run: build/phase-time.sh times its phases from it.
ifndef FTA_RUN_START
FTA_RUN_START	:= $(shell date +%s)
endif
export FTA_RUN_START
PHASE		:= build/phase-time.sh
export CCACHE_DIR ?= $(FTA_CACHE)/ccache
# ccache's depend mode: a miss does not run the preprocessor a second time
# (kbuild's -Wp,-MMD gives ccache the headers); a quarter off a cold build.
export CCACHE_DEPEND ?= true
export KBUILD_BUILD_USER := ftrace-args
export KBUILD_BUILD_HOST := build

VMRUN		:= $(REPO)/tools/testing/vm/vm-run
KMAKE		:= $(MAKE) -C $(SRC) O=$(OBJ) CC="ccache gcc" -j$(JOBS)
KERNEL		:= $(OBJ)/arch/x86/boot/bzImage
# The bench kernel: the same tree, a production-like config, its own output.
BOBJ		:= $(FTA_CACHE)/obj-bench
BMODROOT	:= $(FTA_CACHE)/modroot-bench
BKERNEL		:= $(BOBJ)/arch/x86/boot/bzImage
# The debug kernel: the same tree, KASAN, kmemleak and the x86 mitigations.
DOBJ		:= $(FTA_CACHE)/obj-debug
DMODROOT	:= $(FTA_CACHE)/modroot-debug
# The Debian kernel (make deb): Debian's own config, packaged by bindeb-pkg;
# make test-deb boots its QEMU variant (no Debian modules) from DEBTESTDIR.
DEBDIR		?= $(FTA_CACHE)/deb
DEB_MODULES	?= debian
DEBTESTDIR	?= $(FTA_CACHE)/deb-test
STAMP		:= $(FTA_CACHE)/stamps

.PHONY: all build deps deps-full base tree config kernel modules bench-kernel debug-kernel \
	tools run shell test test-full test-debug test-fresh bench bench-plugin bench-profile export clean-tree help checkpatch \
	base-kernel test-base \
	edit-tree deps-deb deb test-deb test-deb-image

# One build at a time per FTA_CACHE: `make test` and `make bench` started
# side by side share the tree, the build output and the installed modules.
all:
	@mkdir -p $(FTA_CACHE)
	@flock $(FTA_CACHE)/build.lock $(MAKE) --no-print-directory build

build: kernel tools

help:
	@echo "make            fetch the base, assemble the tree, build kernel and tools"
	@echo "make run        boot the kernel under QEMU and show the main job"
	@echo "make shell      boot the kernel and give an interactive shell"
	@echo "make test       build, then our tests + the upstream ftracetest subset"
	@echo "make test-full  the whole ftracetest suite + the BPF tracing selftests"
	@echo "make test-debug our tests on a KASAN/kmemleak/IBT kernel, then a leak scan"
	@echo "make test-base CASES=...  upstream ftracetest cases on the base without the series"
	@echo "make bench      print the benchmark table (one guest run)"
	@echo "make bench-profile  one probed call's instructions by function (gdb; PROFILE_TRIGS)"
	@echo "make bench-plugin   the trace-cmd plugin's model lookups, on the host (also in make bench)"
	@echo "make deps       install the Debian packages and the base (root; once)"
	@echo "make deps-full  also those of make test-full (root; once)"
	@echo "make test-fresh the README's set-up in a new minimal Debian 12 root (root)"
	@echo "make deb        Debian packages of the kernel, from Debian's 6.12 config (DEBDIR)"
	@echo "make test-deb   our tests on its QEMU variant, booted from its package (DEBTESTDIR)"
	@echo "make test-deb-image"
	@echo "                our tests on make deb's own kernel and modules (after make deb)"
	@echo "make deps-deb   also what make deb needs (root; once)"
	@echo "make edit-tree  a quilt tree for editing patches/ (see README.md)"
	@echo "make tools      the userspace tools and the plugin only (FTA_CACHE/tools)"
	@echo "make checkpatch checkpatch.pl --strict on patches and new files"
	@echo "make export     the series and config fragment for your own tree (EXPORT_DIR)"
	@echo "make clean-tree remove the assembled tree (the next make assembles it again)"
	@echo ""
	@echo "Variables (make VAR=value ...):"
	@echo "  FTA_CACHE     build output, caches, results (now $(FTA_CACHE))"
	@echo "  BASE_VERSION  the Debian linux-source-6.12 version (now $(BASE_VERSION))"
	@echo "  JOBS          parallel kernel build jobs (now $(JOBS))"
	@echo "  TEST_SHARDS   test guests side by side (default: the number of CPUs)"
	@echo "  EXPORT_DIR    where make export writes, replacing it (now $(EXPORT_DIR))"
	@echo "  BENCH_KERNEL  bench, test or both: the kernel(s) make bench runs on"
	@echo "  DEBDIR        where make deb builds and writes its packages (now $(DEBDIR))"
	@echo "  DEB_MODULES   debian (all of Debian's modules; default) or test (none)"
	@echo "  DEBTESTDIR    where make test-deb builds its kernel (now $(DEBTESTDIR))"
	@echo "  DEB_EXTRA_CONFIG  a config fragment of your own for make deb and test-deb"
	@echo "  FARGS_STRESS_SECS the stress case's seconds in make test-full (default 120)"
	@echo "  BENCH_ONLY    bpf or tools: make bench runs only those rows (not the plugin's)"
	@echo "  PLUGIN_BENCH_REPS  runs of each plugin build in make bench-plugin (5)"
	@echo "  BENCH_ICOUNT  off: the bench guest without -icount (TCG's own speed)"
	@echo "  FRESH_KEEP    1: make test-fresh keeps its root after a pass"
	@echo "  (the bench's other knobs, BENCH_*: README.md, Benchmarks)"

# --- packages and base ------------------------------------------------------

# No stamp: the check costs a dpkg-query, and a stamp in a root-owned cache
# would hide a package removed since.  Only an install needs root.
# The guests bind the built modules over /lib/modules and cannot create
# it on their read-only root; a root with no kernel package installed (a
# container, a minimal root) has none.
deps:
	@build/install-packages.sh build/packages.txt
	@build/fetch-base.sh --install '$(BASE_VERSION)'
	@[ -d /lib/modules ] || mkdir -p /lib/modules 2>/dev/null || { \
		echo "deps: ERROR: /lib/modules is missing, and the guests mount the built modules there: run 'sudo make deps' once" >&2; \
		exit 1; }
	@$(PHASE) install

deps-full: deps
	@FTA_DEPS_TARGET=deps-full build/install-packages.sh build/packages-full.txt
	@$(PHASE) install-full

deps-deb: deps
	@FTA_DEPS_TARGET=deps-deb build/install-packages.sh build/packages-deb.txt

base: deps
	@build/check-space.sh '$(FTA_CACHE)' $(if $(wildcard $(KERNEL)),2,12) "the build"
	@build/fetch-base.sh '$(BASE_VERSION)' '$(BASE)'
	@$(PHASE) base

# The tree is re-synced on every make; assemble.sh is a no-op when no input
# changed, and otherwise touches only the files whose content changed.
tree: base
	@build/assemble.sh '$(BASE)' '$(SRC)' '$(REPO)' '$(STAGE)'
	@$(PHASE) assemble

# --- kernel -------------------------------------------------------------------

$(OBJ)/.config: build/kernel.config | tree
	@mkdir -p $(OBJ)
	@echo "config: tinyconfig + build/kernel.config"
	@$(MAKE) -s -C $(SRC) O=$(OBJ) tinyconfig >/dev/null
	@cd $(SRC) && scripts/kconfig/merge_config.sh -m -O $(OBJ) $(OBJ)/.config \
		$(REPO)/build/kernel.config > $(OBJ)/merge_config.log
	@$(MAKE) -s -C $(SRC) O=$(OBJ) olddefconfig >/dev/null
	@build/check-config.sh $(REPO)/build/kernel.config $(OBJ)/.config

config: tree $(OBJ)/.config

kernel: config
	@echo "kernel: building in $(OBJ) (ccache: $(CCACHE_DIR))"
	@ccache -M 8G >/dev/null
	@+$(KMAKE) bzImage modules
	@+$(MAKE) -s -C $(SRC) O=$(OBJ) INSTALL_MOD_PATH=$(MODROOT) \
		INSTALL_MOD_STRIP=1 modules_install >/dev/null
	@# build -> OBJ is there; bcc (funccount-bpfcc) also wants source
	@ln -sfn $(SRC) $(MODROOT)/lib/modules/$$(cat $(OBJ)/include/config/kernel.release)/source
	@echo "kernel: $(KERNEL) ($$(cat $(OBJ)/include/config/kernel.release))"
	@$(PHASE) kernel

modules: kernel

# The bench and debug kernels: the same tree, tinyconfig + build/kernel.config
# + build/kernel-NAME.config, each in its own output folder and module root.
# An objtool warning fails the debug kernel's build: it has the return
# thunks, call depth tracking and IBT, which objtool checks, and its
# build compiles the project's files again each time so that objtool
# sees them.
# $(call variant_kernel,NAME,OBJ,MODROOT) defines OBJ/.config and NAME-kernel.
define variant_kernel
$(2)/.config: build/kernel.config build/kernel-$(1).config | tree
	@mkdir -p $(2)
	@echo "config ($(1)): tinyconfig + build/kernel.config + build/kernel-$(1).config"
	@$$(MAKE) -s -C $$(SRC) O=$(2) tinyconfig >/dev/null
	@cd $$(SRC) && scripts/kconfig/merge_config.sh -m -O $(2) $(2)/.config \
		$$(REPO)/build/kernel.config $$(REPO)/build/kernel-$(1).config > $(2)/merge_config.log
	@$$(MAKE) -s -C $$(SRC) O=$(2) olddefconfig >/dev/null
	@build/check-config.sh $$(REPO)/build/kernel.config $$(REPO)/build/kernel-$(1).config $(2)/.config

$(1)-kernel: tree $(2)/.config
	@build/check-space.sh '$$(FTA_CACHE)' $$(if $$(wildcard $(2)/vmlinux),2,6) "the $(1) kernel"
	@echo "$(1) kernel: building in $(2)"
	$(if $(filter debug,$(1)),@build/objtool-check.sh prepare '$$(REPO)' $(2))
	@+$$(MAKE) -C $$(SRC) O=$(2) CC="ccache gcc" -j$$(JOBS) bzImage modules \
		2> $(2)/build.err; rc=$$$$?; cat $(2)/build.err >&2; exit $$$$rc
	$(if $(filter debug,$(1)),@build/objtool-check.sh check $(2) $(2)/build.err)
	@+$$(MAKE) -s -C $$(SRC) O=$(2) INSTALL_MOD_PATH=$(3) \
		INSTALL_MOD_STRIP=1 modules_install >/dev/null
	@ln -sfn $$(SRC) $(3)/lib/modules/$$$$(cat $(2)/include/config/kernel.release)/source
	@$$(PHASE) $(1)-kernel
endef
$(eval $(call variant_kernel,bench,$(BOBJ),$(BMODROOT)))
$(eval $(call variant_kernel,debug,$(DOBJ),$(DMODROOT)))

# The base without the series, for telling 6.12's own failures from ours:
# the unpatched tree $(BASE), built with the test kernel's config (the
# series' own options drop out), and upstream ftracetest cases of the
# base tree on it, in one guest: make test-base CASES="00basic/x.tc ...".
BASEOBJ		:= $(FTA_CACHE)/obj-base
BASEMODROOT	:= $(FTA_CACHE)/modroot-base

base-kernel: config
	@mkdir -p $(BASEOBJ)
	@cmp -s $(OBJ)/.config $(BASEOBJ)/.config.test || { \
		cp $(OBJ)/.config $(BASEOBJ)/.config && \
		cp $(OBJ)/.config $(BASEOBJ)/.config.test && \
		$(MAKE) -s -C $(BASE) O=$(BASEOBJ) olddefconfig >/dev/null; }
	@build/check-space.sh '$(FTA_CACHE)' $(if $(wildcard $(BASEOBJ)/vmlinux),2,6) "the base kernel"
	@echo "base kernel: building $(BASE) in $(BASEOBJ)"
	@+$(MAKE) -C $(BASE) O=$(BASEOBJ) CC="ccache gcc" -j$(JOBS) bzImage modules
	@+$(MAKE) -s -C $(BASE) O=$(BASEOBJ) INSTALL_MOD_PATH=$(BASEMODROOT) \
		INSTALL_MOD_STRIP=1 modules_install >/dev/null
	@$(PHASE) base-kernel

# The build under build.lock, as make's own (it assembles the tree too)
test-base:
	@test -n "$(CASES)" || { echo 'make test-base CASES="DIR/CASE.tc ..." (paths under test.d of the base)'; exit 2; }
	@mkdir -p $(FTA_CACHE)
	@flock $(FTA_CACHE)/build.lock $(MAKE) --no-print-directory base-kernel
	@$(REPO)/tools/testing/vm/vm-run --kernel $(BASEOBJ)/arch/x86/boot/bzImage \
		--modroot $(BASEMODROOT) --timeout 1800 -- \
		$(REPO)/tools/testing/ftrace-args/base-ftracetest $(BASE) $(CASES)

# --- userspace tools ----------------------------------------------------------

TOOLS_OUT	:= $(FTA_CACHE)/tools
TOOL_CFLAGS	:= -O2 -g -Wall -Wextra -Werror

$(TOOLS_OUT)/fta-bench: tools/testing/ftrace-args/bench/fta-bench.c
	@mkdir -p $(TOOLS_OUT)
	$(CC) $(TOOL_CFLAGS) -o $@ $<

# BPF fentry and tracing multi programs without a BPF compiler, for the
# tests; the tree's uapi headers have the tracing multi link
$(TOOLS_OUT)/fta-fentry: tools/testing/ftrace-args/fentry/fta-fentry.c \
		$(SRC)/tools/include/uapi/linux/bpf.h
	@mkdir -p $(TOOLS_OUT)
	$(CC) $(TOOL_CFLAGS) -I$(SRC)/tools/include/uapi -o $@ $< -lbpf

# The BPF attach rows of make bench: fentry and fexit, single and multi
$(TOOLS_OUT)/fta-bpf-attach: tools/testing/ftrace-args/bench/fta-bpf-attach.c \
		$(SRC)/tools/include/uapi/linux/bpf.h
	@mkdir -p $(TOOLS_OUT)
	$(CC) $(TOOL_CFLAGS) -I$(SRC)/tools/include/uapi -o $@ $< -lbpf

# The host's TSC rate, which vm-run gives the microvm guest
$(TOOLS_OUT)/fta-tsc-khz: tools/testing/vm/tsc-khz.c
	@mkdir -p $(TOOLS_OUT)
	$(CC) $(TOOL_CFLAGS) -o $@ $<

tools: tree $(TOOLS_OUT)/fta-bench $(TOOLS_OUT)/fta-fentry $(TOOLS_OUT)/fta-bpf-attach \
	$(TOOLS_OUT)/fta-tsc-khz
	@+$(MAKE) -s -C tools/tracing/ftrace-args OUTPUT=$(TOOLS_OUT)/
	@+$(MAKE) -s -C tools/tracing/multitrace SRC=$(SRC) OUTPUT=$(TOOLS_OUT)/
	@$(PHASE) tools

# --- guest --------------------------------------------------------------------

run: all
	@$(VMRUN) -- $(REPO)/tools/testing/ftrace-args/demo.sh

shell: all
	@$(VMRUN) --interactive -- /bin/bash -i

test: all
	@$(REPO)/tools/testing/ftrace-args/run-tests --src $(SRC)

test-full: deps-full all
	@$(REPO)/tools/testing/ftrace-args/run-tests --src $(SRC) --full

# Our tests (harness, boot selftests, test.d/ftrace-args with the stress
# case) on the debug kernel, then a kmemleak scan in each guest.
test-debug: all
	@flock $(FTA_CACHE)/build.lock $(MAKE) --no-print-directory debug-kernel
	@$(REPO)/tools/testing/ftrace-args/run-tests --src $(SRC) --debug

# Debian packages of the patched kernel from Debian's own config
# (build/deb.sh); make test-deb builds its QEMU variant (DEB_MODULES=test,
# build/kernel-deb-test.config) and runs our tests on the kernel and
# modules of that image package.
deb: deps-deb tree
	@build/check-space.sh '$(FTA_CACHE)' $(if $(wildcard $(DEBDIR)/obj/vmlinux),3,30) "the Debian kernel"
	@flock $(FTA_CACHE)/build.lock build/deb.sh build '$(REPO)' '$(SRC)' '$(DEBDIR)' '$(DEB_MODULES)'
	@$(PHASE) deb

test-deb: deps-deb tree
	@build/check-space.sh '$(FTA_CACHE)' $(if $(wildcard $(DEBTESTDIR)/obj/vmlinux),3,15) "the Debian test kernel"
	@flock $(FTA_CACHE)/build.lock build/deb.sh build '$(REPO)' '$(SRC)' '$(DEBTESTDIR)' test
	@$(PHASE) deb-test-kernel
	@flock $(FTA_CACHE)/build.lock $(MAKE) --no-print-directory tools
	@DEBDIR='$(DEBTESTDIR)' $(REPO)/tools/testing/ftrace-args/run-tests --src $(SRC) --deb

# The same tests on the kernel and modules of make deb's own image package
# (Debian's modules: a PC machine, an initramfs loads 9p,
# tools/testing/vm/mkinitrd-9p).  It boots what make deb built last, and
# builds none: without it, it stops before anything else.
ifneq ($(filter test-deb-image,$(MAKECMDGOALS)),)
ifeq ($(wildcard $(DEBDIR)/root/boot/vmlinuz-*),)
$(error no image package unpacked in $(DEBDIR)/root: run make deb first)
endif
endif
test-deb-image: deps-deb tree
	@flock '$(FTA_CACHE)/build.lock' $(MAKE) --no-print-directory tools
	@DEBDIR='$(DEBDIR)' '$(REPO)/tools/testing/ftrace-args/run-tests' --src '$(SRC)' --deb

# BENCH_KERNEL=test runs the bench on the test kernel (lockdep and all),
# BENCH_KERNEL=both on the bench kernel and then on the test kernel.
BENCH_KERNEL	?= bench
# The BPF rows use the BPF selftests' bench, built as for make test-full.
bench: deps-full all
	@[ -n '$(BENCH_ONLY)' ] || flock $(FTA_CACHE)/build.lock \
		$(REPO)/tools/testing/ftrace-args/bench/plugin-bench $(FTA_CACHE)
	@flock $(FTA_CACHE)/build.lock $(MAKE) --no-print-directory bench-kernel
	@$(REPO)/tools/testing/ftrace-args/bpf/build-bpf-selftests $(SRC) $(FTA_CACHE)
	@$(REPO)/tools/testing/ftrace-args/bench/run-bench $(BENCH_KERNEL)

# The trace-cmd plugin building the models of every function of the test
# kernel, with its index of the BTF and with a walk of it (no guest)
bench-plugin: all
	@flock $(FTA_CACHE)/build.lock $(REPO)/tools/testing/ftrace-args/bench/plugin-bench $(FTA_CACHE)

# The series for your own tree: build/export.sh; EXPORT_DIR says where
EXPORT_DIR	?= $(FTA_CACHE)/export
export: tree
	@'$(REPO)/build/export.sh' '$(REPO)' '$(BASE)' '$(SRC)' '$(EXPORT_DIR)'

# Where one probed call's instructions go, function by function (gdb
# single-steps it in the bench guest); PROFILE_TRIGS names the triggers
bench-profile: deps-full all
	@flock $(FTA_CACHE)/build.lock $(MAKE) --no-print-directory bench-kernel
	@$(REPO)/tools/testing/ftrace-args/bpf/build-bpf-selftests $(SRC) $(FTA_CACHE)
	@$(REPO)/tools/testing/ftrace-args/bench/call-profile $(PROFILE_TRIGS)

# The README's set-up on a fresh Debian 12 root (mmdebstrap), up to `make
# run`, with an empty FTA_CACHE: run it before a change to build/, the
# package lists or this Makefile lands.
FRESH_ROOT	?= /var/tmp/ftrace-args-fresh
test-fresh:
	@FTA_DEPS_TARGET=test-fresh build/install-packages.sh build/packages-fresh.txt
	@build/test-fresh.sh '$(REPO)' '$(FRESH_ROOT)' run

# --- development ----------------------------------------------------------------

edit-tree: base
	@build/edit-tree.sh '$(BASE)' '$(FTA_CACHE)/edit' '$(REPO)'

checkpatch: tree
	@build/checkpatch.sh '$(SRC)' '$(REPO)'

clean-tree:
	rm -rf $(SRC) $(STAGE)
