#!/bin/sh
# make bench, guest side: run the cells of a bench matrix (tests/bench/matrix)
# and print one machine-readable line per walk for tests/bench/bench.sh.
#
#   bench.sh MATRIX [--reps N] [--kernel LABEL] [--unpatched]
#
# --unpatched: the kernel has no hooks (stock 7.3.4); every workload runs
# once per repetition under the pseudo-setting "-", with no module.
#
# Order: repetition, then workload, then setting, so slow drift of the host
# spreads over every setting instead of landing on one; the settings are
# rotated by 3 places each repetition, so no setting always runs first after
# another workload (whose page cache is still being freed).  Before the first
# walk the files are created and read once and the guest's RAM is touched,
# so no measured walk pays for QEMU allocating guest memory or for ext4
# metadata reads of a new file.
#
# shellcheck disable=SC2046,SC2086  # matrix lines are split on purpose (set -f)
# shellcheck disable=SC2154  # walk_* are set by lib.sh's walk()
#
# Output (stdout), space-separated, no field contains a space:
#   @meta KEY VALUE...
#   @bench KERNEL WORKLOAD SETTING REP MAJOR MINOR SECTORS IOS PMD_KB RSS_KB WALL_MS DECISIONS TOOK
# TOOK is 1 when every policy file read back the value the setting wrote
# (or its stock value), 0 if not, - on an unpatched kernel; DECISIONS is the
# sum of the setting's stats/ counters after the walk, - when it has none.
# A walk that failed prints -1 for its counts.  Progress goes to stderr as
# "# ..." lines.
# shellcheck source=tests/guest/lib.sh source-path=SCRIPTDIR/../..
. "$(dirname "$0")/lib.sh"
# Matrix fields are split unquoted and may hold '*' (ID*N): no globbing.
set -f

matrix=$1
shift || true
reps=3 kernel=patched patched=1
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--unpatched) patched=0; shift ;;
	*) echo "bench: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -r "$matrix" ] || { echo "bench: no matrix $matrix" >&2; exit 2; }

if [ "$patched" = 1 ]; then
	modprobe rapolicy || { echo "bench: cannot load rapolicy" >&2; exit 1; }
	echo "@meta rapolicy $(cat "$RAPOLICY_SYSFS/version")"
fi
echo "@meta kernel $(uname -r)"
echo "@meta mem_kb $(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' /proc/meminfo)"
echo "@meta cpus $(grep -c ^processor /proc/cpuinfo)"
echo "@meta fs $(sed -n "s|^[^ ]* $SCRATCH \([^ ]*\) .*|\1|p" /proc/mounts)"
echo "@meta thp $(cat /sys/kernel/mm/transparent_hugepage/enabled)"
echo "@meta khugepaged_sleep_ms $(cat /sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs)"

# Every policy file of the module and its stock value, the first one it
# lists (ABI: each policy defaults to its first value, the stock kernel's
# behaviour), as file=value words; so policies added later are reset too.
policy_defaults() {
	set +f
	for _f in "$RAPOLICY_SYSFS"/*; do
		[ -f "$_f" ] || continue
		# policy files show their values with the current one in
		# brackets; version and bpf_ops (read-only) do not
		grep -q '\[' "$_f" || continue
		_v=$(sed 's/^\[\{0,1\}\([^] ]*\).*/\1/' "$_f")
		echo "${_f##*/}=$_v"
	done
	set -f
}
DEFAULTS=
if [ "$patched" = 1 ]; then
	DEFAULTS=$(policy_defaults | tr '\n' ' ')
	[ -n "$DEFAULTS" ] || { echo "bench: no policy files in $RAPOLICY_SYSFS" >&2; exit 1; }
fi

# every_policy_off: each policy file back to its stock value
every_policy_off() {
	for kv in $DEFAULTS; do
		set_policy "${kv%%=*}" "${kv#*=}" || return 1
	done
}

# mline TYPE ID: the matrix line "TYPE ID ..." (fields after TYPE)
mline() {
	sed -n "s/^$1  *\($2 .*\)/\1/p" "$matrix" | head -n 1
}

# The workloads to run on their own (not the THEN of another), the settings.
# THEN is ID or ID*N (run N times).
workloads=$(awk '$1 == "w" { id[++n] = $2; t = $8; sub(/\*.*/, "", t); if (t != "-") then_[t] = 1 }
	END { for (i = 1; i <= n; i++) if (!(id[i] in then_)) print id[i] }' "$matrix")
if [ "$patched" = 1 ]; then
	settings=$(awk '$1 == "s" { print $2 }' "$matrix")
else
	settings=-
fi
cells=$(awk '$1 == "c" { print $2 ":" $3 }' "$matrix")

# o lines: "GLOB SETTING..." each
only=$(awk '$1 == "o" { $1 = ""; print substr($0, 2) }' "$matrix")

# Whether the cell WORKLOAD:SETTING is to run: the c lines if any, else
# the o lines that match WORKLOAD (never on the unpatched kernel), else yes.
wanted() {
	if [ -n "$cells" ]; then
		[ "$2" = - ] && { echo "$cells" | grep -q "^$1:" ; return; }
		echo "$cells" | grep -qx "$1:$2"
		return
	fi
	_hit=0
	for _line in $(echo "$only" | tr ' ' '|'); do
		_glob=${_line%%|*} _sets="|${_line#*|}|"
		# shellcheck disable=SC2254  # the glob is the matrix's pattern
		case $1 in
		$_glob)
			_hit=1
			case $_sets in *"|$2|"*) return 0 ;; esac
			;;
		esac
	done
	[ "$_hit" = 0 ]
}

# apply SETTING: every policy back to stock, then the setting's writes;
# sets took=1 when every policy file reads back what it should.
apply() {
	took=-
	[ "$1" = - ] && return 0
	set -- $(mline s "$1")
	writes=$2
	every_policy_off || { took=0; return 1; }
	want=$DEFAULTS
	if [ "$writes" != - ]; then
		for kv in $(echo "$writes" | tr , ' '); do
			set_policy "${kv%%=*}" "${kv#*=}" || { took=0; return 1; }
			# a file the defaults do not list is checked all the same
			case " $want " in
			*" ${kv%%=*}="*) want=$(echo " $want " | sed "s/ ${kv%%=*}=[^ ]*/ $kv/") ;;
			*) want="$want $kv" ;;
			esac
		done
	fi
	took=1
	for kv in $want; do
		grep -q "\[${kv#*=}\]" "$RAPOLICY_SYSFS/${kv%%=*}" || took=0
	done
	echo 1 >"$RAPOLICY_SYSFS/stats/reset" 2>/dev/null
	[ "$took" = 1 ]
}

# decisions SETTING: the sum of the setting's counters
decisions() {
	[ "$1" = - ] && { echo -; return; }
	set -- $(mline s "$1")
	[ "$3" = - ] && { echo -; return; }
	_sum=0
	for c in $(echo "$3" | tr , ' '); do
		_v=$(cat "$RAPOLICY_SYSFS/stats/$c" 2>/dev/null) || { echo -; return; }
		_sum=$((_sum + _v))
	done
	echo "$_sum"
}

# file SIZE: the shared test file of that size
file() {
	echo "$SCRATCH/data-$1"
}

# elapsed: time since the bench started, as [m:ss]
t_start=$(cut -d. -f1 /proc/uptime)
elapsed() {
	_t=$(($(cut -d. -f1 /proc/uptime) - t_start))
	printf '%d:%02d' $((_t / 60)) $((_t % 60))
}

done_n=0
# run WORKLOAD SETTING REP: one walk and its @bench line; then its THEN
run() {
	set -- "$1" "$2" "$3" $(mline w "$1")
	_wl=$1 _set=$2 _rep=$3 _size=$5 _advice=$6 _pattern=$7 _ra=$8 _opts=$9
	shift 9
	_then=$1
	_opts=$(echo "$_opts" | tr , ' ')
	[ "$_opts" = - ] && _opts=
	if RA_KB=$_ra walk "$_advice" "$_pattern" "$(file "$_size")" $_opts; then
		_ms=$(report wall_ms) _rss=$(report rss_kb) _minor=$(report minor_faults)
	else
		# the reports' mark of a failed walk; bench smoke fails on it
		_ms=-1 _rss=-1 _minor=-1
		walk_major=-1 walk_sectors=-1 walk_ios=-1 walk_pmd_kb=-1
	fi
	_dec=$(decisions "$_set")
	echo "@bench $kernel $_wl $_set $_rep $walk_major $_minor $walk_sectors $walk_ios $walk_pmd_kb $_rss $_ms $_dec $took"
	done_n=$((done_n + 1))
	echo "# [$done_n/$total] $(elapsed) rep $_rep $_wl ${_set}: $walk_major majflt, $((walk_sectors / 2048)) MiB, $walk_ios I/Os, $_ms ms" >&2
	[ "$_then" = - ] && return 0
	# ID*N: N walks of ID
	_tid=${_then%%\**} _tn=1
	[ "$_tid" = "$_then" ] || _tn=${_then#*\*}
	for _i in $(seq 1 "$_tn"); do
		run "$_tid" "$_set" "$_rep"
	done
}

# then_count WORKLOAD: how many walks its THEN adds
then_count() {
	_t=$(mline w "$1" | awk '{ print $7 }')
	case $_t in
	-) echo 0 ;;
	*\**) echo "${_t#*\*}" ;;
	*) echo 1 ;;
	esac
}

# rotate K WORD...: the words, starting with the (K mod count)th
rotate() {
	_k=$1
	shift
	_k=$((_k % $#)) _i=0 _a='' _b=''
	for _w in "$@"; do
		if [ "$_i" -lt "$_k" ]; then _b="$_b $_w"; else _a="$_a $_w"; fi
		_i=$((_i + 1))
	done
	echo $_a $_b
}

total=0
for w in $workloads; do
	for s in $settings; do
		wanted "$w" "$s" || continue
		total=$((total + 1 + $(then_count "$w")))
	done
done
total=$((total * reps))

# Files, then warm-up: touch most of the RAM once (QEMU allocates guest
# memory on first touch), read every file once (ext4 metadata).
sizes=$(awk '$1 == "w" { print $3 }' "$matrix" | sort -u)
for size in $sizes; do
	testfile "$size" >/dev/null || { echo "bench: cannot create a $size file" >&2; exit 1; }
	echo "@meta file $size $(stat -c %s "$(file "$size")")"
done
_mb=$(($(sed -n 's/^MemAvailable: *\([0-9]*\).*/\1/p' /proc/meminfo) * 3 / 4 / 1024))
dd if=/dev/zero of=/dev/null bs=${_mb}M count=1 2>/dev/null
[ "$patched" = 0 ] || every_policy_off
for size in $sizes; do
	RA_KB=8192 walk normal forward "$(file "$size")" >/dev/null
done
echo "# $total walks, $reps repetition(s)" >&2

for rep in $(seq 1 "$reps"); do
	for w in $workloads; do
		for s in $(rotate $(((rep - 1) * 3)) $settings); do
			wanted "$w" "$s" || continue
			if ! apply "$s"; then
				echo "# setting $s did not take" >&2
			fi
			run "$w" "$s" "$rep"
		done
	done
done
[ "$patched" = 0 ] || every_policy_off
echo "@meta policies $DEFAULTS"

# Anything the kernel complained about makes the run suspect.
if dmesg | grep -qE 'BUG|Oops|WARNING|general protection|Call Trace'; then
	echo "@meta kernel_warnings yes"
	dmesg | grep -E 'BUG|Oops|WARNING|general protection|Call Trace' | head -n 5 | sed 's/^/# dmesg: /' >&2
else
	echo "@meta kernel_warnings no"
fi
exit 0
