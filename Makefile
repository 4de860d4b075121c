# SPDX-License-Identifier: GPL-2.0
#
# blkgen top-level Makefile.
#
#   make                 build module/blkgen.ko and tools/blkgenctl/blkgenctl
#   make KDIR=...        build the module against another kernel tree
#   make C=1             also run sparse over the module sources
#   make check           the test suite (host, static checks, QEMU VMs)
#   make check KERNELS=6.12   limit the VM tier to matching kernels
#   make check DEBUG_KERNEL=0 skip the debug kernel (KASAN, lockdep) tier
#   make debug-kernel          build the VM's debug kernel (cached; boot it
#                              with tests/vm/run.sh --debug-kernel)
#   make bench [KERNEL=6.12] [ICOUNT=1]   IOPS of blkgen, fio and a bare loop
#                              in the VM (ICOUNT=1: instructions per I/O)
#   make vmshell [KERNEL=6.12] boot the test VM with an interactive shell
#   make demo [KERNEL=6.12]    the four corners on the VM's emulated NVMe drive
#   make demo-review [KERNEL=6.12] [DEMO_SUITE=pm1743]   the review, --quick, in the VM;
#                              its report drawn in build/demo-review/
#   make demo-multihost        three VMs of the newest kernel, copies of a host
#                              blkgen.multihost.install prepared (made first
#                              when needed: tests/multihost/install.sh),
#                              started at one instant by blkgen.multihost.run;
#                              the merged report and its charts in
#                              build/demo-multihost/report/
#   make man                   build/man/blkgenctl.8 from Documentation/
#   make tool                  build tools/blkgenctl/blkgenctl only
#   make install [PREFIX=/usr/local] [DESTDIR=]   module, tool, profiles, man, completion
#   make install-tool [PREFIX=] [DESTDIR=]   the same without the module (no
#                              kernel headers needed)
#   make uninstall
#   make dkms-install          register the module with DKMS (rebuilt per kernel)
#   make dkms-uninstall
#   make kselftest-install INSTALL_PATH=DIR [TESTS="GROUP ..."]   the tests as
#                              a kselftest collection "blkgen" in DIR (beside
#                              the kernel's run_kselftest.sh)
#   make kselftest-tree [DEST=build/selftests] [TESTS=...]   the collection in
#                              the kselftest tree's form, DEST/blkgen: copy it
#                              into a kernel tree as tools/testing/selftests/blkgen
#   make kselftest-tar         the collection packed as
#                              build/blkgen-kselftest.tar.gz: an overlay for
#                              a kselftest install (append its
#                              blkgen/kselftest-list.txt to the install's)
#   make dist                  the sources as build/blkgen-VERSION.tar.gz
#                              (the tracked files of a checkout; one
#                              directory, blkgen-VERSION/)
#   make collection            the Ansible collection blkgen.multihost as
#                              build/collection/blkgen-multihost-*.tar.gz,
#                              carrying make dist's sources (ansible-galaxy
#                              collection install it)
#   make clean

# Kernel tree: the running kernel's build directory when present, else the
# newest installed Debian linux-headers-*-amd64.
KDIR ?= $(shell tests/vm/kdir.sh 2>/dev/null)

V ?= 0
C ?= 0
PREFIX ?= /usr/local
DESTDIR ?=
VERSION := 0.1
# The kernel release the module is built for (KDIR's), for install.
KVER ?= $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null || uname -r)

.PHONY: all module tool unit check debug-kernel bench vmshell demo demo-review demo-multihost man \
	install install-tool uninstall dkms-install dkms-uninstall \
	kselftest-install kselftest-tree kselftest-tar dist collection clean help

all: module tool

module:
	@if [ -z "$(KDIR)" ] || [ ! -e "$(KDIR)/Makefile" ]; then \
		echo "blkgen: no kernel headers found: install linux-headers-amd64 (or pass KDIR=/path/to/kernel/build)" >&2; \
		exit 1; \
	fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=$(C) V=$(V) modules

tool:
	$(MAKE) -C tools/blkgenctl V=$(V) PREFIX=$(PREFIX)

unit:
	$(MAKE) -C tests/unit V=$(V)

check:
	KERNELS="$(KERNELS)" DEBUG_KERNEL="$(DEBUG_KERNEL)" tests/check.sh

debug-kernel:
	tests/vm/debug-kernel.sh

bench: tool
	KERNEL="$(KERNEL)" ICOUNT="$(ICOUNT)" tests/bench/run.sh

vmshell: tool
	tests/vm/run.sh --shell $(if $(KERNEL),--kernel $(KERNEL))

demo:
	KERNEL="$(KERNEL)" tests/demo.sh

demo-review:
	KERNEL="$(KERNEL)" tests/demo-review.sh

demo-multihost:
	tests/install-deps.sh
	$(MAKE) -s -C tools/blkgenctl
	KERNEL="$(KERNEL)" tests/multihost/run.sh --demo

build/man/blkgenctl.8: Documentation/blkgenctl.rst
	@command -v rst2man > /dev/null || { echo "blkgen: rst2man not found: apt-get install python3-docutils" >&2; exit 1; }
	@mkdir -p build/man
	rst2man --exit-status=2 $< > $@

man: build/man/blkgenctl.8

kselftest-install:
	@if [ -z "$(INSTALL_PATH)" ]; then \
		echo "blkgen: kselftest-install needs INSTALL_PATH=DIR (a kselftest install, or a new directory)" >&2; \
		exit 1; \
	fi
	tests/kselftest-install.sh "$(INSTALL_PATH)" $(TESTS)

kselftest-tree:
	tests/kselftest-tree.sh $(or $(DEST),build/selftests) $(TESTS)

# The collection packed, for a farm's overlay: blkgen/ alone, so that
# unpacked over a kselftest install it leaves the install's list (and
# the directory's owner and mode) alone.
kselftest-tar:
	rm -rf build/kselftest
	tests/kselftest-install.sh build/kselftest $(TESTS)
	tar -czf build/blkgen-kselftest.tar.gz -C build/kselftest blkgen
	@echo "blkgen: build/blkgen-kselftest.tar.gz (then: cat blkgen/kselftest-list.txt >> kselftest-list.txt)"

# The sources, packed reproducibly (names sorted, owner root, every
# mtime the last commit's): the tracked files of a checkout (as they are
# in the work tree), else the tree without what builds make.
DIST := build/blkgen-$(VERSION).tar.gz
dist:
	@mkdir -p build
	@if git -C $(CURDIR) rev-parse --is-inside-work-tree > /dev/null 2>&1; then \
		mtime=@$$(git log -1 --format=%ct 2> /dev/null || date +%s); \
		git ls-files -z | tar --null -T - --sort=name --owner=0 --group=0 --numeric-owner \
			--mtime="$$mtime" --transform 's,^,blkgen-$(VERSION)/,' -czf $(DIST); \
	else \
		tar --exclude=./build --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
			--sort=name --owner=0 --group=0 --numeric-owner \
			--transform 's,^\.,blkgen-$(VERSION),' -czf $(DIST) .; \
	fi
	@echo "blkgen: $(DIST)"

# The collection with the sources in its install role; galaxy.yml's
# repository is REPOSITORY, or the checkout's remote origin.
REPOSITORY ?= $(shell git remote get-url origin 2> /dev/null)
collection: dist
	@command -v ansible-galaxy > /dev/null || { echo "blkgen: ansible-galaxy not found: apt-get install ansible-core" >&2; exit 1; }
	rm -rf build/collection
	mkdir -p build/collection
	cp -a ansible build/collection/src
	install -D -m 0644 $(DIST) build/collection/src/roles/install/files/blkgen-src.tar.gz
	@if [ -n "$(REPOSITORY)" ]; then \
		sed -i 's|^repository: .*|repository: $(REPOSITORY)|' build/collection/src/galaxy.yml; \
	fi
	ansible-galaxy collection build build/collection/src --output-path build/collection

install: module install-tool
	install -D -m 0644 module/blkgen.ko $(DESTDIR)/lib/modules/$(KVER)/extra/blkgen.ko
	@# The KUnit cases, built for a kernel with KUnit (module/Kbuild).
	@if grep -qs '^CONFIG_KUNIT=[ym]' $(KDIR)/.config && [ -e module/blkgen_test.ko ]; then \
		install -D -m 0644 module/blkgen_test.ko $(DESTDIR)/lib/modules/$(KVER)/extra/blkgen_test.ko; fi
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); \
	else echo "blkgen: DESTDIR set: run depmod -a $(KVER) on the target"; fi

# The tool alone (no kernel headers needed): a controller host that only
# converts, reports and compares.
install-tool: tool man
	install -D -m 0755 tools/blkgenctl/blkgenctl $(DESTDIR)$(PREFIX)/sbin/blkgenctl
	install -d $(DESTDIR)$(PREFIX)/share/blkgen/profiles
	install -m 0644 tools/profiles/*.prof $(DESTDIR)$(PREFIX)/share/blkgen/profiles/
	install -d $(DESTDIR)$(PREFIX)/share/blkgen/suites
	install -m 0644 tools/suites/*.suite $(DESTDIR)$(PREFIX)/share/blkgen/suites/
	install -d $(DESTDIR)$(PREFIX)/share/blkgen/suites/published
	install -m 0644 tools/suites/published/*.json $(DESTDIR)$(PREFIX)/share/blkgen/suites/published/
	install -D -m 0644 build/man/blkgenctl.8 $(DESTDIR)$(PREFIX)/share/man/man8/blkgenctl.8
	install -d $(DESTDIR)$(PREFIX)/share/doc/blkgen
	install -m 0644 README Documentation/*.rst $(DESTDIR)$(PREFIX)/share/doc/blkgen/
	install -D -m 0644 tools/completion/blkgenctl \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/blkgenctl

uninstall:
	rm -f $(DESTDIR)/lib/modules/$(KVER)/extra/blkgen.ko \
		$(DESTDIR)/lib/modules/$(KVER)/extra/blkgen_test.ko \
		$(DESTDIR)$(PREFIX)/sbin/blkgenctl \
		$(DESTDIR)$(PREFIX)/share/man/man8/blkgenctl.8 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/blkgenctl
	rm -rf $(DESTDIR)$(PREFIX)/share/blkgen $(DESTDIR)$(PREFIX)/share/doc/blkgen
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi

# DKMS builds from a copy of the kernel sources of the tree.
dkms-install:
	@command -v dkms > /dev/null || { echo "blkgen: dkms not found: apt-get install dkms" >&2; exit 1; }
	rm -rf $(DESTDIR)/usr/src/blkgen-$(VERSION)
	install -d $(DESTDIR)/usr/src/blkgen-$(VERSION)/module $(DESTDIR)/usr/src/blkgen-$(VERSION)/uapi/linux
	install -m 0644 Kbuild dkms.conf $(DESTDIR)/usr/src/blkgen-$(VERSION)/
	install -m 0644 module/Kbuild module/*.c module/*.h $(DESTDIR)/usr/src/blkgen-$(VERSION)/module/
	install -m 0644 uapi/linux/blkgen.h $(DESTDIR)/usr/src/blkgen-$(VERSION)/uapi/linux/
	dkms add blkgen/$(VERSION)
	dkms build blkgen/$(VERSION) $(if $(KVER),-k $(KVER))
	dkms install blkgen/$(VERSION) $(if $(KVER),-k $(KVER))

dkms-uninstall:
	dkms remove blkgen/$(VERSION) --all
	rm -rf $(DESTDIR)/usr/src/blkgen-$(VERSION)

clean:
	@if [ -n "$(KDIR)" ] && [ -e "$(KDIR)/Makefile" ]; then \
		$(MAKE) -C $(KDIR) M=$(CURDIR) clean; \
	fi
	$(MAKE) -C tools/blkgenctl clean
	$(MAKE) -C tests/unit clean
	rm -rf build

help:
	@sed -n '3,/^$$/p' Makefile | sed 's/^# \{0,1\}//'
