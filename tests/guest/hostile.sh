#!/bin/sh
# Hostile input to the module's sysfs files (TAP): every bad write fails
# and leaves the value as it was; good writes at the edges work; writers
# racing each other leave a valid value; non-root cannot write.
. "$(dirname "$0")/lib.sh"

AB=$RAPOLICY_SYSFS/ab
modprobe rapolicy || { tap 1 "load rapolicy"; exit 1; }
all_policies_off

long=$(head -c 5000 /dev/zero | tr '\0' x)
# bad_writes FILE VALUE...: each write must fail, the file unchanged (an
# empty write never reaches the kernel: it must just change nothing)
bad_writes() {
	file=$1
	shift
	# (an empty file, as ab/cgroup with none assigned, is a value too)
	before=$(cat "$file") || { measure_failed "cannot read $file"; return 1; }
	for v in "$@"; do
		if printf '%s' "$v" >"$file" 2>/dev/null && [ -n "$v" ]; then
			echo "# $file accepted '$(printf '%s' "$v" | head -c 40)'"
			return 1
		fi
		[ "$(cat "$file")" = "$before" ] || return 1
	done
}

# every policy file the module has (those that show "[value]"), both arms
policies=$(cd "$RAPOLICY_SYSFS" && grep -l '\[' -- * 2>/dev/null)
table=$(rapolicyctl set --help | sed -n '/^Policies/,/^$/s/^  \([a-z_]*\).*/\1/p' | sort)
[ -n "$table" ] && [ "$(echo "$policies" | sort)" = "$table" ]
tap $? "the module's policy files are the table's ($(echo $policies))"
for p in $policies; do
	for label in "$p" "ab/$p"; do
		bad_writes "$RAPOLICY_SYSFS/$label" "" " " "
" "offf" "of" "OFF " "-1" "off on" "$long" "$(printf 'off\001')" \
			"$(printf '\303\251t\303\251')" "$(printf 'off\0folio')"
		tap $? "hostile writes to $label fail and change nothing"
	done
done
bad_writes "$RAPOLICY_SYSFS/sync_mmap_order" 10 99 4294967296 18446744073709551616 0x4 " 4x" "+-4"
tap $? "sync_mmap_order: orders out of range or malformed fail"
# the lowest and highest orders this kernel lists (6.12 lists none below 2)
orders=$(tr ' ' '\n' <"$RAPOLICY_SYSFS/sync_mmap_order" | tr -d '[]' | grep -x '[0-9]*')
lo=$(echo "$orders" | head -n 1) hi=$(echo "$orders" | tail -n 1)
[ -n "$lo" ] && [ "$hi" = 9 ] &&
	echo "$hi" >"$RAPOLICY_SYSFS/sync_mmap_order" && grep -q "\[$hi\]" "$RAPOLICY_SYSFS/sync_mmap_order" &&
	echo "$lo" >"$RAPOLICY_SYSFS/sync_mmap_order" && grep -q "\[$lo\]" "$RAPOLICY_SYSFS/sync_mmap_order" &&
	echo off >"$RAPOLICY_SYSFS/sync_mmap_order"
tap $? "sync_mmap_order: the orders it lists, $lo to $hi (MAX_PAGECACHE_ORDER), work"
printf 'folio' >"$RAPOLICY_SYSFS/descending_thp" && echo off >"$RAPOLICY_SYSFS/descending_thp"
tap $? "a value without newline works"

bad_writes "$AB/sample_permille" 1001 -1 "" abc 4294967296 "$long"
tap $? "ab/sample_permille: out of range fails"
echo 1000 >"$AB/sample_permille" && echo 0 >"$AB/sample_permille"
tap $? "ab/sample_permille: 0 and 1000 work"
bad_writes "$AB/salt" -1 18446744073709551616 "" zz "$long"
tap $? "ab/salt: malformed fails"
echo 0xffffffffffffffff >"$AB/salt" && [ "$(cat "$AB/salt")" = 18446744073709551615 ] && echo 0 >"$AB/salt"
tap $? "ab/salt: 2^64-1 works"
bad_writes "$AB/mode" "" on cgroups "$long"
tap $? "ab/mode: unknown modes fail"
bad_writes "$AB/cgroup" /no/such/cgroup "$long" "../.."
tap $? "ab/cgroup: a path that is no cgroup fails"
# the stream tracker's bound, both arms: KiB of 64 to 65536 sets
for label in streams_max_kb ab/streams_max_kb; do
	bad_writes "$RAPOLICY_SYSFS/$label" "" " " 71 73729 -1 abc 0x1000 4096x \
		4294967296 "$long"
	tap $? "$label: out of range or malformed fails and changes nothing"
	echo 72 >"$RAPOLICY_SYSFS/$label" && echo 73728 >"$RAPOLICY_SYSFS/$label" &&
		echo 4096 >"$RAPOLICY_SYSFS/$label" &&
		[ "$(cat "$RAPOLICY_SYSFS/$label")" = 4096 ]
	tap $? "$label: 72, 73728 and 4096 work"
done
! echo 1 2>/dev/null >"$RAPOLICY_SYSFS/streams_bytes"
tap $? "streams_bytes is read-only"
# stats/reset is write-only: a bad write fails and resets nothing
walk normal forward "$(testfile 8M)"
miss=$(counter sync_miss)
ok=0
for v in 0 no 2 "$long"; do
	! printf '%s' "$v" >"$RAPOLICY_SYSFS/stats/reset" 2>/dev/null || ok=1
done
[ "$ok" = 0 ] && [ "$miss" -gt 0 ] && [ "$(counter sync_miss)" = "$miss" ]
tap $? "stats/reset: anything but a true value fails and resets nothing (sync_miss $miss)"
ok=0
for v in 0 no 2 "$long"; do
	! printf '%s' "$v" 2>/dev/null >"$RAPOLICY_SYSFS/stats/streams_flush" ||
		{ echo "# stats/streams_flush accepted '$(printf '%s' "$v" | head -c 40)'"; ok=1; }
done
tap $ok "stats/streams_flush: anything but a true value fails"
echo 1 >"$RAPOLICY_SYSFS/stats/streams_flush"
tap $? "stats/streams_flush: 1 works"

# Racing writers: whatever wins, the file holds one valid value.
i=0
while [ $i -lt 4 ]; do
	(n=0; while [ $n -lt 200 ]; do
		for v in off folio stream; do echo $v >"$RAPOLICY_SYSFS/descending_thp"; done
		n=$((n + 1)); done) &
	i=$((i + 1))
done
wait
grep -qxE "(\[off\] folio stream|off \[folio\] stream|off folio \[stream\])" "$RAPOLICY_SYSFS/descending_thp"
tap $? "4 racing writers leave one valid value ($(cat "$RAPOLICY_SYSFS/descending_thp"))"
echo off >"$RAPOLICY_SYSFS/descending_thp"

# Non-root: the files are 0644 root, and the write is refused.
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
su -s /bin/sh nobody -c "echo folio > $RAPOLICY_SYSFS/descending_thp" 2>/dev/null
rc=$?
[ $rc != 0 ] && grep -q "^\[off\]" "$RAPOLICY_SYSFS/descending_thp"
tap $? "a non-root write is refused ($rc) and changes nothing"
[ "$(stat -c %a "$RAPOLICY_SYSFS/descending_thp")" = 644 ] &&
	[ "$(stat -c %a "$RAPOLICY_SYSFS/stats/reset")" = 200 ] &&
	[ "$(stat -c %a "$RAPOLICY_SYSFS/stats/streams_flush")" = 200 ] &&
	[ "$(stat -c %a "$RAPOLICY_SYSFS/streams_max_kb")" = 644 ] &&
	[ "$(stat -c %a "$RAPOLICY_SYSFS/ab/streams_bytes")" = 444 ]
tap $? "modes: policies and streams_max_kb 0644, stats/reset and stats/streams_flush 0200, streams_bytes 0444"
tap_end
