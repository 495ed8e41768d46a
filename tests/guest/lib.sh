# Helpers for the guest-side tests (busybox sh); sourced.
# Results are TAP lines at column 0, counted by tests/run-all.sh.

SCRATCH=${RAPOLICY_SCRATCH:-/mnt/scratch}
RAPOLICY_SYSFS=/sys/kernel/mm/rapolicy
tap_n=0

tap() {
	# tap STATUS DESCRIPTION: STATUS 0 is a pass
	tap_n=$((tap_n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
	fi
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

# walk ADVICE PATTERN FILE [RAWALK OPTIONS...]: a cold walk with
# read_ahead_kb $RA_KB (default 8192); sets walk_out (rawalk's report),
# walk_major, walk_sectors, walk_ios and walk_pmd_kb
walk() {
	_advice=$1 _pattern=$2 _file=$3
	shift 3
	if ! walk_out=$(rawalk --advice "$_advice" --pattern "$_pattern" \
		--read-ahead-kb "${RA_KB:-8192}" --cold "$@" "$_file" 2>&1); then
		echo "$walk_out" | sed 's/^/# rawalk: /'
		walk_major=-1 walk_sectors=-1 walk_ios=-1 walk_pmd_kb=-1
		return 1
	fi
	walk_major=$(report major_faults)
	walk_sectors=$(report sectors_read)
	walk_ios=$(report ios_read)
	walk_pmd_kb=$(report file_pmd_mapped_kb)
}

# report KEY: a value of the last walk's report
report() {
	echo "$walk_out" | sed -n "s/^$1: *//p"
}

# set_policy NAME VALUE: write a policy file of the module
set_policy() {
	echo "$2" >"$RAPOLICY_SYSFS/$1"
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
