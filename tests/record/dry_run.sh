#!/usr/bin/env bash
# --dry-run through the real command: the default events of fake Intel
# (icl, spr), AMD and Arm sysfs trees and of libpfm4's forced icl/spr/skx,
# with the encodings Intel documents (mem-loads event 0xcd umask 0x1, the
# latency in config1; stores MEM_INST_RETIRED.ALL_STORES 0xd0/0x82;
# mem-loads-aux 0x03/0x82 leading the loads where the PMU needs it). A bad
# -e term exits 2 naming the term and what format/ accepts. Opens nothing.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record/common.sh"

dry() { # NAME TREE PFM [ARGS...]
	local name=$1 tree=$2 pfm=$3
	shift 3
	C2CSCOPE_SYSFS_ROOT="$SYSFS/$tree" LIBPFM_FORCE_PMU=$pfm \
		run_c2c 0 "$TMP/$name" "$TMP/$name.err" record --dry-run "$@"
}

dry icl icl "" -l 30
expect_contains "icl loads" "cpu/mem-loads,ldlat=30/P: type=4 config=0x1cd config1=0x1e config2=0x0 sample_type=IP|TID|TIME|ADDR|CPU|PERIOD|WEIGHT|DATA_SRC|IDENTIFIER|PHYS_ADDR precise_ip=3" "$TMP/icl"
expect_contains "icl stores" "cpu/mem-stores/P: type=4 config=0x82d0 config1=0x0" "$TMP/icl"
expect_not_contains "icl has no group" "group:" "$TMP/icl"

dry spr spr "" -l 50
expect_contains "spr aux leader" "cpu/mem-loads-aux/: type=4 config=0x8203 " "$TMP/spr"
expect_contains "spr loads" "cpu/mem-loads,ldlat=50/: type=4 config=0x1cd config1=0x32 " "$TMP/spr"
expect_contains "spr group" "group: {cpu/mem-loads-aux/, cpu/mem-loads,ldlat=50/}" "$TMP/spr"

dry amd amd ""
expect_contains "amd ibs" "ibs_op//: type=11 config=0x0 " "$TMP/amd"
expect_contains "amd per cpu" "(per cpu only)" "$TMP/amd"
expect_contains "amd note" "records system-wide" "$TMP/amd"

dry arm arm "" -l 64
expect_contains "arm spe" "type=12 config=0x600000003 config1=0x0 config2=0x40 " "$TMP/arm"

for p in icl skx; do
	dry "pfm-$p" none "$p"
	expect_contains "libpfm4 $p loads" "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30: type=4 config=0x1cd config1=0x1e " "$TMP/pfm-$p"
	expect_contains "libpfm4 $p stores" "MEM_INST_RETIRED:ALL_STORES: type=4 config=0x82d0 " "$TMP/pfm-$p"
done
dry pfm-spr none spr
expect_contains "libpfm4 spr aux" "mem-loads-aux: type=4 config=0x8203 " "$TMP/pfm-spr"
expect_contains "libpfm4 spr group" "group: {mem-loads-aux, MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=30}" "$TMP/pfm-spr"

# -e, -c, -u through the options
dry opts icl "" -e page-faults -e 'cpu/event=0xd0,umask=0x81/pp' -c 1000 -u
expect_contains "-e generic" "page-faults: type=1 config=0x2 " "$TMP/opts"
expect_contains "-e pmu terms" "cpu/event=0xd0,umask=0x81/pp: type=4 config=0x81d0 " "$TMP/opts"
expect_contains "-c" "precise_ip=2 sample_period=1000 exclude_user=0 exclude_kernel=1" "$TMP/opts"

C2CSCOPE_SYSFS_ROOT="$SYSFS/icl" run_c2c 2 "$TMP/bad" "$TMP/bad.err" record --dry-run \
	-e 'cpu/mem-loads,latency=3/P'
expect_contains "bad term named" "term 'latency' is not in format/ or events/" "$TMP/bad.err"
expect_contains "accepted terms listed" "cpu accepts: any, cmask, edge, event, frontend, in_tx, in_tx_cp, inv, ldlat, pc, umask" "$TMP/bad.err"
run_c2c 2 "$TMP/both" "$TMP/both.err" record -F 100 -c 100 -a
expect_contains "-F and -c" "-F and -c both given" "$TMP/both.err"

C2CSCOPE_SYSFS_ROOT="$SYSFS/spr" run_c2c 0 "$TMP/list" "$TMP/list.err" record --list
expect_contains "--list alias" "cpu/mem-loads-aux/ = event=0x03,umask=0x82" "$TMP/list"
expect_contains "--list defaults" "Default memory events (ldlat 30):" "$TMP/list"
finish
