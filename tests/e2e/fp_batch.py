#!/usr/bin/env python3
"""fp_batch.py - feedparser's tests scored by ../shared/tools/fp-conformance.py,
with freshet started once per 100 documents instead of once per document.

usage: fp_batch.py TOOL TESTS_DIR FRESHET [--check N] [SCORER OPTIONS...]

The scorer is imported from TOOL as it is: its walk over TESTS_DIR, its
'Expect:' reading, its skips, its categories, its wrap() of the JSON and its
eval() are the ones that run. Only its run_freshet (one `freshet parse FILE
--format json` process per document) is replaced: `freshet parse --format
json FILE...` writes one JSON line per document that is a feed, with a
"file" key naming it (removed here), and prints nothing for one that is not,
as the one-document run prints nothing and exits non-zero (None to the
scorer). Most of a one-document run's time is the process start (about
50 ms of CPU on a small VM): 956 of them were 90 s of CPU, the most of any
test.

--check N: also runs N documents (spread over the set) one process each, as
the scorer does, and exits 3 if any gives another result than the batch.
"""
import importlib.util
import json
import os
import subprocess
import sys

EXTS = ('.xml', '.rdf', '.rss', '.atom')
BATCH = 100


def load_tool(path):
    spec = importlib.util.spec_from_file_location('fp_conformance', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def parse_batch(freshet, paths):
    """{path: the parser's JSON object} for every path that is a feed."""
    out = {}
    for i in range(0, len(paths), BATCH):
        p = subprocess.run([freshet, 'parse', '--format', 'json'] + paths[i:i + BATCH],
                           capture_output=True, timeout=900)
        # Its messages (documents that are not feeds; a sanitizer's report)
        # go on to ours.
        sys.stderr.write(p.stderr.decode('utf-8', 'replace'))
        if p.returncode not in (0, 1):  # 0: all parsed; 1: some not a feed
            sys.exit('fp_batch.py: freshet parse exited %d on documents %d..' % (p.returncode, i))
        for line in p.stdout.splitlines():
            o = json.loads(line)
            out[o.pop('file')] = o
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tool, tests, freshet = sys.argv[1:4]
    rest = sys.argv[4:]
    check = 0
    if rest[:1] == ['--check']:
        check = int(rest[1])
        rest = rest[2:]
    mod = load_tool(tool)
    # The documents the scorer can run: every file it would pass to freshet.
    paths = sorted(os.path.join(root, f) for root, _, files in os.walk(tests)
                   for f in files if f.endswith(EXTS))
    got = parse_batch(freshet, paths)
    if check:
        step = max(1, len(paths) // check)
        differ = 0
        for path in paths[::step][:check]:
            p = subprocess.run([freshet, 'parse', path, '--format', 'json'],
                               capture_output=True, timeout=600)
            sys.stderr.write(p.stderr.decode('utf-8', 'replace'))
            if p.returncode < 0 or p.returncode > 1:
                sys.exit('fp_batch.py: freshet parse exited %d on %s' % (p.returncode, path))
            one = None if (p.returncode != 0 and not p.stdout) else json.loads(p.stdout)
            if one != got.get(path):
                differ += 1
                sys.stderr.write('fp_batch.py: %s: one process and the batch differ\n' % path)
        sys.stderr.write('fp_batch.py: %d documents run one process each, %d differ from the batch\n'
                         % (min(check, len(paths[::step])), differ))
        if differ:
            sys.exit(3)
    mod.run_freshet = lambda binary, path: None if path not in got else mod.wrap(got[path])
    sys.argv = [tool, tests, '--freshet', freshet] + rest
    mod.main()


if __name__ == '__main__':
    main()
