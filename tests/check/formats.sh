#!/usr/bin/env bash
# check --format json|junit|sarif parse back; GITHUB_ACTIONS=true annotates.
source "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed to parse the reports back"

cat >"$TMP/demo.c" <<'C'
struct fmt_demo {
	long load_avg __attribute__((aligned(64)));
	void *rt_se;
	long cold __attribute__((aligned(64)));
};
struct fmt_demo demo;
C
compile "$TMP/demo.o" "$TMP/demo.c" -g -c || finish
printf 'struct fmt_demo {\n\tapart load_avg: rt_se\n\tsize <= 128\n\tisolated cold\n}\n' >"$TMP/r.rules"

run_c2c 1 "$TMP/junit.xml" "$TMP/err" check --format junit --rules "$TMP/r.rules" "$TMP/demo.o"
expect_eq "junit" "3 1 0 | fail:struct.fmt_demo:$TMP/r.rules:2: struct fmt_demo: apart load_avg: rt_se:rt_se (offset 8, line 0) shares a cache line with load_avg (offset 0, line 0) | pass:struct.fmt_demo | pass:struct.fmt_demo" \
	"$(python3 - "$TMP/junit.xml" <<'P'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suite = root.find('testsuite')
cases = []
for c in suite.findall('testcase'):
    f = c.find('failure')
    if f is not None:
        cases.append('fail:%s:%s:%s' % (c.get('classname'), c.get('name'), f.get('message')))
    else:
        cases.append('pass:%s' % c.get('classname'))
print(suite.get('tests'), suite.get('failures'), suite.get('errors'), '|', ' | '.join(cases))
P
)"

run_c2c 1 "$TMP/sarif.json" "$TMP/err" check --format sarif --rules "$TMP/r.rules" "$TMP/demo.o"
expect_eq "sarif" "2.1.0 1 apart error demo.c 1 r.rules 2" "$(python3 - "$TMP/sarif.json" <<'P'
import sys, json, os
d = json.load(open(sys.argv[1]))
run = d['runs'][0]
assert run['tool']['driver']['name'] == 'c2cscope'
ids = {r['id'] for r in run['tool']['driver']['rules']}
res = run['results']
r = res[0]
assert r['ruleId'] in ids
loc = r['locations'][0]['physicalLocation']
rel = r['relatedLocations'][0]['physicalLocation']
print(d['version'], len(res), r['ruleId'], r['level'], os.path.basename(loc['artifactLocation']['uri']),
      loc['region']['startLine'], os.path.basename(rel['artifactLocation']['uri']), rel['region']['startLine'])
P
)"

run_c2c 1 "$TMP/r.json" "$TMP/err" check --format json --rules "$TMP/r.rules" "$TMP/demo.o"
expect_eq "json" "3 2 1 0 fail apart load_avg:0:0,rt_se:8:0 pass" "$(python3 - "$TMP/r.json" <<'P'
import sys, json
d = json.load(open(sys.argv[1]))
r = d['results'][0]
print(d['rules'], d['passed'], d['failed'], d['errors'], r['status'], r['kind'],
      ','.join('%s:%d:%d' % (m['name'], m['offset'], m['first_line']) for m in r['members']),
      d['results'][1]['status'])
P
)"

GITHUB_ACTIONS=true run_c2c 1 "$TMP/out" "$TMP/err" check --rules "$TMP/r.rules" "$TMP/demo.o"
expect_contains "annotation" "::error file=$TMP/demo.c,line=1,title=c2cscope check::$TMP/r.rules:2: struct fmt_demo: apart load_avg: rt_se: rt_se (offset 8, line 0) shares a cache line with load_avg (offset 0, line 0)" "$TMP/out"
# machine-readable stdout stays clean: annotations go to stderr then
GITHUB_ACTIONS=true run_c2c 1 "$TMP/out" "$TMP/err" check --format sarif --rules "$TMP/r.rules" "$TMP/demo.o"
expect_contains "annotation on stderr" "::error file=" "$TMP/err"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/out" && ok || fail "sarif with annotations is not JSON"
run_c2c 2 "$TMP/out" "$TMP/err" check --format yaml --rules "$TMP/r.rules" "$TMP/demo.o"
expect_contains "bad format" "--format expects text, json, junit or sarif, not 'yaml'" "$TMP/err"
finish
