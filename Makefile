# SPDX-License-Identifier: GPL-2.0
#
# make                 module/kpmod.ko against KDIR, and userspace/kpmod
# make module          the module only (KDIR=..., ARCH=arm64 CROSS_COMPILE=...)
# make userspace       the CLI only (STATIC=1 for a static binary)
# make check           unit tests, then every VM scenario; one combined result
# make demo            boots a kernel and shows kpmod working in it
# make bench           benchmarks against kprobe_events in one booted guest
# make lint            checkpatch --strict and sparse (C=2) over module/ and uapi/

KDIR ?= /lib/modules/$(shell uname -r)/build
VERSION := $(shell cat VERSION)

.PHONY: all module userspace unit check demo bench lint clean

all: module userspace

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace

unit:
	$(MAKE) -C tests/unit run

check:
	tests/check

demo:
	tests/demo/run

bench:
	bench/run

# checkpatch --strict and sparse; also part of `make check`.
lint:
	tests/lint

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace clean
	$(MAKE) -C tests/unit clean
