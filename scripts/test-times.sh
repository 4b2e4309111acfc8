#!/usr/bin/env bash
# Where the suite's time goes: runs CTest with every test function's time recorded (JUnit XML
# from Qt Test, CL_TEST_TIMES_DIR) and prints the slowest tests and functions.
#   scripts/test-times.sh [CTEST ARGS...]     (BUILD_DIR, default build)
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
out=$(mktemp -d)
CL_TEST_TIMES_DIR=$out ctest --test-dir "$BUILD_DIR" -j2 "$@" >"$out/ctest.log" 2>&1
rc=$?
echo "slowest tests (s):"
grep -E "Test +#[0-9]+:" "$out/ctest.log" | sed -E 's/.*Test +#[0-9]+: ([^ ]+) \.+ *([^ ]+) +([0-9.]+) sec/\3 \1 \2/' |
    sort -rn | head -20
echo "slowest functions (s):"
/usr/bin/python3 - "$out" <<'PY'
import glob, sys, xml.etree.ElementTree as ET
rows = []
for f in glob.glob(sys.argv[1] + "/*.xml"):
    for suite in ET.parse(f).getroot().iter("testsuite"):
        for case in suite.iter("testcase"):
            rows.append((float(case.get("time", 0)), suite.get("name") + "::" + case.get("name")))
for t, name in sorted(rows, reverse=True)[:25]:
    print(f"{t:8.1f} {name}")
PY
exit $rc
