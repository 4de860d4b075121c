#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: the published comparables (tools/suites/published/*.json,
# compare's published:NAME): every figure names its review (title, site,
# date) and section, is a workload of a shipped suite under its title,
# has its units (IOPS, K IOPS, M IOPS; MB/s, GB/s; us, ms); where the
# block size is known its MB/s is its IOPS x block size (vdbench's MB,
# 2^20 bytes) or an erratum says why not; where the thread count is known
# Little's law holds (IOPS x mean latency <= 1.05 x threads) or the figure
# says by how much it does not (and a figure that says so does exceed);
# a latency read in another unit than printed fails Little's law as
# printed and has an erratum; the PM1743 translation's figures are its
# numbers, in another order. Every figure keeps the sentences it comes
# from as printed ("quote"), and its numbers, units included, are theirs
# (the translation's numbers in their printed order, not their units,
# which its reading moves from slot to slot; a number printed wrong is
# kept as "printed", with an erratum that holds the value taken; a mean
# below its p99). Notes are figures, not prose. The
# application benchmarks (listed, not compared) have a section, TPS or
# seconds, and Little's law at the VMs' threads where known. compare
# takes a set by path (published:FILE) and refuses a figure without units.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"
pub=$here/../../tools/suites/published

if ! command -v python3 > /dev/null; then
	notok "no python3 (tests/install-deps.sh installs it)"
	exit 1
fi
n=$(find "$pub" -name '*.json' | wc -l)
[ "$n" -ge 3 ] && ok "$n published sets" || notok "$n published sets in $pub (want pblaze5, pm1735, pm1743)"

cat > "$tmp/check.py" <<'PY'
import glob, json, os, re, sys

pub, suites = sys.argv[1], sys.argv[2]
titles, units = {}, {}
for f in glob.glob(os.path.join(suites, "*.suite")):
    name = None
    for line in open(f):
        m = re.match(r"\[workload (\S+)\]", line)
        if m:
            name = m.group(1)
            units[name] = "iops"
        elif name and line.startswith("title = "):
            titles[name] = line[8:].strip()
        elif name and line.strip() == "unit = mbps":
            units[name] = "mbps"

RATE = {"IOPS": 1, "K IOPS": 1e3, "M IOPS": 1e6}
BW = {"MB/s": 1, "GB/s": 1000}
LAT = {"us": 1e-6, "ms": 1e-3}
NOTES = ("erratum", "exceeds_threads", "also_printed", "conclusion_misfiled")

def q(x, table):
    return x["value"] * table[x["unit"]] if x and x.get("unit") in table and x.get("value", 0) > 0 else None

def res(ok, what):
    print(("ok - " if ok else "not ok - ") + what)

# The quotes: each figure keeps the review's sentences it comes from, as
# printed (the seeds' characters, no-break spaces and both micro signs
# included). A number with its unit in a quote: 748,510 IOPS, 2.72GB/s,
# 170μs (either micro sign), 400K, 215 man IOPS (the translation's ten thousands), 3,259
# seconds. A bare K after 4, 8, 16, 64 or 128 is a block size (random
# 4K read), not a figure.
QNUM = re.compile(r"(?<![\w.,])(\d[\d,]*(?:\.\d+)?)\s*(K\s*IOPS|M\s*IOPS|\u4e07\s*IOPS|IOPS|GB/s|MB/s|[\u00b5\u03bc]s|ms|TPS|seconds|K)(?![A-Za-z])")
QUNIT = {"K": "K IOPS", "seconds": "s", "\u00b5s": "us", "\u03bcs": "us"}

def qtokens(quote):
    out = []
    for sent in quote:
        for m in QNUM.finditer(sent):
            n, u = m.group(1), re.sub(r"\s+", " ", m.group(2))
            if u == "K" and n in ("4", "8", "16", "64", "128"):
                continue
            out.append((float(n.replace(",", "")), QUNIT.get(u, u)))
    return out

def ws(s):
    return re.sub(r"\s+", " ", s)

QFIELDS = ("iops", "mbps", "lat_mean", "lat_p99", "tps", "time", "after_peak")

def quote_bad(x):
    """What of x is not in its quote: [] when every figure is."""
    quote = x.get("quote")
    if not isinstance(quote, list) or not quote or not all(isinstance(t, str) and t for t in quote):
        return ["no quote"]
    toks = qtokens(quote)
    bad = []
    if "seed_order" in x:
        # The translation: its numbers as printed, in their order (the
        # fields hold them in another: the order check above).
        nums = [n for n, _ in toks]
        if "figures" not in x and "workload" not in x:	# an application
            plain = [float(t.replace(",", "")) for s in quote for t in re.findall(r"\d[\d,]*(?:\.\d+)?", s)]
            if not all(v in plain for v in x["seed_order"]):
                bad.append("seed_order %s not in the quote" % x["seed_order"])
        elif nums != [float(v) for v in x["seed_order"]]:
            bad.append("the quote prints %s, seed_order %s" % (nums, x["seed_order"]))
        return bad
    for k in QFIELDS:
        f = x.get(k)
        if not isinstance(f, dict):
            continue
        if "printed" in f:
            # As printed, and wrong: said in an erratum, which (or the
            # printed text) holds the value taken, with its commas.
            v = f.get("value", -1)
            vs = "{:,}".format(int(v) if v == int(v) else v)
            if not any(ws(f["printed"]) in ws(s) for s in quote) or "erratum" not in x:
                bad.append("%s printed '%s' (not in the quote, or no erratum)" % (k, f["printed"]))
            elif vs not in f["printed"] + " " + x["erratum"]:
                bad.append("%s %s in neither its printed '%s' nor its erratum" % (k, vs, f["printed"]))
        elif (float(f.get("value", -1)), f.get("unit")) not in toks:
            bad.append("%s %s %s not in the quote" % (k, f.get("value"), f.get("unit")))
    # A mean and a p99 both in the quote: the mean the smaller (swapped, both would pass).
    lm, lp = q(x.get("lat_mean"), LAT), q(x.get("lat_p99"), LAT)
    if lm and lp and lm >= lp:
        bad.append("lat_mean %s not below lat_p99 %s" % (lm, lp))
    return bad

for f in sorted(glob.glob(os.path.join(pub, "*.json"))):
    base = os.path.basename(f)
    d = json.load(open(f))
    r = d.get("review", {})
    res(d.get("format") == "blkgen-published-1" and d.get("name") == base[:-5],
        "%s: format and name" % base)
    res(all(r.get(k) for k in ("title", "site", "date")) and re.fullmatch(r"\d{4}(-\d\d){0,2}", r["date"]),
        "%s: the review's title, site and date (%s, %s, %s)" % (base, r.get("title"), r.get("site"), r.get("date")))
    figs = [(dr, x) for dr in d.get("drives", []) for x in dr.get("figures", [])]
    res(len(figs) > 0 and all(dr.get("model") for dr, _ in figs), "%s: %d figures, each drive named" % (base, len(figs)))
    bad = {"section": [], "suite": [], "units": [], "mbps": [], "little": [], "note": [], "order": [], "bs": []}
    nlittle = nmbps = 0
    for dr, x in figs:
        w = x.get("workload", "?")
        if not x.get("section"):
            bad["section"].append(w)
        if titles.get(w) != x.get("title"):
            bad["suite"].append(w)
        iops, mb = q(x.get("iops"), RATE), q(x.get("mbps"), BW)
        lat = q(x.get("lat_mean_read") or x.get("lat_mean"), LAT)
        printed = q(x.get("lat_mean"), LAT)
        if ("iops" in x and iops is None) or ("mbps" in x and mb is None) or lat is None or printed is None \
           or (iops is None and mb is None) or ("lat_p99" in x and q(x["lat_p99"], LAT) is None):
            bad["units"].append(w)
            continue
        bs = x.get("bs")
        m = re.match(r"(\d+)k-", w)
        if (m and bs != int(m.group(1)) * 1024) or (units.get(w) == "mbps" and not bs):
            bad["bs"].append(w)
        if iops and mb and bs:
            nmbps += 1
            # MB/s as printed: within 1% and half its last printed digit
            digits = len(str(x["mbps"]["value"]).split(".")[1]) if "." in str(x["mbps"]["value"]) else 0
            tol = 0.01 * mb + 0.5 * 10 ** -digits * BW[x["mbps"]["unit"]]
            if abs(iops * bs / 2**20 - mb) > tol and "erratum" not in x:
                bad["mbps"].append(w)
        t = x.get("threads")
        if t:
            nlittle += 1
            if "(%d)" % t not in x.get("title", ""):
                bad["suite"].append(w + " threads")
            n = iops * lat
            over = n > 1.05 * t
            said = x.get("exceeds_threads", "")
            if over != bool(said) or (said and "%.3g" % n not in said):
                bad["little"].append("%s (%.1f outstanding, %d threads)" % (w, n, t))
            if "lat_mean_read" in x and (iops * printed <= 1.05 * t or "erratum" not in x):
                bad["little"].append(w + " (read unit)")
        for k in NOTES:
            if k in x and (not re.search(r"\d", x[k]) or len(x[k]) > 120 or '"' in x[k]):
                bad["note"].append(w + " " + k)
        if "seed_order" in x:
            got = sorted(v["value"] for v in (x.get("iops"), x.get("mbps"), x.get("lat_mean")) if v)
            if got != sorted(x["seed_order"]):
                bad["order"].append(w)
    qbad = ["%s: %s" % (x.get("workload") or x.get("benchmark"), "; ".join(b))
            for x in [x for _, x in figs] + [a for dr in d.get("drives", []) for a in dr.get("applications", [])]
            for b in [quote_bad(x)] if b]
    res(not qbad, "%s: every figure's numbers, units included, are its quote's %s" % (base, qbad or ""))
    # application benchmarks (listed, not compared): TPS or seconds,
    # latencies in us/ms, Little's law at the VMs' threads where known
    apps = [a for dr in d.get("drives", []) for a in dr.get("applications", [])]
    abad = []
    for a in apps:
        t = a.get("title", "?")
        tps = a["tps"]["value"] if a.get("tps", {}).get("unit") == "TPS" and a["tps"].get("value", 0) > 0 else None
        secs = a["time"]["value"] if a.get("time", {}).get("unit") == "s" else None
        lat = q(a.get("lat_mean"), LAT) if "lat_mean" in a else 0
        if not a.get("section") or (tps is None and secs is None) or lat is None or \
           ("lat_p99" in a and q(a["lat_p99"], LAT) is None):
            abad.append(t)
        elif a.get("threads") and tps * lat > 1.05 * a["threads"]:
            abad.append("%s (%.1f outstanding, %d threads)" % (t, tps * lat, a["threads"]))
        elif "seed_order" in a and not {v["value"] for k, v in a.items() if k in ("tps", "lat_mean", "lat_p99")} <= set(a["seed_order"]):
            abad.append(t + " (seed order)")
    res(not abad, "%s: %d application figures: section, TPS or s, us/ms, Little's law at %d known thread counts %s"
        % (base, len(apps), sum(1 for a in apps if a.get("threads")), abad or ""))
    res(not bad["section"], "%s: every figure names its section %s" % (base, bad["section"] or ""))
    res(not bad["suite"], "%s: every workload is a shipped suite's, under its title and thread count %s" % (base, bad["suite"] or ""))
    res(not bad["units"], "%s: units IOPS/K IOPS/M IOPS, MB/s/GB/s, us/ms %s" % (base, bad["units"] or ""))
    res(not bad["bs"], "%s: block size of the workload's name; every sequential figure has one %s" % (base, bad["bs"] or ""))
    res(not bad["mbps"], "%s: %d MB/s figures are IOPS x block size (2^20-byte MB) %s" % (base, nmbps, bad["mbps"] or ""))
    res(not bad["little"], "%s: Little's law at the threads of %d figures, or the excess said %s" % (base, nlittle, bad["little"] or ""))
    res(not bad["note"], "%s: notes are figures %s" % (base, bad["note"] or ""))
    res(not bad["order"], "%s: translated figures are the seed's numbers %s" % (base, bad["order"] or ""))
PY
python3 "$tmp/check.py" "$pub" "$here/../../tools/suites" > "$tmp/out"
cat "$tmp/out"
grep -q '^not ok' "$tmp/out" && fail=1
[ -s "$tmp/out" ] || notok "the figure checks printed nothing"

# Little's law catches what it should: a figure made to exceed (the
# PBlaze5's 4K read at 10x its latency) is not ok.
mkdir "$tmp/bad" "$tmp/suites"
cp "$here"/../../tools/suites/*.suite "$tmp/suites/"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["drives"][0]["figures"][0]["lat_mean"]["value"] *= 10
json.dump(d, open(sys.argv[2], "w"))' "$pub/pblaze5.json" "$tmp/bad/pblaze5.json"
python3 "$tmp/check.py" "$tmp/bad" "$tmp/suites" > "$tmp/bad.out"
if grep -q "^not ok - pblaze5.json: Little's law.*4k-random-read-128" "$tmp/bad.out"; then
	ok "a PBlaze5 4K read at 1,700 us fails Little's law at 128 threads"
else
	notok "a figure 10x over Little's law passed"
fi

# The quotes catch what they should: a figure one off its quote (the
# PM1735's SQL at 241,722 IOPS), a translated figure's numbers in
# another order than printed, and a printed error without its erratum.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1] + "/pm1735.json"))
f = [x for x in d["drives"][0]["figures"] if x["workload"] == "sql"][0]
f["iops"]["value"] = 241722
g = [x for x in d["drives"][0]["figures"] if x["workload"] == "64k-seq-write-16"][0]
del g["erratum"]
h = [x for x in d["drives"][0]["figures"] if x["workload"] == "4k-random-read-512"][0]
h["iops"]["value"] = 631960
a = d["drives"][0]["applications"][1]
a["lat_mean"], a["lat_p99"] = a["lat_p99"], a["lat_mean"]
json.dump(d, open(sys.argv[2] + "/pm1735.json", "w"))
d = json.load(open(sys.argv[1] + "/pm1743.json"))
f = [x for x in d["drives"][0]["figures"] if x["workload"] == "sql"][0]
f["seed_order"].reverse()
json.dump(d, open(sys.argv[2] + "/pm1743.json", "w"))' "$pub" "$tmp/bad"
python3 "$tmp/check.py" "$tmp/bad" "$tmp/suites" > "$tmp/bad.out"
q=$(grep "^not ok - pm1735.json: every figure's numbers" "$tmp/bad.out")
if echo "$q" | grep -q "sql: iops 241722 IOPS not in the quote" &&
   echo "$q" | grep -q "64k-seq-write-16: iops printed '35,160K IOPS' (not in the quote, or no erratum)" &&
   echo "$q" | grep -q "4k-random-read-512: iops 631,960 in neither its printed '631,959,288 IOPS' nor its erratum" &&
   echo "$q" | grep -q "sysbench: lat_mean 0.0289 not below lat_p99 0.01626" &&
   grep -q "^not ok - pm1743.json: every figure's numbers.*sql: the quote prints \[187.0, 168.5\], seed_order \[168.5, 187\]" "$tmp/bad.out"; then
	ok "a figure one off its quote, a printed error without its erratum, a value taken from a printed error that says another, a mean and p99 swapped, a translation's numbers reordered: each not ok"
else
	notok "planted errors against the quotes: $(grep -c '^not ok' "$tmp/bad.out") not ok; $(grep "numbers" "$tmp/bad.out")"
fi

# compare loads a set by path too, and refuses a figure without its units.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["drives"][0]["figures"][2]["lat_mean"]["unit"] = "furlongs"
json.dump(d, open(sys.argv[2], "w"))' "$pub/pm1743.json" "$tmp/bad/unit.json"
usage_error "figure '64k-seq-read-32': needs a workload, a section, IOPS or MB/s and a latency in their units" \
	compare "published:$tmp/bad/unit.json" published:pm1735 -O "$tmp/x"
export BLKGEN_SUITES=$here/../../tools/suites
if "$ctl" compare "published:$pub/pm1743.json" published:pm1735 -O "$tmp/bypath" 2> "$tmp/err" &&
   grep -q '^| [12] | Samsung PM1743 (published, StorageReview 2023) |' "$tmp/bypath/summary.md"; then
	ok "compare published:PATH published:pm1735: $(cat "$tmp/err")"
else
	notok "compare published:PATH: $(cat "$tmp/err")"
fi
exit $fail
