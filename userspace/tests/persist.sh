#!/bin/bash
# The persistent state (TAP): save -o replaces its file atomically and a
# failed save leaves the old one; apply --check checks a file with no
# module; apply names each modprobe.d option that rapolicy.conf overrides.
#   persist.sh BINDIR FAKE_TREE
set -uo pipefail
bin=$1 fake=$2
. "$(dirname "$0")/prelude.sh"
bare() { "$bin/rapolicyctl" --root "$R" "$@"; }	# the module gone: nothing to settle
mkdir $T/etc

rc profile best >/dev/null && rc save -o $T/etc/rapolicy.conf >$T/out 2>$T/err &&
	[ ! -s $T/out ] && [ ! -s $T/err ] && rc save | cmp -s - $T/etc/rapolicy.conf &&
	[ "$(stat -c %a $T/etc/rapolicy.conf)" = 644 ]
tap $? "save -o FILE writes what save prints, mode 0644, nothing else"
[ "$(ls $T/etc)" = rapolicy.conf ]
tap $? "and leaves no temporary file"
cp $T/etc/rapolicy.conf $T/before
ln -s rapolicy.conf $T/etc/link
rc save -o=$T/etc/other >/dev/null && cmp -s $T/etc/other $T/before
tap $? "save -o=FILE"
mv "$M" $T/gone
bare save -o $T/etc/rapolicy.conf 2>$T/err
r=$?
[ $r = 1 ] && cmp -s $T/etc/rapolicy.conf $T/before && [ "$(ls $T/etc | wc -l)" = 3 ] &&
	grep -q "modprobe rapolicy" $T/err
tap $? "a failed save (no module) leaves the old file and no temporary one ($r: $(tr '\n' ' ' <$T/err))"
chmod 0555 $T/etc
if [ ! -w $T/etc ]; then
	mv $T/gone "$M"
	rc save -o $T/etc/rapolicy.conf 2>$T/err
	r=$?
	[ $r = 1 ] && cmp -s $T/etc/rapolicy.conf $T/before && grep -q "it is left as it was" $T/err
	tap $? "a save that cannot write leaves the old file ($r: $(cat $T/err))"
	mv "$M" $T/gone
else
	echo "ok $((n += 1)) - a save that cannot write # SKIP root writes anywhere"
fi
chmod 0755 $T/etc

# apply --check: the module gone, and its files untouched when it is there
bare apply --check $T/before >$T/out 2>$T/err && grep -qx "$T/before: valid" $T/out && [ ! -s $T/err ]
tap $? "apply --check without the module: valid, exit 0"
echo '{"a": {"pmd_hit": "on"}, "b": {"sync_mmap_order": "7"}, "ab": {"mode": "sample", "sample_permille": 10}}' >$T/ok.json
echo '{"a": {"pmd_hit": "sometimes"}}' >$T/bad.json
echo '{"a": {"streams_max_kb": "1"}}' >$T/bad2.json
printf '{"a": ' >$T/bad3.json
bare apply --check $T/ok.json >/dev/null && ok=0 || ok=1
for f in bad bad2 bad3; do
	bare apply --check $T/$f.json >$T/out 2>$T/err
	r=$?
	[ $r = 2 ] && [ ! -s $T/out ] && [ "$(wc -l <$T/err)" = 1 ] || { echo "# $f: $r $(cat $T/err)"; ok=1; }
done
tap $ok "apply --check: exit 2 and one line for a bad value, a bad bound, no JSON"
mv $T/gone "$M"
before=$(tree)
rc apply --check $T/ok.json >/dev/null && [ "$(tree)" = "$before" ]
tap $? "apply --check with the module: nothing written"
rc apply $T/ok.json >/dev/null && grep -q " \[on\]" $M/pmd_hit
tap $? "and apply of the same file writes it"

# One persistent truth: modprobe.d options that rapolicy.conf overrides
mkdir -p $R/etc/modprobe.d $R/lib/modprobe.d
echo "options rapolicy pmd_hit=off vma_limit=none" >$R/etc/modprobe.d/rapolicy.conf
printf '# x\noptions other pmd_hit=on\noptions rapolicy descending_seq=window\n' >$R/lib/modprobe.d/50-ra.conf
echo "options rapolicy pmd_hit=on" >$R/etc/modprobe.d/ignored.txt
rc apply $T/ok.json >/dev/null 2>$T/err
r=$?
[ $r = 0 ] && [ "$(wc -l <$T/err)" = 2 ] &&
	grep -qx "rapolicyctl: warning: /etc/modprobe.d/rapolicy.conf sets pmd_hit=off, $T/ok.json sets on: $T/ok.json wins (rapolicy.service applies it after modprobe)" $T/err &&
	grep -q "^rapolicyctl: warning: /lib/modprobe.d/50-ra.conf sets descending_seq=window, $T/ok.json sets off: " $T/err
tap $? "apply names each modprobe.d option it overrides, and only those ($r: $(tr '\n' ' ' <$T/err))"
rc apply --check $T/ok.json 2>$T/err >/dev/null && grep -q "sets pmd_hit=off" $T/err
tap $? "so does apply --check"
# The BPF policy, persisted by the path of its object: apply loads it with
# rapolicy-bpf (here one that writes what the module would show)
mkdir $T/bin
printf '%s\n' '#!/bin/sh' "echo \"\$*\" >>$T/bpf.log" \
	"[ \"\$1\" = load ] && [ -r \"\$2\" ] && [ ! -e $T/bpf.fail ] || exit 1" \
	"echo 'seq 42' >$M/bpf_ops" >$T/bin/rapolicy-bpf
chmod +x $T/bin/rapolicy-bpf
echo none >$M/bpf_ops
: >$T/seq.bpf.o
rm -r "$R/etc/modprobe.d" "$R/lib/modprobe.d"
echo "{\"a\": {\"bpf\": \"on\"}, \"bpf\": \"$T/seq.bpf.o\"}" >$T/etc/bpf.conf
PATH=$T/bin:$PATH rc apply $T/etc/bpf.conf >$T/out 2>$T/err &&
	grep -qx "seq 42" $M/bpf_ops && grep -q " \[on\]" $M/bpf && grep -qx "bpf_ops: none -> $T/seq.bpf.o" $T/out
tap $? "apply of a file with \"bpf\": PATH loads it ($(cat $T/err))"
PATH=$T/bin:$PATH rc apply $T/etc/bpf.conf >/dev/null && [ "$(wc -l <$T/bpf.log)" = 1 ]
tap $? "and leaves a loaded one alone"
rc save -o $T/etc/bpf.conf && grep -q "\"bpf\": \"$T/seq.bpf.o\"" $T/etc/bpf.conf &&
	grep -q '"bpf": "on"' $T/etc/bpf.conf
tap $? "save -o keeps the path while a program is loaded"
echo none >$M/bpf_ops
touch $T/bpf.fail
rc set bpf=off >/dev/null
before=$(tree)
PATH=$T/bin:$PATH rc apply $T/etc/bpf.conf >/dev/null 2>$T/err
[ $? = 1 ] && [ "$(tree)" = "$before" ] && grep -q "rapolicy-bpf load $T/seq.bpf.o failed: nothing was changed" $T/err
tap $? "a program that does not load: exit 1, nothing written ($(cat $T/err))"
rc save -o $T/etc/bpf.conf 2>$T/err && ! grep -q "seq.bpf.o" $T/etc/bpf.conf &&
	grep -q "warning: no BPF policy loaded" $T/err
tap $? "save -o without a loaded program drops the path and says so"
echo '{"bpf": "seq.bpf.o"}' >$T/rel.json
echo "{\"bpf\": \"$T/none.bpf.o\"}" >$T/none.json
bare apply --check $T/rel.json 2>/dev/null; r1=$?
bare apply --check $T/none.json 2>/dev/null; r2=$?
[ $r1 = 2 ] && [ $r2 = 2 ]
tap $? "apply --check: a relative or missing BPF object is bad input"

echo "1..$n"
exit $((fails > 0))
