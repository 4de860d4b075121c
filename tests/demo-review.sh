#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo-review: the review (Documentation/review.rst) without NVMe
# hardware: boots the newest installed Debian kernel (or KERNEL=) under
# QEMU with an emulated NVMe drive, runs blkgenctl review --quick of
# DEMO_SUITE (pm1743, about 4 min; full about 5) there (DEMO_POINT_SECS: its
# points' seconds, --quick's 2 by default), and draws its report
# here in build/demo-review/ (review.json, summary.md, index.html with a
# chart per workload: gnuplot runs on this machine), and its comparison
# with the review's published figures (published:DEMO_SUITE, or
# published:pm1743 for a suite without them) in build/demo-review/vs-published/.
set -eu -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/tests/install-deps.sh"
make -s -C "$top/tools/blkgenctl"
mapfile -t rels < <("$top/tests/vm/kernels.sh" ${KERNEL:+"$KERNEL"})
[ ${#rels[@]} -gt 0 ] || { echo "demo-review: no kernel matches '${KERNEL:-}'" >&2; exit 1; }
rel=${rels[-1]}
out=$top/build/demo-review
echo "demo-review: booting $rel under QEMU (TCG: a slow emulated machine, so the"
echo "demo-review: figures show the method and its report, not an NVMe drive's speed)"
"$top/tests/vm/run.sh" --kernel "$rel" --tag demo-review --no-zns --timeout 1800 \
	--run "DEMO_SUITE=${DEMO_SUITE:-pm1743} DEMO_POINT_SECS=${DEMO_POINT_SECS:-} /blkgen/tests/demo-review-guest.sh"
rm -rf "$out"
mkdir -p "$out"
sed -n '/^BEGIN-REVIEW-JSON/,/^END-REVIEW-JSON/p' "$top/build/vm/$rel-demo-review/console.log" |
	sed '1d;$d' | tr -d '\r' > "$out/review.json"
if [ ! -s "$out/review.json" ]; then
	echo "demo-review: the VM's review left no review.json (build/vm/$rel-demo-review/console.log)" >&2
	exit 1
fi
"$top/tools/blkgenctl/blkgenctl" review --report -O "$out"
export BLKGEN_SUITES=${BLKGEN_SUITES:-$top/tools/suites}
pub=${DEMO_SUITE:-pm1743}
[ -f "$BLKGEN_SUITES/published/$pub.json" ] || pub=pm1743
"$top/tools/blkgenctl/blkgenctl" compare "$out" "published:$pub" -O "$out/vs-published"
echo
cat "$out/summary.md"
echo
echo "demo-review: $out/summary.md, and $out/index.html (open it in a browser)"
echo "demo-review: against published:$pub: $out/vs-published/index.html"
