# TAP for the host test scripts; sourced. tap STATUS DESCRIPTION prints
# "ok N" or "not ok N" (STATUS 0 passes) and counts failures in $fails;
# comment prefixes its input with "# ".
# shellcheck shell=bash
n=0
fails=0
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}
comment() { sed 's/^/# /'; }
