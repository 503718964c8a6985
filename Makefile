# SPDX-License-Identifier: GPL-2.0
#
# make                 module/kpmod.ko against KDIR, and userspace/kpmod
# make module          the module only (KDIR=..., ARCH=arm64 CROSS_COMPILE=...)
# make userspace       the CLI only (STATIC=1 for a static binary)
# make check           unit tests, then every VM scenario; one combined result
# make demo            boots a kernel and shows kpmod working in it
# make bench           benchmarks against kprobe_events and bpftrace, four boots
#                      (bench/run), then kpmod report's memory on recordings of
#                      64 MiB and 1 GiB
# make lint            checkpatch --strict and sparse (C=2) over module/ and
#                      uapi/, and the links of README.md and doc/*.md
# make check-matrix    every VM scenario on 5.10, 6.1, 6.12, 7.3 x x86_64, arm64,
#                      and on the PREEMPT_RT and 16K-page flavours
# make check-newest    the newest kernel Debian serves (sid, experimental,
#                      backports): built against, booted on both arches
#                      with the smoke set (tests/drivers/check-newest)
# make storm           the storm scenario for 5 minutes on every guest
# make stress          the reliability campaign on the debug kernel: 1,000,000
#                      fuzzed netlink requests, 1,000 probes at once, failed
#                      allocations, the storms on 4 CPUs and the soak for
#                      10 minutes, the parsers' fuzz targets (tests/drivers/stress)
#                      (KPMOD_STORM_SECS=N to change; make check runs 60 s)
# make fuzz            the parsers' libFuzzer targets (tests/fuzz), one after
#                      another, FUZZ_SECS each (default 600; clang needed)
# make dkms-install    copies the module sources to /usr/src/kpmod-VERSION and
#                      runs dkms add/build/install for every installed kernel
#                      with headers (KERNELS="R1 R2" to choose); dkms-remove undoes it
# make deb             kpmod-dkms_VERSION_all.deb and kpmod_VERSION_ARCH.deb
# make install         the CLI, kpmod(8) and the bash completion under
#                      DESTDIR/PREFIX (default /usr/local); uninstall removes them
# make docs-check      the man page and completion, tested (part of make check)

KDIR ?= /lib/modules/$(shell uname -r)/build
VERSION := $(shell cat VERSION)

.PHONY: all module userspace unit check demo bench lint clean check-matrix check-newest layout-check storm stress \
	fuzz dkms-install dkms-remove deb install uninstall docs-check

all: module userspace

module:
	@test -f $(KDIR)/Makefile || { echo "kpmod: no kernel headers in $(KDIR): apt-get install linux-headers-$(shell uname -r) (dnf install kernel-devel-$(shell uname -r)), or make KDIR=/path/to/build" >&2; exit 2; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace

unit:
	$(MAKE) -C tests/unit run

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

# kpmod(8): its version and definition error codes come from the sources.
doc/kpmod.8: doc/kpmod.8.in doc/gen-man userspace/lib/def/parse_err.h VERSION
	doc/gen-man $@

install: userspace doc/kpmod.8
	install -D -m 0755 userspace/kpmod $(DESTDIR)$(SBINDIR)/kpmod
	install -d $(DESTDIR)$(MANDIR)/man8
	gzip -9n <doc/kpmod.8 >$(DESTDIR)$(MANDIR)/man8/kpmod.8.gz
	install -D -m 0644 completion/kpmod $(DESTDIR)$(BASHCOMPDIR)/kpmod

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/kpmod $(DESTDIR)$(MANDIR)/man8/kpmod.8.gz \
		$(DESTDIR)$(BASHCOMPDIR)/kpmod

docs-check:
	tests/drivers/docs

check:
	tests/drivers/check

demo:
	tests/demo/run

# The tables of doc/benchmarks.md: 6.1's, then today's kernel's, then
# report's memory.
bench:
	bench/run
	KPMOD_BENCH_KERNEL=7.3 bench/run
	bench/report-memory

# checkpatch --strict, sparse and the docs' links; also part of `make check`.
lint:
	tests/drivers/lint

check-matrix:
	tests/drivers/check-matrix

# Circles of includes or calls between files, commands calling commands
# (doc/design.md's layout rules); also in `make lint`.
layout-check:
	tests/drivers/layout-check

check-newest:
	tests/drivers/check-newest

storm:
	tests/drivers/storm

stress:
	tests/drivers/stress

FUZZ_SECS ?= 600
fuzz:
	tests/fuzz/run $(FUZZ_SECS)

DKMS_SRC := /usr/src/kpmod-$(VERSION)
# Installed kernels that have headers to build against.
KERNELS ?= $(notdir $(patsubst %/build/,%,$(wildcard /lib/modules/*/build/)))

dkms-install:
	@test -n "$(KERNELS)" || { echo "no kernel headers installed in /lib/modules/*/build" >&2; exit 1; }
	-@dkms remove kpmod/$(VERSION) --all >/dev/null 2>&1
	rm -rf $(DKMS_SRC)
	pkg/dkms-src $(DKMS_SRC)
	dkms add kpmod/$(VERSION)
	set -e; for k in $(KERNELS); do \
		dkms build kpmod/$(VERSION) -k $$k; \
		dkms install kpmod/$(VERSION) -k $$k; \
	done

dkms-remove:
	-dkms remove kpmod/$(VERSION) --all
	rm -rf $(DKMS_SRC)

deb:
	pkg/mkdeb

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C tests/unit clean
	$(MAKE) -C tests/fuzz clean
