#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo-review inside the VM (tests/demo-review.sh boots it): blkgenctl
# review --quick of DEMO_SUITE (default pm1743) on the emulated NVMe drive
# (DEMO_POINT_SECS seconds a point if set),
# its progress, its summary.md, then its review.json between markers for
# the host to draw (the VM has no gnuplot).
set -u
dev=${DEMO_DEV:-/dev/nvme0n1}
out=/tmp/demo-review
export BLKGEN_PROFILES=/blkgen/profiles BLKGEN_SUITES=/blkgen/suites
modprobe blkgen || exit 1
rm -rf "$out"
echo
echo "blkgen demo-review: the reviews' method, --quick, on $dev (emulated by QEMU)"
blkgenctl review --device "$dev" --allow-write -O "$out" --quick \
	${DEMO_POINT_SECS:+--point-secs "$DEMO_POINT_SECS"} \
	--suite "${DEMO_SUITE:-pm1743}" || exit 1
echo
cat "$out/summary.md"
echo "BEGIN-REVIEW-JSON"
cat "$out/review.json"
echo "END-REVIEW-JSON"
