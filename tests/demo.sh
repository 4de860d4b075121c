#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: blkgen without NVMe hardware and without loading anything on
# this machine. Installs what is missing (Debian packages, as root), builds
# the module for the newest installed Debian kernel (or KERNEL=) and the
# tool, boots that kernel under QEMU with an emulated NVMe drive, and runs
# the four corners there through blkgenctl (tests/demo-guest.sh), then a
# short vdbench curve. Progress and the reports scroll by; a summary table
# follows, and the curve is charted here with blkgenctl plot
# (build/demo/curve.png). DEMO_SECS (5) and DEMO_POINTS (10-120,10) make
# it shorter or longer.
set -eu -o pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/tests/install-deps.sh"
make -s -C "$top/tools/blkgenctl"
mapfile -t rels < <("$top/tests/vm/kernels.sh" ${KERNEL:+"$KERNEL"})
[ ${#rels[@]} -gt 0 ] || { echo "demo: no kernel matches '${KERNEL:-}'" >&2; exit 1; }
rel=${rels[-1]}
echo "demo: booting $rel under QEMU (TCG: a slow emulated machine, so the"
echo "demo: figures show the method, not the speed of an NVMe drive)"
"$top/tests/vm/run.sh" --kernel "$rel" --tag demo --no-zns --timeout 900 \
	--run "DEMO_SECS=${DEMO_SECS:-5} DEMO_POINTS=${DEMO_POINTS:-10-120,10} /blkgen/tests/demo-guest.sh"
mkdir -p "$top/build/demo"
rm -f "$top/build/demo/curve.json" "$top/build/demo/curve.png"
sed -n '/^BEGIN-CURVE-JSON/,/^END-CURVE-JSON/p' "$top/build/vm/$rel-demo/console.log" |
	sed '1d;$d' > "$top/build/demo/curve.json"
if [ -s "$top/build/demo/curve.json" ]; then
	"$top/tools/blkgenctl/blkgenctl" plot "$top/build/demo/curve.json" \
		--title "blkgen demo: 4 KiB random read curve, QEMU NVMe (TCG)" --logy \
		-O "$top/build/demo/curve.png"
fi
