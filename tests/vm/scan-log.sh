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

# The kernel's messages: tests/lib/kernel-bad, one fixed string a line
# (run_tests reads the same list in the guest).
bad=$(paste -sd '|' "$(dirname "$0")/../lib/kernel-bad")
tr -d '\r' < "$1" |
	grep -E "\\[ *[0-9]+\\.[0-9]+\\] .*($bad)|^blkgen-vm: kmemleak: unreferenced object "
