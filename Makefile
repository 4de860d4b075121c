# SPDX-License-Identifier: GPL-2.0
#
# blkgen top-level Makefile.
#
#   make                 build module/blkgen.ko and tools/blkgenctl/blkgenctl
#   make KDIR=...        build the module against another kernel tree
#   make C=1             also run sparse over the module sources
#   make check           the test suite (host, static checks, QEMU VMs)
#   make check KERNELS=6.12   limit the VM tier to matching kernels
#   make bench [KERNEL=6.12]   IOPS of blkgen, fio and a bare loop in the VM
#   make vmshell [KERNEL=6.12] boot the test VM with an interactive shell
#   make clean

# Kernel tree: the running kernel's build directory when present, else the
# newest installed Debian linux-headers-*-amd64.
KDIR ?= $(shell tests/vm/kdir.sh 2>/dev/null)

V ?= 0
C ?= 0

.PHONY: all module tool unit check bench vmshell clean help

all: module tool

module:
	@if [ -z "$(KDIR)" ] || [ ! -e "$(KDIR)/Makefile" ]; then \
		echo "blkgen: no kernel headers found: install linux-headers-amd64 (or pass KDIR=/path/to/kernel/build)" >&2; \
		exit 1; \
	fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=$(C) V=$(V) modules

tool:
	$(MAKE) -C tools/blkgenctl V=$(V)

unit:
	$(MAKE) -C tests/unit V=$(V)

check:
	KERNELS="$(KERNELS)" tests/check.sh

bench: tool
	KERNEL="$(KERNEL)" tests/bench/run.sh

vmshell: tool
	tests/vm/run.sh --shell $(if $(KERNEL),--kernel $(KERNEL))

clean:
	@if [ -n "$(KDIR)" ] && [ -e "$(KDIR)/Makefile" ]; then \
		$(MAKE) -C $(KDIR) M=$(CURDIR) clean; \
	fi
	$(MAKE) -C tools/blkgenctl clean
	$(MAKE) -C tests/unit clean
	rm -rf build

help:
	@sed -n '3,13p' Makefile | sed 's/^# \{0,1\}//'
