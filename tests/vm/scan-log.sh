#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scan-log.sh CONSOLE_LOG
#
# Print the kernel messages in a guest console log that fail a run: BUG,
# WARNING, Oops, panics, lockdep reports, hung tasks, RCU stalls, sanitizer
# reports. Only timestamped kernel messages ("[   1.234567] ...") are
# looked at, anywhere in a line (the console interleaves them with test
# output), so test output that merely mentions these words does not count;
# besides them, the leaks tests/vm/init reports from kmemleak at the end
# ("blkgen-vm: kmemleak: unreferenced object 0x... (size N):").
# Exit 0 if any were found, 1 if the log is clean.
set -u

tr -d '\r' < "$1" |
	grep -E '\[ *[0-9]+\.[0-9]+\] .*(BUG:|kernel BUG at|WARNING:|Oops|Kernel panic|general protection fault|UBSAN:|KASAN:|KFENCE:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|blocked for more than|detected stall|Call Trace:)|^blkgen-vm: kmemleak: unreferenced object '
