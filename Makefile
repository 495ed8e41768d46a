# rapolicy top-level Makefile.
#
# Also the external-module Makefile: `make KDIR=/path/to/kernel module`
# builds rapolicy.ko through the top-level Kbuild file.

KDIR ?= /lib/modules/$(shell uname -r)/build
TOP := $(CURDIR)
BUILD := $(TOP)/build
KERNEL_SCRIPT := $(TOP)/tests/kernel/build-kernel.sh

.PHONY: all kernel kernel-stock kernel-debug baseline matrix module bpf userspace guest-tools vm-prereqs check \
	stress demo bench bench-smoke fuzz patterns mutate install clean help deb kernel-deb

FUZZ_SECONDS ?= 600

all: userspace

help:
	@echo "make kernel        build (or reuse) the patched test kernel"
	@echo "make kernel-stock  build (or reuse) the stock kernel with the same config"
	@echo "                   (KERNEL_SERIES=7.3|7.2|6.12 picks the kernel everywhere; default 7.3)"
	@echo "make baseline      record the stock neutrality table of KERNEL_SERIES (docs/NEUTRALITY.md)"
	@echo "make matrix        W=1 build matrix of the patched objects and the module (TAP)"
	@echo "make kernel-debug  build (or reuse) the patched kernel with KASAN, lockdep, kmemleak, KFENCE, DEBUG_VM"
	@echo "make module        build rapolicy.ko against KDIR (default: running kernel)"
	@echo "make bpf           build the BPF policies and rapolicy-bpf against KDIR (with BTF) into build/bin"
	@echo "make userspace     build rapolicyctl and rawalk into build/bin"
	@echo "make check         run every test; ends with 'N passed, N failed'"
	@echo "make stress        debug kernel: walkers, policy flips, module reloads, truncation for STRESS_SECONDS (default 600), then leak/splat checks"
	@echo "make demo          boot the patched kernel and compare policies off/on"
	@echo "make bench         seed workloads x policy settings, stock 7.3.4 and patched, in QEMU: docs/BENCHMARKS.md"
	@echo "make bench-smoke   one small bench cell per setting (TAP, < 1 min)"
	@echo "make fuzz          each libFuzzer target for FUZZ_SECONDS (default 600), random seed"
	@echo "make patterns      the stream tracker's generated patterns: PATTERN_DRAWS (default 50000) draws, files of up to PATTERN_PAGES (16384) pages, every class a test; PATTERN_BEST=1 under the profile best"
	@echo "make mutate        remove each rule of the stream tracker in turn; every mutant must fail a case (docs/MUTATION.md)"
	@echo "make install       install rapolicyctl, rawalk, man pages, completion"
	@echo "make deb           rapolicy-dkms, -tools, -monitoring and -bpf .debs into build/deb (lintian-checked)"
	@echo "make kernel-deb    Debian packages of the patched kernel into build/kernel-deb (KERNEL_DEB_CONFIG=debian|test)"

kernel:
	@bash $(KERNEL_SCRIPT)

kernel-stock:
	@bash $(KERNEL_SCRIPT) --stock

kernel-debug:
	@bash $(KERNEL_SCRIPT) --debug

baseline:
	@bash tests/kernel/record-baseline.sh

matrix:
	@bash tests/kernel/matrix.sh

userspace:
	@$(MAKE) -s -C userspace BUILD=$(BUILD)

module:
	$(MAKE) -C $(KDIR) M=$(TOP) modules

# The BPF policies and rapolicy-bpf, for a KDIR with BTF (docs/BPF.md)
bpf:
	@$(MAKE) -s -C bpf KDIR=$(KDIR) BUILD=$(BUILD)

# The guest's walkers, static (the guest has no libc)
guest-tools:
	@mkdir -p $(BUILD)/bin
	@$(CC) -static -O2 -std=c11 -Wall -Wextra -Werror -Iuserspace/lib -o $(BUILD)/bin/strider tests/guest/strider.c userspace/lib/pagecache.c
	@$(CC) -static -O2 -std=c11 -Wall -Wextra -Werror -pthread -Iuserspace/lib -o $(BUILD)/bin/patwalk tests/guest/patwalk.c userspace/lib/pagecache.c
	@$(CC) -static -O2 -std=c11 -Wall -Wextra -Werror -Iuserspace/lib -o $(BUILD)/bin/phaser tests/guest/phaser.c userspace/lib/pagecache.c
	@$(CC) -static -O2 -std=c11 -Wall -Wextra -Werror -Iuserspace/lib -o $(BUILD)/bin/readafter tests/guest/readafter.c userspace/lib/pagecache.c

# What tests/vm/vm-run puts into the guest: static tools and, for a patched
# KDIR, the module.
vm-prereqs: userspace guest-tools
	@if [ -f $(KDIR)/.config ] && grep -q '^CONFIG_READAHEAD_POLICY=y' $(KDIR)/.config; then \
		$(MAKE) -s -C $(KDIR) M=$(TOP) modules; \
	fi
	@if [ -f $(KDIR)/.config ] && grep -q '^CONFIG_READAHEAD_POLICY=y' $(KDIR)/.config && \
	    grep -q '^CONFIG_DEBUG_INFO_BTF=y' $(KDIR)/.config; then \
		$(MAKE) -s -C bpf KDIR=$(KDIR) BUILD=$(BUILD); \
	fi
	@if [ -f $(KDIR)/tools/testing/selftests/kselftest_harness.h ]; then \
		$(MAKE) -s -C tests/selftests BUILD=$(BUILD) KSRC=$(KDIR); \
	fi

# Each README entry point installs its own packages first (tests/deps/).
check:
	@bash tests/deps.sh check
	@bash tests/run-all.sh

stress:
	@bash tests/stress/stress.sh

demo:
	@bash tests/deps.sh demo
	@bash tests/demo.sh

bench:
	@bash tests/deps.sh bench
	@bash tests/bench/bench.sh

bench-smoke:
	@bash tests/bench/bench.sh --smoke

fuzz:
	@FUZZ_SEED=$${FUZZ_SEED:-0} $(MAKE) -s -C tests/fuzz run BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS)

patterns:
	@PATTERN_DRAWS=$${PATTERN_DRAWS:-50000} bash tests/unit/run-patterns.sh -a

mutate:
	@bash tests/unit/mutate.sh

install: userspace
	@$(MAKE) -s -C userspace BUILD=$(BUILD) install

# The Debian packages (debian/), built from a copy of the tree without
# build/ and build products, so the output lands in build/deb/ and not in
# the checkout's parent directory.
DEB_DIR := $(BUILD)/deb
deb:
	@bash tests/deps.sh deb
	@rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src/rapolicy
	@tar -C $(TOP) --exclude=./build --exclude=./.git --exclude='*.o' --exclude='*.ko' \
		--exclude='.*.cmd' --exclude='*.mod' --exclude='*.mod.c' --exclude=Module.symvers \
		--exclude=modules.order -cf - . | tar -C $(DEB_DIR)/src/rapolicy -xf -
	@kdir=$$(bash $(KERNEL_SCRIPT)) && cd $(DEB_DIR)/src/rapolicy && \
		RAPOLICY_BPF_KDIR=$$kdir dpkg-buildpackage -us -uc -b >$(DEB_DIR)/build.log 2>&1 || \
		{ tail -n 30 $(DEB_DIR)/build.log >&2; echo "dpkg-buildpackage failed; log in $(DEB_DIR)/build.log" >&2; exit 1; }
	@mv $(DEB_DIR)/src/*.deb $(DEB_DIR)/src/*.changes $(DEB_DIR)/src/*.buildinfo $(DEB_DIR)/
	@rm -rf $(DEB_DIR)/src
	@lintian --fail-on error $(DEB_DIR)/*.changes | tee $(DEB_DIR)/lintian.txt
	@ls $(DEB_DIR)/*.deb

kernel-deb:
	@bash tests/kernel/kernel-deb.sh

clean:
	rm -rf $(BUILD)
	@if [ -d $(KDIR) ]; then $(MAKE) -C $(KDIR) M=$(TOP) clean; fi
