#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Description: the run role's clock checks (ansible/roles/run/tasks/clock.yml)
# judging chrony's figures given here for two hosts (local connections):
# offsets and bounds that agree pass and say the spread; a spread over
# blkgen_max_clock_spread_ms (each host's offset, give or take its root
# dispersion and half its root delay), a host on chrony's local
# reference, an offset over blkgen_max_clock_offset_ms, a clock not
# synchronised and a host without chrony are refused, each saying why.
# shellcheck source=tests/unit/lib.sh
. "$(dirname "$0")/lib.sh"

role=$here/../../ansible/roles/run
export ANSIBLE_LOCAL_TEMP=$tmp/ansible-tmp ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0
cat > "$tmp/play.yml" <<PLAY
- name: The run role's clock checks
  hosts: all
  gather_facts: false
  any_errors_fatal: true
  vars:
    blkgen_max_clock_offset_ms: 1.0
    blkgen_max_clock_spread_ms: 2.0
  tasks:
    - name: Take the figures given
      ansible.builtin.set_fact:
        blkgen_tracking: "{{ tracking }}"
    - name: Judge them
      ansible.builtin.include_tasks: $role/tasks/clock.yml
PLAY

# chrony's tracking line: ref id, name, stratum, ref time, system time,
# last offset, RMS offset, frequency, residual, skew, root delay, root
# dispersion, update interval, leap status (seconds).
line() {
	echo "A29FC87B,${5:-10.0.2.2},3,1796560000.0,$1,0.000001,0.00001,1.0,0.0,0.1,$2,$3,64.0,${4:-Normal}"
}

# judge NAME WANT_RC PATTERN TRACKING_A TRACKING_B [ARGS...]
judge() {
	local name=$1 want=$2 pat=$3 a=$4 b=$5 rc=0
	shift 5
	printf '[all]\nh1 ansible_connection=local ansible_python_interpreter=%s\nh2 ansible_connection=local ansible_python_interpreter=%s\n' \
		"$(command -v python3)" "$(command -v python3)" > "$tmp/inv"
	printf 'tracking: %s\n' "$a" > "$tmp/h1.yml"
	printf 'tracking: %s\n' "$b" > "$tmp/h2.yml"
	mkdir -p "$tmp/host_vars"
	mv "$tmp/h1.yml" "$tmp/h2.yml" "$tmp/host_vars/"
	ansible-playbook -i "$tmp/inv" "$tmp/play.yml" "$@" > "$tmp/out" 2>&1 || rc=$?
	if { [ "$want" = 0 ] && [ $rc = 0 ]; } || { [ "$want" != 0 ] && [ $rc != 0 ]; }; then
		grep -qF -- "$pat" "$tmp/out" && { ok "$name: $pat"; return; }
	fi
	notok "$name: exit $rc, not '$pat': $(grep -E '"msg"|ERROR' "$tmp/out" | head -n 3)"
}

command -v ansible-playbook > /dev/null || { notok "ansible-playbook not found (tests/install-deps.sh)"; exit 1; }
ta="{rc: 0, stdout: \"$(line 0.000010 0.000400 0.000300)\"}"
tb="{rc: 0, stdout: \"$(line -0.000020 0.000600 0.000200)\"}"
# h1 within [0.01 - 0.5, 0.01 + 0.5] ms, h2 [-0.02 - 0.5, -0.02 + 0.5]:
# 1.03 ms apart at most.
judge "clocks that agree" 0 "the hosts' clocks agree to 1.030 ms" "$ta" "$tb"
judge "a spread over the limit" 2 \
	"the hosts' clocks agree to 1.030 ms (each one's offset, give or take its root dispersion and half its root delay; references 10.0.2.2), limit 0.5 ms" \
	"$ta" "$tb" -e blkgen_max_clock_spread_ms=0.5
judge "a host on its local reference" 2 "h2: chrony follows the host's own clock (its local reference)" \
	"$ta" "{rc: 0, stdout: \"$(line 0.0 0.0 0.0 Normal LOCAL | sed 's/^A29FC87B/7F7F0101/')\"}"
judge "an offset over the limit" 2 "h1: clock Normal, offset 1.500000 ms, limit 1.0 ms" \
	"{rc: 0, stdout: \"$(line 0.0015 0.0001 0.0001)\"}" "$tb"
judge "a clock not synchronised" 2 "h2: clock Not synchronised" \
	"$ta" "{rc: 0, stdout: \"$(line 0.0 0.0 0.0 'Not synchronised')\"}"
judge "no chrony" 2 "h1: no chrony tracking (chronyc: not found)" \
	"{rc: 127, stdout: '', stderr: 'chronyc: not found'}" "$tb"

# The reading itself (tasks/clock-read.yml), by a chronyc of the test's
# on each host's PATH: it answers with the lines of the host's file, one
# a call (the last one again after the end), or fails with its message.
cat > "$tmp/read.yml" <<PLAY
- name: The run role's clock reading
  hosts: all
  gather_facts: false
  any_errors_fatal: true
  vars:
    blkgen_max_clock_offset_ms: 1.0
    blkgen_max_clock_spread_ms: 2.0
  environment:
    PATH: "$tmp/bin:$PATH"
    CHRONYC_LINES: "$tmp/lines-{{ inventory_hostname }}"
  tasks:
    - name: Read
      ansible.builtin.include_tasks: $role/tasks/clock-read.yml
    - name: Judge
      ansible.builtin.include_tasks: $role/tasks/clock.yml
PLAY
mkdir -p "$tmp/bin"
cat > "$tmp/bin/chronyc" <<'SH'
#!/bin/sh
f=$CHRONYC_LINES
n=$(cat "$f.n" 2> /dev/null || echo 0)
n=$((n + 1))
echo $n > "$f.n"
case $(head -n 1 "$f") in
fail:*) sed -n '1s/^fail://p' "$f" >&2; exit 1 ;;
esac
sed -n "${n}p" "$f" | grep . || tail -n 1 "$f"
SH
chmod 755 "$tmp/bin/chronyc"
# reads NAME WANT_RC PATTERN LINES_A LINES_B: the two hosts' chronyc
# answers (lines separated by |), then the play's exit and message.
reads() {
	local name=$1 want=$2 pat=$3 rc=0
	printf '%s\n' "$4" | tr '|' '\n' > "$tmp/lines-h1"
	printf '%s\n' "$5" | tr '|' '\n' > "$tmp/lines-h2"
	rm -f "$tmp"/lines-h?.n "$tmp/host_vars"/*
	ansible-playbook -i "$tmp/inv" "$tmp/read.yml" > "$tmp/out" 2>&1 || rc=$?
	if { [ "$want" = 0 ] && [ $rc = 0 ]; } || { [ "$want" != 0 ] && [ $rc != 0 ]; }; then
		grep -qF -- "$pat" "$tmp/out" && { ok "reading: $name: $pat"; return; }
	fi
	notok "reading: $name: exit $rc, not '$pat': $(grep -E '"msg"|ERROR' "$tmp/out" | head -n 3)"
}
la=$(line 0.000010 0.000400 0.000300) lb=$(line -0.000020 0.000600 0.000200)
reads "whole readings" 0 "the hosts' clocks agree to 1.030 ms" "$la" "$lb"
reads "a short reading, then a whole one" 0 "the hosts' clocks agree to 1.030 ms" \
	"A29FC87B,10.0.2.2,3|$la" "$lb"
reads "short readings only" 2 "h2: clock unknown" "$la" "A29FC87B,10.0.2.2,3"
grep -qF "h2: chronyc -c -n tracking said 'A29FC87B,10.0.2.2,3' (exit 0; read four times)" "$tmp/out" &&
	[ "$(cat "$tmp/lines-h2.n" 2> /dev/null)" = 4 ] && ok "reading: a short one taken four times, then shown" ||
	notok "reading: a short one not taken four times and shown ($(cat "$tmp/lines-h2.n" 2> /dev/null) calls): $(grep 'said' "$tmp/out")"
reads "chronyd not answering" 2 "h1: no chrony tracking (506 Cannot talk to daemon)" \
	"fail:506 Cannot talk to daemon" "$lb"
[ "$(cat "$tmp/lines-h1.n" 2> /dev/null)" = 1 ] && ok "reading: a chronyc that fails is not asked again" ||
	notok "reading: a chronyc that fails was asked again"
exit $fail
