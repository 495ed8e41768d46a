# Helpers for the guest-side tests (busybox sh); sourced.
# Results are TAP lines at column 0, counted by tests/run-all.sh
# (tests/tap-count.awk): each script ends with tap_end, which prints its
# plan, so a script that stops halfway fails the check.
#
# A measurement that fails (a walk, a counter or sysfs file that cannot be
# read) fails the next test, whatever that test's own status: measure_failed
# records why in a file (command substitutions are subshells), and tap
# reads it. Values of a failed measurement are empty, which no numeric
# test accepts.

SCRATCH=${RAPOLICY_SCRATCH:-/mnt/scratch}
RAPOLICY_SYSFS=${RAPOLICY_SYSFS:-/sys/kernel/mm/rapolicy}
tap_n=0
tap_failed_file=/tmp/tap-failed.$$
: >"$tap_failed_file"

# measure_failed WHAT: the next test fails, saying WHAT
measure_failed() {
	echo "$*" >>"$tap_failed_file"
	echo "# measurement failed: $*" >&2
}

tap() {
	# tap STATUS DESCRIPTION: STATUS 0 is a pass
	tap_n=$((tap_n + 1))
	if [ -s "$tap_failed_file" ]; then
		echo "not ok $tap_n - $2 [measurement failed: $(tr '\n' ';' <"$tap_failed_file")]"
		: >"$tap_failed_file"
	elif [ "$1" = 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
	fi
}

# tap_skip WHAT WHY: a test not run here, and why (counted as skipped)
tap_skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $1 # SKIP $2"
}

# tap_import: TAP lines on stdin ("ok N text", "not ok N text") become
# tests of this script, renumbered (KUnit's results, say)
tap_import() {
	while read -r _line; do
		case $_line in
		"not ok "*) _t=${_line#not ok } _st=1 ;;
		"ok "*) _t=${_line#ok } _st=0 ;;
		*) continue ;;
		esac
		tap "$_st" "${_t#* }"
	done
}

# kunit_import RESULTS: the cases of a KUnit suite (its debugfs results,
# KTAP: the parameterised cases are the indented "ok N name" lines) as
# tests of this script
kunit_import() {
	sed -n 's/^ \{8,\}\(\(not \)\{0,1\}ok [0-9]*\) \(.*\)/\1 kunit: \3/p' "$1" >/tmp/kunit.$$
	[ -s /tmp/kunit.$$ ] || measure_failed "no KUnit cases in $1"
	tap_import </tmp/kunit.$$
	rm -f /tmp/kunit.$$
}

# tap_end: the plan, after the last test; the script's status is 0 when
# it got here (failures are its "not ok" lines)
tap_end() {
	[ -s "$tap_failed_file" ] && tap 1 "measurements after the last test"
	rm -f "$tap_failed_file"
	echo "1..$tap_n"
	exit 0
}

# suite SCRIPT [ARGS...]: run another script of tests/guest; one that
# stops before its tap_end (non-zero status) is a failed test of its own
suite() {
	_script=$1
	shift
	sh "${GUEST_DIR:-/add/guest}/$_script" "$@"
	_rc=$?
	[ "$_rc" = 0 ] || tap 1 "$_script ran to its end (it exited with status $_rc)"
}

# value FILE: the contents of FILE; an unreadable or empty FILE is a
# failed measurement (empty output)
value() {
	_v=$(cat "$1" 2>/dev/null)
	[ -n "$_v" ] || { measure_failed "cannot read $1"; return 1; }
	echo "$_v"
}

# counter NAME [ARM]: a counter of the module (stats/NAME, stats/ARM/NAME)
counter() {
	value "$RAPOLICY_SYSFS/stats/${2:+$2/}$1"
}

# profile NAME: apply a profile as users get it, from rapolicyctl's own
# table (rapolicyctl profile NAME: the policies it names to its values,
# every other one of arm A to stock)
profile() {
	rapolicyctl profile "$1" >/dev/null ||
		{ measure_failed "rapolicyctl profile $1"; return 1; }
}

check() {
	# check DESCRIPTION COMMAND...: one test, passing when COMMAND does
	desc=$1
	shift
	"$@"
	tap $? "$desc"
}

# testfile SIZE: a file of SIZE (rawalk suffixes) on the scratch disk
testfile() {
	f=$SCRATCH/data-$1
	rawalk --create "$1" "$f" >/dev/null || return 1
	echo "$f"
}

# trace_on EVENT: the tracefs event EVENT (its directory under events/)
# on, the trace buffer emptied
trace_on() {
	echo 0 >$TRACEFS/tracing_on && : >$TRACEFS/trace && echo 1 >"$1/enable" &&
		echo 1 >$TRACEFS/tracing_on || { measure_failed "enable $1"; return 1; }
}

# trace_off EVENT OUT: EVENT off, the lines it traced in the file OUT. A
# lost event (ring buffer overrun) is a failed measurement.
trace_off() {
	echo 0 >$TRACEFS/tracing_on
	echo 0 >"$1/enable"
	grep " ${1##*/}: " $TRACEFS/trace >"$2"
	if grep -q '^overrun: [1-9]' $TRACEFS/per_cpu/cpu*/stats; then
		measure_failed "the trace ring buffer overran"
		return 1
	fi
}

# trace_walk EVENT OUT ADVICE PATTERN FILE: a cold walk (walk) with EVENT
# on, the lines it traced in OUT (trace_on, trace_off)
trace_walk() {
	_ev=$1 _evout=$2
	shift 2
	trace_on "$_ev" || return 1
	walk "$@"
	_rc=$?
	trace_off "$_ev" "$_evout" || return 1
	return $_rc
}

# walk ADVICE PATTERN FILE [RAWALK OPTIONS...]: a cold walk with
# read_ahead_kb $RA_KB (default 8192); sets walk_out (rawalk's report),
# walk_major, walk_sectors, walk_ios and walk_pmd_kb
walk() {
	_advice=$1 _pattern=$2 _file=$3
	shift 3
	if ! walk_out=$(rawalk --advice "$_advice" --pattern "$_pattern" \
		--read-ahead-kb "${RA_KB:-8192}" --cold "$@" "$_file" 2>&1); then
		echo "$walk_out" | sed 's/^/# rawalk: /'
		walk_major='' walk_sectors='' walk_ios='' walk_pmd_kb=''
		measure_failed "rawalk --advice $_advice --pattern $_pattern $*"
		return 1
	fi
	walk_major=$(report major_faults)
	walk_sectors=$(report sectors_read)
	walk_ios=$(report ios_read)
	walk_pmd_kb=$(report file_pmd_mapped_kb)
}

# report KEY: a value of the last walk's report; a missing key is a
# failed measurement
report() {
	_r=$(echo "$walk_out" | sed -n "s/^$1: *//p")
	[ -n "$_r" ] || measure_failed "no $1 in rawalk's report"
	echo "$_r"
}

# stock_major ADVICE PATTERN SIZE: stock's major faults for a walk of the
# neutrality table of this kernel (stock-<version>.txt, recorded on the
# stock kernel; neutrality.sh checks the patched kernel against it)
stock_major() {
	_t=${GUEST_DIR:-/add/guest}/stock-$(uname -r | sed 's/-.*//').txt
	_m=$(sed -n "s/^$1 $2 $3 \([0-9]*\) .*/\1/p" "$_t" 2>/dev/null)
	[ -n "$_m" ] || measure_failed "no row '$1 $2 $3' in ${_t##*/}"
	echo "$_m"
}

# fresh_module: reload rapolicy, so that no stream of an earlier walk takes
# part in the next count (every policy stock, counters zero)
fresh_module() {
	{ ! grep -q '^rapolicy ' /proc/modules || modprobe -r rapolicy; } &&
		modprobe rapolicy || measure_failed "reload rapolicy"
}

# set_policy NAME VALUE: write a policy file of the module
set_policy() {
	echo "$2" >"$RAPOLICY_SYSFS/$1" || { measure_failed "set $1=$2"; return 1; }
}

# all_policies_off: every policy file of the module back to its first
# value, stock behaviour; the files and values are the module's own
all_policies_off() {
	for _p in "$RAPOLICY_SYSFS"/*; do
		[ -f "$_p" ] || continue
		read -r _first _rest <"$_p" || return 1
		case "$_first $_rest" in *\[*\]*) ;; *) continue ;; esac
		echo "$_first" | tr -d '[]' >"$_p" || return 1
	done
}

# tracefs, mounted where the kernel offers it
TRACEFS=/sys/kernel/tracing
mount_tracefs() {
	grep -q " $TRACEFS " /proc/mounts || mount -t tracefs nodev "$TRACEFS"
}
