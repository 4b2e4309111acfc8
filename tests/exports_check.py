#!/usr/bin/env python3
"""Our programs must not export a symbol that a Qt 5 library they load also exports.

Debian's LibTorch loads Qt 5 (libtorch_cpu -> OpenCV's highgui -> Qt5Widgets) beside our Qt 6.
A program that exports its copy of a Qt 6 inline function under a name Qt 5 exports too (such as
QByteArray::append(const char *)) has Qt 5 run that Qt 6 code on Qt 5's objects: tst_editor and
tst_browser crashed in Qt5Widgets' start-up when compiled at -O0. Usage: exports_check.py EXE...
"""
import re
import subprocess
import sys


def dynamic_symbols(path):
    """The C++ functions a file exports (not data, not the linker's _end)."""
    out = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True,
                         check=True).stdout
    rows = (line.split() for line in out.splitlines())
    return {row[-1].split("@")[0] for row in rows
            if len(row) >= 2 and row[-2] in ("T", "W", "i") and row[-1].startswith("_Z")}


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    return out.stdout.splitlines()


# The standard library's templates are the same code whoever instantiates them (sanitizer builds
# export everything, and Qt 5 exports some std::vector<int> members): not a Qt 5/Qt 6 clash.
STANDARD = re.compile(r"^(?:[\w:<>, *&]+ )?(?:std|__gnu_cxx)::")


def loaded_qt5(path):
    out = subprocess.run(["ldd", path], capture_output=True, text=True, check=True).stdout
    return sorted(set(re.findall(r"=> (\S*libQt5\w+\.so\S*)", out)))


def main(programs):
    problems, checked = [], 0
    for exe in programs:
        mine = dynamic_symbols(exe)
        for lib in loaded_qt5(exe):
            checked += 1
            both = sorted(mine & dynamic_symbols(lib))
            for shown in demangle(both) if both else []:
                if not STANDARD.match(shown):
                    problems.append(f"{exe} exports {shown}, which {lib} exports too")
    print(f"{len(programs)} programs, {checked} (program, Qt 5 library) pairs checked")
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
