#!/usr/bin/env python3
"""The walls of STYLE.md, checked: which folder may include what, and which target may link what.

Usage: layering.py SOURCE_DIR [LINK_WALLS_FILE] (written by the top-level CMakeLists.txt).
The tiers of model/ and who may include whom come from SOURCE_DIR/model/TIERS (the one table;
CMake links the libraries from it too). The build runs this before compiling anything (target
cl_layering, about a second). Prints every violation and exits 1 if there is one. Also runs on a
made-up tree (--self-test) to show that each rule can fail.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
TORCH_HEADER = re.compile(r'^(torch|ATen|c10|caffe2)/')
TORCH_LIB = re.compile(r'torch|c10|caffe2', re.I)
QT_HEADER = re.compile(r'^(Q[A-Za-z]|qt)')


def read_tiers(path):
    """{tier: (kind, public uses, private uses)} from model/TIERS, in order; raises on a bad line
    or a tier that uses one not above it."""
    tiers = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#')[0].strip()
            if not line:
                continue
            m = re.match(r'^([a-z]+) +([a-z]+) *:([^|]*)\|?(.*)$', line)
            if not m:
                raise ValueError(f'{path}:{n}: cannot read "{line}"')
            name, kind, pub, priv = m.group(1), m.group(2), m.group(3).split(), m.group(4).split()
            for used in pub + priv:
                if used not in tiers or tiers[used][0] == 'top':
                    raise ValueError(f'{path}:{n}: {name} uses {used}, not a tier above its line')
            tiers[name] = (kind, pub, priv)
    return tiers


def tier_rules(rel, incs, tiers):
    """Violations of model/TIERS for the file at `rel`."""
    out = []
    parts = rel.split('/')
    if parts[0] == 'model' and len(parts) > 2:
        me = parts[1]
        if me not in tiers:
            return [f'{rel}: model/{me}/ is not a tier of model/TIERS']
        kind, pub, priv = tiers[me]
        allowed = set(pub) | ({me} if rel.endswith('.h') else {me} | set(priv))
        why = 'its headers' if rel.endswith('.h') else 'it'
    elif parts[0] in ('ui', 'app') and parts[0] in tiers:
        me, kind, allowed, why = parts[0], 'top', set(tiers[parts[0]][1]), 'it'
    else:
        return out
    for k, name in incs:
        where = f'{rel}: #include {k}{name}{">" if k == "<" else k}'
        if name.startswith('model/') and name.count('/') >= 2:
            used = name.split('/')[1]
            if used != me and used not in allowed:
                out.append(f'{where}: model/TIERS does not let {me} ({why}) include {used}')
        if kind in ('plain', 'top') and k == '<' and TORCH_HEADER.match(name):
            out.append(f'{where}: {me} is torch-free (model/TIERS)')
    return out


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
        if top == 'model' and kind == '<' and QT_HEADER.match(name):
            out.append(f'{where}: model/ has no Qt')
        if top == 'model' and name.startswith(('ui/', 'app/')):
            out.append(f'{where}: model/ depends on nothing above it')
        if rel.startswith('ui/math/') and (name.startswith(('QtWidgets', 'qcustomplot')) or
                                           name.startswith('ui/') and
                                           not name.startswith('ui/math/')):
            out.append(f'{where}: ui/math has Qt Gui types at most')
        if top == 'ui' and name.startswith('app/'):
            out.append(f'{where}: ui/ never includes app/ (upward)')
        if rel.startswith('ui/imaging/') and (name.startswith('ui/') and
                                              not name.startswith('ui/imaging/')):
            out.append(f'{where}: imaging sits below the widgets')
        if rel.startswith('ui/lessons/') and (name.startswith('ui/') and
                                              not name.startswith(('ui/imaging/', 'ui/lessons/'))):
            out.append(f'{where}: lessons sit below the widgets, over imaging')
        if rel.startswith('ui/animation/') and name.startswith('ui/') and \
                not name.startswith(('ui/animation/', 'ui/math/', 'ui/imaging/')):
            out.append(f'{where}: animation sits below the widgets, over math and imaging')
        if rel.startswith(('ui/imaging/', 'ui/lessons/', 'ui/animation/', 'app/cli/',
                           'app/common/')) and name.startswith(
                ('QtWidgets', 'QWidget', 'QMainWindow', 'QApplication', 'QLabel', 'QPushButton')):
            out.append(f'{where}: no widgets here')
        if rel.startswith('app/cli/') and name.startswith(('ui/', 'app/gui/')) and not \
                name.startswith(('ui/imaging/', 'ui/lessons/', 'ui/animation/', 'ui/math/')):
            out.append(f'{where}: the CLI uses no widgets')
    return out


def torch_free_headers(src, tiers):
    """Headers ui/ and app/ may reach must not pull LibTorch in, even through another header."""
    out = []
    seen = {}
    def pulls_torch(name, depth=0):
        if name in seen or depth > 40:
            return seen.get(name, False)
        seen[name] = False
        path = os.path.join(src, name)
        if not os.path.isfile(path):
            return False
        hit = any(k == '<' and TORCH_HEADER.match(n) or
                  k == '"' and n.startswith('model/') and pulls_torch(n, depth + 1)
                  for k, n in includes(path))
        seen[name] = hit
        return hit
    visible = set(tiers.get('ui', ('', [], []))[1]) | set(tiers.get('app', ('', [], []))[1])
    for tier in sorted(visible):
        folder = os.path.join(src, 'model', tier)
        for f in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if f.endswith('.h') and pulls_torch(f'model/{tier}/{f}'):
                out.append(f'model/{tier}/{f}: ui/ and app/ see {tier}, so its headers must not '
                           'include LibTorch (model/TIERS)')
    return out


def scan_tree(src, tiers):
    out = []
    for top in ('model', 'ui', 'app'):
        for dirpath, _, files in os.walk(os.path.join(src, top)):
            for f in sorted(files):
                if f.endswith(('.h', '.cpp')):
                    path = os.path.join(dirpath, f)
                    rel, incs = os.path.relpath(path, src), includes(path)
                    out += include_rules(rel, incs) + tier_rules(rel, incs, tiers)
    return out + torch_free_headers(src, tiers)


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
    lines = walls.get(target, {})
    seen = set()
    todo = lines.get('LINK_LIBRARIES', []) + lines.get('INTERFACE_LINK_LIBRARIES', [])
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
    tiers = sorted(t for t in walls if t == 'model' or t.startswith('model_'))
    for t in tiers:
        forbid(t, qt, 'model/ has no Qt', False)
    for t in ('ui', 'imaging', 'lessons', 'uimath', 'animation', 'appcommon', 'guicore',
              'captionlens', 'captionlens-cli'):
        forbid(t, torch, 'LibTorch is private to model/ (headers must not reach it)', True)
    for t in tiers + ['imaging', 'lessons', 'uimath', 'animation', 'ui']:
        forbid(t, lambda i: i in ('appcommon', 'guicore', 'captionlens', 'captionlens-cli'),
               'no upward dependency', False)
    for t in ('imaging', 'lessons', 'uimath', 'animation', 'appcommon', 'captionlens-cli'):
        forbid(t, widgets, 'no widgets below ui/ or in the CLI', False)
    forbid('appcommon', qt, 'app/common is Qt-free', False)
    # Each tier's own line must keep torch private.
    for t in tiers:
        for item in walls.get(t, {}).get('INTERFACE_LINK_LIBRARIES', []):
            if torch(item) and not item.startswith('$<LINK_ONLY:'):
                out.append(f'target {t} publishes {item}: link LibTorch PRIVATE')
    return out


SELF_TEST_TIERS = """
core  plain :
nn    torch : core
io    torch : core | nn
api   torch : core | io nn
ui    top   : core api
"""


def self_test():
    bad = {
        'ui/panels/x.cpp': [('<', 'torch/torch.h'), ('"', 'app/common/a.h'), ('"', 'bare.h')],
        'model/io/y.cpp': [('<', 'QString'), ('"', 'ui/window/z.h')],
        'app/cli/c.cpp': [('"', 'ui/panels/p.h'), ('<', 'QWidget')],
        'ui/imaging/i.cpp': [('"', 'ui/window/w.h')],
        'ui/math/m.cpp': [('<', 'qcustomplot.h'), ('"', 'ui/widgets/w.h')],
    }
    found = sum(len(include_rules(rel, incs)) for rel, incs in bad.items())
    import tempfile
    with tempfile.NamedTemporaryFile('w', suffix='TIERS', delete=False) as f:
        f.write(SELF_TEST_TIERS)
    tiers = read_tiers(f.name)
    os.unlink(f.name)
    tier_bad = {
        'model/core/a.h': [('"', 'model/nn/b.h'), ('<', 'ATen/ATen.h')],  # upward; torch-free
        'model/io/c.h': [('"', 'model/nn/d.h')],   # a private use in a header
        'model/io/c.cpp': [('"', 'model/nn/d.h'), ('"', 'model/core/e.h')],  # allowed
        'model/nn/f.cpp': [('"', 'model/api/g.h')],  # upward
        'model/gone/h.cpp': [],                      # not a tier
        'ui/panels/p.cpp': [('"', 'model/io/c.h'), ('"', 'model/api/g.h')],  # io not seen by ui
    }
    tier_found = sum(len(tier_rules(rel, incs, tiers)) for rel, incs in tier_bad.items())
    cyclic = False
    try:
        with tempfile.NamedTemporaryFile('w', suffix='TIERS', delete=False) as f:
            f.write('nn torch : io\nio torch : nn\n')
        read_tiers(f.name)
    except ValueError:
        cyclic = True
    os.unlink(f.name)
    walls = {
        'model': {'LINK_LIBRARIES': [], 'INTERFACE_LINK_LIBRARIES': ['model_api']},
        'model_api': {'LINK_LIBRARIES': ['torch', 'Qt6::Core'],
                      'INTERFACE_LINK_LIBRARIES': ['torch']},
        'ui': {'LINK_LIBRARIES': ['model', 'appcommon'], 'INTERFACE_LINK_LIBRARIES': []},
        'captionlens-cli': {'LINK_LIBRARIES': ['ui'], 'INTERFACE_LINK_LIBRARIES': []},
    }
    links = link_rules(walls)
    want_inc, want_tier, want_links = 10, 6, 5
    ok = found == want_inc and tier_found == want_tier and cyclic and len(links) >= want_links
    print(f'self-test: {found} include violations (want {want_inc}), {tier_found} tier '
          f'violations (want {want_tier}), a cycle refused: {cyclic}, {len(links)} link '
          f'violations (want >= {want_links}): {"ok" if ok else "FAILED"}')
    return ok


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--self-test':
        return 0 if self_test() else 1
    src = sys.argv[1]
    walls_file = sys.argv[2] if len(sys.argv) > 2 else None
    try:
        tiers = read_tiers(os.path.join(src, 'model', 'TIERS'))
    except ValueError as e:
        print(e)
        return 1
    problems = scan_tree(src, tiers)
    if walls_file and not os.path.exists(walls_file):
        print(f'{walls_file} not written (no Qt parts): link lines not checked')
    elif walls_file:
        walls = read_walls(walls_file)
        missing = [t for t in ('model', 'ui', 'imaging', 'captionlens-cli') if t not in walls]
        problems += link_rules(walls) + [f'{t}: not in {walls_file}' for t in missing]
    for p in problems:
        print(p)
    print(f'layering: {len(problems)} violations of model/TIERS and STYLE.md\'s walls')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
