#!/bin/bash
# Every documented word works (TAP): each command and subcommand that
# rapolicyctl(8) or the bash completion names answers --help (and 'help
# COMMAND' the same), and each option they name has a case below that
# runs it on the fake tree and checks what it did, not only its exit
# status. A command or option documented without one fails here.
#   words.sh BINDIR FAKE_TREE
set -uo pipefail
bin=$(cd "$1" && pwd) fake=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
man=$top/userspace/rapolicyctl/rapolicyctl.8
completion=$top/userspace/rapolicyctl/rapolicyctl.bash-completion
. "$here/prelude.sh"
ctl() { "$bin/rapolicyctl" "$@"; }
mkdir $T/empty	# apply completes file names: none here
comp() {
	cd $T/empty && PATH=$bin:$PATH bash -c '. "$0"; COMP_WORDS=("${@}"); COMP_CWORD=$(($# - 1));
		_rapolicyctl; printf "%s\n" "${COMPREPLY[@]}"' "$completion" "$@"
}

# The commands: the tags of rapolicyctl(8)'s COMMANDS, what the completion
# offers after rapolicyctl, and what it offers after each of those
sed -n '/^\.SH COMMANDS/,/^\.SH /p' "$man" | awk '/^\.TP/ { getline; if ($1 == ".B") {
	$1 = ""; sub(/^ /, ""); print } }' >$T/man.cmds
comp rapolicyctl "" | grep -v '^-' >$T/comp.cmds
sort -u $T/man.cmds $T/comp.cmds >$T/cmds
[ -s $T/man.cmds ] && [ -s $T/comp.cmds ] &&
	diff <(ctl --help | sed -n '/^Commands/,/^$/s/^  \([a-z]*\) .*/\1/p' | sort) \
		<(cut -d' ' -f1 $T/cmds | sort -u) >$T/d
tap $? "rapolicyctl(8), the completion and --help name the same commands ($(tr '\n' ' ' <$T/d))"
while read -r cmd; do
	for w in $(comp rapolicyctl $cmd "" | grep -v '^-' | grep -v '=$'); do
		echo "$cmd $w"
	done
done <$T/cmds >$T/words
sort -u $T/cmds $T/words -o $T/all
ok=0
while read -r -a words; do
	ctl "${words[@]}" --help >$T/out 2>$T/err
	r=$?
	ctl help "${words[@]}" >$T/out2 2>&1
	[ $r = 0 ] && [ ! -s $T/err ] && grep -q "^Usage: rapolicyctl ${words[0]}" $T/out &&
		cmp -s $T/out $T/out2 ||
		{ echo "# '${words[*]} --help': exit $r: $(head -c 200 $T/err)"; ok=1; }
done <$T/all
tap $ok "--help and 'help' for each of $(wc -l <$T/all) commands and words"
ctl help nosuch 2>$T/err; [ $? = 2 ] && grep -q "unknown command 'nosuch'" $T/err
tap $? "help of an unknown command: exit 2"

# The options: those the completion offers after each command and word,
# and every one in rapolicyctl(8)'s SYNOPSIS
{
	comp rapolicyctl "" | grep '^-' | sed 's/^/- /'
	while read -r -a words; do
		comp rapolicyctl "${words[@]}" "" | grep '^-' | sed "s/^/${words[0]} /"
	done <$T/all
} | sort -u >$T/opts
sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$man" | grep -o '\\-\\-[a-z]*\|\\-[a-zA-Z]\>' |
	tr -d '\\' | sort -u >$T/man.opts
[ -s $T/opts ] && [ -s $T/man.opts ]
tap $? "options: $(wc -l <$T/opts) from the completion, $(wc -l <$T/man.opts) in the SYNOPSIS"

# case CMD OPT: run it and check what it did (0: it worked)
rc ab assign sample 500 >/dev/null &&
	rc ab start --periods 2 --period 0.05 --washout 0.01 --run >$T/run || echo "# ab start --run failed"
case_of() {
	case "$1 $2" in
	"- --root") ctl --root "$R" get -n pmd_hit | q -x off ;;
	"- --help") ctl --help | q "^Commands:" ;;
	"- --version") ctl --version | q -x "rapolicyctl $(cat "$top/VERSION")" ;;
	"- -V") [ "$(ctl -V)" = "$(ctl --version)" ] ;;
	"status --json") rc status --json | json && rc status --json | q '"stats"' ;;
	"get --arm") rc ab set pmd_hit=on >/dev/null && rc get --arm b pmd_hit | q -x pmd_hit=on &&
		rc get --arm=a pmd_hit | q -x pmd_hit=off ;;
	"get -n") [ "$(rc get -n pmd_hit vma_limit | tr '\n' ' ')" = "off none " ] ;;
	"get --json") rc get --json | json && rc get --json | q '"vma_limit": "none"' ;;
	"profile --arm") rc profile --arm b seed >/dev/null && rc profile --arm b verify seed >/dev/null &&
		rc profile verify stock >/dev/null ;;
	"save -o")
		rc save -o $T/saved.json && json <$T/saved.json && rc save | cmp -s - $T/saved.json ;;
	"apply --check")
		rc save >$T/check.json && rc apply --check $T/check.json >$T/out &&
			grep -qx "$T/check.json: valid" $T/out ;;
	"stats --json") rc stats --json | json && rc stats --json | q '"elapsed_ms"' ;;
	"stats --prometheus") rc stats --prometheus >$T/out && grep -qx "rapolicy_up 1" $T/out ;;
	"stats --samples") rc stats --prometheus --samples $T/none >$T/out && grep -qx "rapolicy_up 1" $T/out ;;
	"stats --interval") [ "$(rc stats --interval 0.01 --count 2 | wc -l)" = 5 ] ;;
	"stats --count") [ "$(rc stats --interval 0.01 --count 3 --json | wc -l)" = 3 ] ;;
	"stats --counters")
		rc stats --interval 0.01 --count 1 --counters pages_read,sync_exec >$T/out &&
			head -n 1 $T/out | q -E '^time +arm +pages_read +sync_exec$' &&
			rc stats --interval 0.01 --count 1 --json --counters=async | json ;;
	"ab --salt")
		rc ab assign sample 300 --salt 0x20 >/dev/null && grep -qx 32 $M/ab/salt ;;
	"ab --periods" | "ab --period" | "ab --washout" | "ab --run")
		head -n 1 $T/run | q '"periods":2,"period_ms":50,"washout_ms":10,' &&
			[ "$(wc -l <$T/run)" -gt 4 ] ;;
	"ab --samples")
		rc ab report --samples $T/run >$T/out && grep -q "^verdict:" $T/out ;;
	"ab --json")
		rc ab report --samples $T/run --json | json ;;
	"trace --input") rc trace --input "$here/trace.sample" | q -E '^254:0:c +2 +1 +0 +768 +512 +64 +60  descending_thp A$' ;;
	"trace --by") rc trace --input "$here/trace.sample" --by process | q -E '^my prog-88 +0 +1 ' ;;
	"trace --top") [ "$(rc trace --input "$here/trace.sample" --top 1 | wc -l)" = 3 ] ;;
	"trace --interval") [ "$(rc trace --input "$here/trace.sample" --interval 1 | grep -c events)" = 3 ] ;;
	"trace --count") [ "$(rc trace --input "$here/trace.sample" --interval 1 --count 2 | grep -c events)" = 2 ] ;;
	"trace --json") rc trace --input - --json <"$here/trace.sample" | json ;;
	*) echo "# no case for '$1 $2'"; return 2 ;;
	esac
}
ok=0
while read -r cmd opt; do
	case_of "$cmd" "$opt" >$T/case 2>&1 || { echo "# $cmd $opt failed: $(head -c 300 $T/case)"; ok=1; }
done <$T/opts
tap $ok "each option the completion offers works ($(cut -d' ' -f2 $T/opts | tr '\n' ' '))"
ok=0
for opt in $(cat $T/man.opts); do
	grep -q " $opt\$" $T/opts || { echo "# $opt of the SYNOPSIS: not offered by the completion"; ok=1; }
done
tap $ok "each option of the SYNOPSIS is one the completion offers"
echo "1..$n"
exit $((fails > 0))
