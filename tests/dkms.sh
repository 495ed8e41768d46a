#!/bin/bash
# DKMS (TAP): `dkms build` of this tree succeeds against the patched test
# kernel and is refused for stock 7.3, which lacks CONFIG_READAHEAD_POLICY;
# `dkms autoinstall`, what a new kernel's packages run, builds the module for
# the patched kernel and skips the other with one line, successfully.
# Uses a private DKMS tree, so the system's DKMS state is not touched.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/kernel/common.sh"
n=0
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

need_pkgs dkms:dkms
version=$(cat "$top/VERSION")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/src/rapolicy-$version
mkdir -p "$src" "$work/tree"
cp -r "$top/Kbuild" "$top/Makefile" "$top/VERSION" "$top/dkms.conf" "$top/module" "$src/"

dkms_build() {
	local tree=$1 release
	release=$(cat "$tree/include/config/kernel.release")
	dkms build "rapolicy/$version" -k "$release" --kernelsourcedir "$tree" \
		--sourcetree "$work/src" --dkmstree "$work/tree" 2>&1
}

dkms add "rapolicy/$version" --sourcetree "$work/src" --dkmstree "$work/tree" >/dev/null 2>&1 ||
	dkms add "$src" --dkmstree "$work/tree" >/dev/null 2>&1
tap $? "dkms add"

tree=$(bash "$top/tests/kernel/build-kernel.sh")
out=$(dkms_build "$tree")
rc=$?
echo "$out" | tail -n 5 | sed 's/^/# /'
[ "$rc" = 0 ] && [ -n "$(find "$work/tree" -name rapolicy.ko | head -n 1)" ]
tap $? "dkms build against the patched kernel ($(cat "$tree/include/config/kernel.release"))"

stock=$(bash "$top/tests/kernel/build-kernel.sh" --print-dir --stock)
if [ ! -f "$stock/.rapolicy-built" ]; then
	# Any configured tree without the option shows the refusal; make one
	# cheaply from the patched tree's config.
	stock=$work/unpatched
	mkdir -p "$stock"
	sed '/CONFIG_READAHEAD_POLICY/d' "$tree/.config" >"$stock/.config"
	cp "$tree/Makefile" "$stock/" 2>/dev/null
	release=unpatched
else
	release=$(cat "$stock/include/config/kernel.release")
fi
out=$(dkms build "rapolicy/$version" -k "$release" --kernelsourcedir "$stock" \
	--sourcetree "$work/src" --dkmstree "$work/tree" 2>&1)
rc=$?
echo "$out" | tail -n 3 | sed 's/^/# /'
[ "$rc" != 0 ] && echo "$out" | grep -qi 'BUILD_EXCLUSIVE'
tap $? "dkms refuses a kernel without CONFIG_READAHEAD_POLICY ($release)"

# What /etc/kernel/postinst.d/dkms runs for a new kernel: dkms autoinstall.
out=$(dkms autoinstall -k "$release" --kernelsourcedir "$stock" \
	--sourcetree "$work/src" --dkmstree "$work/tree" 2>&1)
rc=$?
echo "$out" | tail -n 3 | sed 's/^/# /'
# (dkms 3.0.10 reads dkms.conf once per kernel the module is built for:
# the line repeats, the same line)
[ "$rc" = 0 ] && echo "$out" | grep -q "^rapolicy: not built for $release, whose kernel lacks CONFIG_READAHEAD_POLICY" &&
	[ "$(echo "$out" | grep '^rapolicy: ' | sort -u | wc -l)" = 1 ] &&
	[ -z "$(find "$work/tree/rapolicy/$version/$release" -name 'rapolicy.ko*' 2>/dev/null)" ]
tap $? "dkms autoinstall for a kernel without CONFIG_READAHEAD_POLICY skips it, saying why in one line, and succeeds"

# A second patched kernel (the 6.12 test kernel when it is built, else the
# 7.3 tree once more) gets the module from dkms autoinstall.
second=$(KERNEL_SERIES=6.12 bash "$top/tests/kernel/build-kernel.sh" --print-dir)
[ -f "$second/.rapolicy-built" ] || second=$tree
# A release name no installed kernel has: the install step after the build
# then fails for want of /lib/modules/RELEASE and the system stays as it
# was (tests/deb.sh installs a kernel package and checks the install too).
release=0.0.0-rapolicy-autoinstall
out=$(dkms autoinstall -k "$release" --kernelsourcedir "$second" \
	--sourcetree "$work/src" --dkmstree "$work/tree" 2>&1)
echo "$out" | grep -i 'rapolicy\|error' | tail -n 3 | sed 's/^/# /'
[ -n "$(find "$work/tree/rapolicy/$version/$release" -name 'rapolicy.ko*' 2>/dev/null | head -n 1)" ] &&
	! echo "$out" | grep -q '^rapolicy: not built'
tap $? "dkms autoinstall for a kernel with CONFIG_READAHEAD_POLICY ($(cat "$second/include/config/kernel.release")) builds rapolicy.ko"
echo "1..$n"
