# Sourced by the userspace test scripts that run rapolicyctl on the fake
# tree; the caller sets bin (the directory of rapolicyctl) and fake (the
# fake_tree program) first. It gives: TAP's tap and friends; T, a
# temporary directory removed at exit; R, a fresh fake root, and M, its
# /sys/kernel/mm/rapolicy; q, a grep that reads all its input (grep -q may
# close a pipe early); json, a JSON check of stdin; rc ARGS, rapolicyctl
# ($rapctl, default $bin/rapolicyctl) on R, then what the module would
# show (nothing while a test has taken M away: no module); tree [ROOT],
# every file of the module's tree, for comparisons.
. "$(dirname "${BASH_SOURCE[0]}")/../../tests/tap.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
R=$T/root
M=$R/sys/kernel/mm/rapolicy
"$fake" create "$R" || exit 1
q() { grep "$@" >/dev/null; }
json() { python3 -c 'import json, sys; json.load(sys.stdin)' 2>/dev/null; }
rc() {
	"${rapctl:-$bin/rapolicyctl}" --root "$R" "$@"
	local ret=$?
	[ ! -d "$M" ] || "$fake" settle "$R"
	return $ret
}
tree() { find "${1:-$R}/sys/kernel/mm/rapolicy" -type f | sort | xargs cat; }
