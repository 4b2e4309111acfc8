#!/usr/bin/env python3
"""The walls of STYLE.md, checked: which folder may include what, and which target may link what.

Usage: layering.py SOURCE_DIR LINK_WALLS_FILE (written by the top-level CMakeLists.txt).
Prints every violation and exits 1 if there is one. Also runs on a made-up tree (--self-test)
to show that each rule can fail.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
TORCH_HEADER = re.compile(r'^(torch|ATen|c10|caffe2)/')
TORCH_LIB = re.compile(r'torch|c10|caffe2', re.I)
QT_HEADER = re.compile(r'^(Q[A-Za-z]|qt)')


def includes(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return INCLUDE.findall(f.read())


def include_rules(rel, incs):
    """Violations of the include rules for the file at `rel` (path relative to the source dir)."""
    out = []
    top = rel.split('/')[0]
    for kind, name in incs:
        where = f'{rel}: #include {kind}{name}{">" if kind == "<" else kind}'
        if kind == '"' and '/' not in name and not name.endswith('.moc') and name != 'pch.h':
            out.append(f'{where}: project includes carry their folder ("model/io/x.h")')
        if top in ('ui', 'app') and kind == '<' and TORCH_HEADER.match(name):
            out.append(f'{where}: ui/ and app/ never see a torch header')
        if top in ('ui', 'app') and name.startswith('model/') and not name.startswith('model/api/'):
            out.append(f'{where}: ui/ and app/ see only the facade model/api/')
        if top == 'model' and kind == '<' and QT_HEADER.match(name):
            out.append(f'{where}: model/ has no Qt')
        if top == 'model' and name.startswith(('ui/', 'app/')):
            out.append(f'{where}: model/ depends on nothing above it')
        facade = rel.startswith('model/api/') and rel.endswith('.h')
        if facade and kind == '<' and TORCH_HEADER.match(name):
            out.append(f'{where}: the facade is torch-free')
        if facade and kind == '"' and not name.startswith('model/api/'):
            out.append(f'{where}: the facade includes only the facade')
        if top == 'ui' and name.startswith('app/'):
            out.append(f'{where}: ui/ never includes app/ (upward)')
        if rel.startswith('ui/imaging/') and (name.startswith('ui/') and
                                              not name.startswith('ui/imaging/')):
            out.append(f'{where}: imaging sits below the widgets')
        if rel.startswith(('ui/imaging/', 'app/cli/', 'app/common/')) and name.startswith(
                ('QtWidgets', 'QWidget', 'QMainWindow', 'QApplication', 'QLabel', 'QPushButton')):
            out.append(f'{where}: no widgets here')
        if rel.startswith('app/cli/') and name.startswith(('ui/', 'app/gui/')) and not \
                name.startswith('ui/imaging/'):
            out.append(f'{where}: the CLI uses no widgets')
    return out


def scan_tree(src):
    out = []
    for top in ('model', 'ui', 'app'):
        for dirpath, _, files in os.walk(os.path.join(src, top)):
            for f in sorted(files):
                if f.endswith(('.h', '.cpp')):
                    path = os.path.join(dirpath, f)
                    out += include_rules(os.path.relpath(path, src), includes(path))
    return out


def read_walls(path):
    """{target: (direct link items, interface items)} from link_walls.txt."""
    walls = {}
    with open(path) as f:
        for line in f:
            parts = line.rstrip('\n').split(' ', 2)
            if len(parts) < 3:
                continue
            target, prop, items = parts
            items = [] if items.endswith('NOTFOUND') else [i for i in items.split(';') if i]
            walls.setdefault(target, {})[prop] = items
    return walls


def closure(walls, target, usage_only):
    """Everything `target` links (usage_only: whose headers and flags it gets)."""
    seen, todo = set(), list(walls.get(target, {}).get('LINK_LIBRARIES', []))
    while todo:
        item = todo.pop()
        if item.startswith('$<LINK_ONLY:'):
            if usage_only:
                continue
            item = item[len('$<LINK_ONLY:'):-1]
        if item in seen:
            continue
        seen.add(item)
        todo += walls.get(item, {}).get('INTERFACE_LINK_LIBRARIES', [])
    return seen


def link_rules(walls):
    out = []
    def forbid(target, test, why, usage_only):
        for item in sorted(closure(walls, target, usage_only)):
            if test(item):
                out.append(f'target {target} links {item}: {why}')
    # A library file path (…/libc10.so) carries no headers or flags; targets (torch) do.
    torch = lambda i: bool(TORCH_LIB.search(i)) and not i.startswith('/')
    qt = lambda i: i.startswith('Qt6::') or i.startswith('QCustomPlot')
    widgets = lambda i: i in ('Qt6::Widgets', 'Qt6::PrintSupport', 'ui', 'guicore') or \
        i.startswith('QCustomPlot')
    forbid('model', qt, 'model/ has no Qt', False)
    for t in ('ui', 'imaging', 'appcommon', 'guicore', 'captionlens', 'captionlens-cli'):
        forbid(t, torch, 'LibTorch is private to model/ (headers must not reach it)', True)
    for t in ('model', 'imaging', 'ui'):
        forbid(t, lambda i: i in ('appcommon', 'guicore', 'captionlens', 'captionlens-cli'),
               'no upward dependency', False)
    for t in ('imaging', 'appcommon', 'captionlens-cli'):
        forbid(t, widgets, 'no widgets below ui/ or in the CLI', False)
    forbid('appcommon', qt, 'app/common is Qt-free', False)
    # model's own line must keep torch private.
    for item in walls.get('model', {}).get('INTERFACE_LINK_LIBRARIES', []):
        if torch(item) and not item.startswith('$<LINK_ONLY:'):
            out.append(f'target model publishes {item}: link LibTorch PRIVATE')
    return out


def self_test():
    bad = {
        'ui/panels/x.cpp': [('<', 'torch/torch.h'), ('"', 'model/nn/attention.h'),
                            ('"', 'app/common/a.h'), ('"', 'bare.h')],
        'model/io/y.cpp': [('<', 'QString'), ('"', 'ui/window/z.h')],
        'model/api/z.h': [('<', 'ATen/ATen.h'), ('"', 'model/io/checkpoint.h')],
        'model/api/z.cpp': [('<', 'ATen/ATen.h'), ('"', 'model/io/checkpoint.h')],  # allowed
        'app/cli/c.cpp': [('"', 'ui/panels/p.h'), ('<', 'QWidget')],
        'ui/imaging/i.cpp': [('"', 'ui/window/w.h')],
    }
    found = sum(len(include_rules(rel, incs)) for rel, incs in bad.items())
    walls = {
        'model': {'LINK_LIBRARIES': ['torch', 'Qt6::Core'], 'INTERFACE_LINK_LIBRARIES': ['torch']},
        'ui': {'LINK_LIBRARIES': ['model', 'appcommon'], 'INTERFACE_LINK_LIBRARIES': []},
        'captionlens-cli': {'LINK_LIBRARIES': ['ui'], 'INTERFACE_LINK_LIBRARIES': []},
    }
    links = link_rules(walls)
    expected_includes, expected_links = 11, 5
    ok = found == expected_includes and len(links) >= expected_links
    print(f'self-test: {found} include violations (want {expected_includes}), '
          f'{len(links)} link violations (want >= {expected_links}): {"ok" if ok else "FAILED"}')
    return ok


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--self-test':
        return 0 if self_test() else 1
    src, walls_file = sys.argv[1], sys.argv[2]
    if not self_test():
        return 1
    walls = read_walls(walls_file)
    missing = [t for t in ('model', 'ui', 'imaging', 'captionlens-cli') if t not in walls]
    problems = scan_tree(src) + link_rules(walls) + [f'{t}: not in {walls_file}' for t in missing]
    for p in problems:
        print(p)
    print(f'{len(problems)} layering violations')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
