# rapolicy top-level Makefile.
#
# Also the external-module Makefile: `make KDIR=/path/to/kernel module`
# builds rapolicy.ko through the top-level Kbuild file.

KDIR ?= /lib/modules/$(shell uname -r)/build
TOP := $(CURDIR)
BUILD := $(TOP)/build
KERNEL_SCRIPT := $(TOP)/tests/kernel/build-kernel.sh

.PHONY: all kernel kernel-stock kernel-debug module userspace vm-prereqs check \
	stress demo bench bench-smoke fuzz install clean help

FUZZ_SECONDS ?= 600

all: userspace

help:
	@echo "make kernel        build (or reuse) the patched test kernel"
	@echo "make kernel-stock  build (or reuse) stock 7.3 with the same config"
	@echo "make kernel-debug  build (or reuse) the patched kernel with KASAN, lockdep, kmemleak, KFENCE, DEBUG_VM"
	@echo "make module        build rapolicy.ko against KDIR (default: running kernel)"
	@echo "make userspace     build rapolicyctl and rawalk into build/bin"
	@echo "make check         run every test; ends with 'N passed, N failed'"
	@echo "make stress        debug kernel: walkers, policy flips, module reloads, truncation for STRESS_SECONDS (default 600), then leak/splat checks"
	@echo "make demo          boot the patched kernel and compare policies off/on"
	@echo "make bench         seed workloads x policy settings, stock 7.3.4 and patched, in QEMU (~17 min): docs/BENCHMARKS.md"
	@echo "make bench-smoke   one small bench cell per setting (TAP, < 1 min)"
	@echo "make fuzz          each libFuzzer target for FUZZ_SECONDS (default 600), random seed"
	@echo "make install       install rapolicyctl, rawalk, man pages, completion"

kernel:
	@bash $(KERNEL_SCRIPT)

kernel-stock:
	@bash $(KERNEL_SCRIPT) --stock

kernel-debug:
	@bash $(KERNEL_SCRIPT) --debug

userspace:
	@$(MAKE) -s -C userspace BUILD=$(BUILD)

module:
	$(MAKE) -C $(KDIR) M=$(TOP) modules

# What tests/vm/vm-run puts into the guest: static tools and, for a patched
# KDIR, the module.
vm-prereqs: userspace
	@$(CC) -static -O2 -std=c11 -Wall -Wextra -Werror -o $(BUILD)/bin/strider tests/guest/strider.c
	@if [ -f $(KDIR)/.config ] && grep -q '^CONFIG_READAHEAD_POLICY=y' $(KDIR)/.config; then \
		$(MAKE) -s -C $(KDIR) M=$(TOP) modules; \
	fi
	@if [ -f $(KDIR)/tools/testing/selftests/kselftest_harness.h ]; then \
		$(MAKE) -s -C tests/selftests BUILD=$(BUILD) KSRC=$(KDIR); \
	fi

check:
	@bash tests/run-all.sh

stress:
	@bash tests/stress/stress.sh

demo:
	@bash tests/demo.sh

bench:
	@bash tests/bench/bench.sh

bench-smoke:
	@bash tests/bench/bench.sh --smoke

fuzz:
	@FUZZ_SEED=$${FUZZ_SEED:-0} $(MAKE) -s -C tests/fuzz run BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS)

install: userspace
	@$(MAKE) -s -C userspace BUILD=$(BUILD) install

clean:
	rm -rf $(BUILD)
	@if [ -d $(KDIR) ]; then $(MAKE) -C $(KDIR) M=$(TOP) clean; fi
