#!/bin/bash
# DKMS (TAP): `dkms build` of this tree succeeds against the patched test
# kernel and is refused for stock 7.3, which lacks CONFIG_READAHEAD_POLICY.
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
echo "1..$n"
