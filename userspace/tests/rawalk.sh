#!/bin/bash
# rawalk's figures end to end on the host (TAP): --create proves no holes,
# --repeat, --jobs, read_bytes, and no cached figure from an untrusted
# mincore().
#   rawalk.sh BINDIR
set -uo pipefail
bin=$1
T=$(mktemp -d "${TMPDIR:-/var/tmp}/rawalk.XXXXXX")
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/../../tests/tap.sh"
key() { sed -n "s/^$1: //p"; }
f=$T/f
"$bin/rawalk" --create 4M "$f" | grep -qx "created $f: 4194304 bytes, no holes"
tap $? "--create says it created the file and that it has no holes"
# Names and arguments as given come out escaped: no forged lines
"$bin/rawalk" --pattern "$(printf 'bogus\n\033[31mok 99 - forged')" "$f" 2>$T/err >/dev/null
[ $? = 2 ] && ! grep -q "^ok 99" $T/err && ! grep -q "$(printf '\033')" $T/err &&
	grep -q 'bogus\\x0a\\x1b\[31mok 99' $T/err
tap $? "a bad argument is echoed escaped ($(head -c 80 $T/err))"
"$bin/rawalk" "$(printf '%s/none\nok 98 - forged' "$T")" 2>$T/err >/dev/null
[ $? = 1 ] && ! grep -q "^ok 98" $T/err && grep -q 'none\\x0aok 98' $T/err
tap $? "a missing file's name is escaped in the error"
"$bin/rawalk" --create 4M "$f" | grep -qx "kept $f: 4194304 bytes, no holes"
tap $? "a second --create keeps it and says so"
truncate -s 0 "$T/h" && truncate -s 4M "$T/h"
"$bin/rawalk" --create 4M "$T/h" >/dev/null 2>$T/err
[ $? = 1 ] && grep -q "has holes" $T/err
tap $? "--create refuses to keep a file of the right size full of holes"
"$bin/rawalk" --create 4M --force "$T/h" | grep -q "^created"
tap $? "--force writes it again"
pages=$(( $(stat -c %s "$f") / $(getconf PAGESIZE) ))
out=$("$bin/rawalk" --pattern forward --jobs 3 "$f")
[ "$(echo "$out" | key pages_touched)" = $((3 * pages)) ]
tap $? "--jobs 3: three walkers touch every page each"
out=$("$bin/rawalk" --pattern forward --repeat 3 "$f")
ok=0
for k in repeat wall_ms_min wall_ms_median cpu_ms_min cpu_ms_median major_faults_min major_faults_median read_bytes_min read_bytes_median; do
	echo "$out" | grep -q "^$k: [0-9]" || { echo "# no $k"; ok=1; }
done
tap $ok "--repeat 3 reports min and median"
[ "$(echo "$out" | key repeat)" = 3 ]
tap $? "--repeat 3: three walks"
rb=$(echo "$out" | key read_bytes)
[ -n "$rb" ] && [ "$rb" -ge 0 ]
tap $? "read_bytes from /proc/self/io ($rb)"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 644 "$f"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$bin/rawalk" --warm --pattern forward "$f" 2>&1)
	echo "$out" | grep -qx "pages_cached_before: unknown"
	tap $? "a caller who neither owns nor may write the file gets no cached figure"
	echo "$out" | grep -q '^major_faults'
	tap $? "and the walk still runs"
else
	echo "ok $((n + 1)) - untrusted mincore # SKIP needs root and setpriv"
	n=$((n + 1))
fi
echo "1..$n"
exit $((fails > 0))
