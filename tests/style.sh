#!/bin/bash
# Style checks (TAP): checkpatch --strict on the three series (with the
# 7.3 kernel tree) and on the module (--no-tree -f), and one version everywhere.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
n=0

tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

src=$(bash "$top/tests/kernel/fetch-source.sh") || { tap 1 "kernel source for checkpatch"; exit 1; }
checkpatch=(perl "$src/scripts/checkpatch.pl" --strict --quiet --no-summary)

# The 7.3 series, the 6.12 port and 7.2's own forms of patches
for p in $(grep -v '^#' "$top/patches/series") \
	 $(grep -v '^#' "$top/patches/6.12/series" | sed 's|^|6.12/|') \
	 $(cd "$top/patches" && ls 7.2/*.patch); do
	out=$(cd "$src" && "${checkpatch[@]}" "$top/patches/$p" 2>&1)
	[ -z "$out" ] || echo "$out" | sed 's/^/# /'
	tap "$([ -z "$out" ] && echo 0 || echo 1)" "checkpatch --strict patches/$p"
done

for f in $(cd "$top" && git ls-files 'module/*.c' 'module/*.h' 2>/dev/null ||
	   find module -name '*.[ch]'); do
	# The includers of module/table.h define its X-macros, as
	# include/linux/sched/topology.h does for sd_flags.h; checkpatch's
	# function-like-macro heuristics do not apply to those.
	ignore=()
	! grep -q '#include "table.h"' "$top/$f" ||
		ignore=(--ignore MACRO_ARG_UNUSED,TRAILING_SEMICOLON,MULTISTATEMENT_MACRO_USE_DO_WHILE,COMPLEX_MACRO,MACRO_ARG_REUSE,MACRO_ARG_PRECEDENCE)
	out=$("${checkpatch[@]}" "${ignore[@]}" --no-tree -f "$top/$f" 2>&1)
	[ -z "$out" ] || echo "$out" | sed 's/^/# /'
	tap "$([ -z "$out" ] && echo 0 || echo 1)" "checkpatch --strict --no-tree -f $f"
done

version=$(cat "$top/VERSION")
grep -qx "PACKAGE_VERSION=\"$version\"" "$top/dkms.conf"
tap $? "dkms.conf PACKAGE_VERSION is VERSION ($version)"
grep -q "^VERSION ?= $version\$" "$top/userspace/Makefile" ||
	grep -q 'VERSION ?= $(shell cat ../VERSION)' "$top/userspace/Makefile"
tap $? "userspace takes its version from VERSION"
echo "1..$n"
