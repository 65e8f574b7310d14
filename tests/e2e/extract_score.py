#!/usr/bin/env python3
"""extract_score.py FRESHET DIR [--min-f1 X] [--min-title X] [--case NAME]

Scores `freshet extract` on a folder of article pages laid out as Mozilla
Readability's test pages: DIR/CASE/source.html, expected.html (the main
content) and expected-metadata.json. Per case: token F1 (precision, recall)
of textContent against the text of expected.html, words as Unicode \\w+ in
lower case counted as a multiset; title exact; byline and lang exact where
the expected value is given. Prints a line per case and the means; exits 1
when the mean F1 or the title rate is under its threshold, or a page fails.
Standard library only."""
import collections
import html.parser
import json
import os
import re
import subprocess
import sys

WORD = re.compile(r"\w+", re.UNICODE)


class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def html_text(s):
    p = Text()
    p.feed(s)
    p.close()
    return " ".join(p.parts)


def tokens(s):
    return collections.Counter(w.lower() for w in WORD.findall(s or ""))


def f1(got, want):
    g, w = tokens(got), tokens(want)
    common = sum((g & w).values())
    if not g and not w:
        return 1.0, 1.0, 1.0
    if not common:
        return 0.0, 0.0, 0.0
    p = common / sum(g.values())
    r = common / sum(w.values())
    return 2 * p * r / (p + r), p, r


def norm(s):
    return " ".join(s.split()) if isinstance(s, str) else s


def main():
    args = sys.argv[1:]
    opts = {"--min-f1": 0.90, "--min-title": 0.95}
    only = None
    pos = []
    i = 0
    while i < len(args):
        if args[i] in opts:
            opts[args[i]] = float(args[i + 1])
            i += 2
        elif args[i] == "--case":
            only = args[i + 1]
            i += 2
        else:
            pos.append(args[i])
            i += 1
    if len(pos) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    freshet, root = pos
    cases = sorted(d for d in os.listdir(root)
                   if os.path.isfile(os.path.join(root, d, "source.html")))
    if only:
        cases = [c for c in cases if c == only]
    if not cases:
        print(f"extract_score: no cases under {root}", file=sys.stderr)
        return 1
    f1s, titles, bylines, langs, failed = [], [], [], [], []
    print(f"{'case':44} {'F1':>6} {'P':>6} {'R':>6} title byline lang")
    for c in cases:
        d = os.path.join(root, c)
        with open(os.path.join(d, "expected.html"), encoding="utf-8") as f:
            want_text = html_text(f.read())
        with open(os.path.join(d, "expected-metadata.json"), encoding="utf-8") as f:
            meta = json.load(f)
        r = subprocess.run([freshet, "extract", os.path.join(d, "source.html")],
                           capture_output=True, timeout=120)
        if r.returncode != 0:
            print(f"{c:44} FAILED (exit {r.returncode}): {r.stderr.decode(errors='replace').strip()}")
            failed.append(c)
            f1s.append(0.0)
            continue
        got = json.loads(r.stdout)
        # textContent is plain text: read it as it is (not as HTML)
        fv, p, rc = f1(got.get("textContent"), want_text)
        f1s.append(fv)
        t_ok = norm(got.get("title")) == norm(meta.get("title"))
        titles.append(t_ok)
        marks = ["ok " if t_ok else "NO "]
        for key, acc in (("byline", bylines), ("lang", langs)):
            if meta.get(key):
                ok = norm(got.get(key)) == norm(meta.get(key))
                acc.append(ok)
                marks.append("ok " if ok else "NO ")
            else:
                marks.append("-  ")
        print(f"{c:44} {fv:6.3f} {p:6.3f} {rc:6.3f} {marks[0]:5} {marks[1]:6} {marks[2]}")
        if not t_ok:
            print(f"    title: got {got.get('title')!r} want {meta.get('title')!r}")
        if meta.get("byline") and bylines and not bylines[-1]:
            print(f"    byline: got {got.get('byline')!r} want {meta.get('byline')!r}")
    mean = sum(f1s) / len(f1s)
    rate = lambda a: (sum(a) / len(a)) if a else 1.0
    print(f"cases {len(cases)}: mean F1 {mean:.3f}, median F1 "
          f"{sorted(f1s)[len(f1s) // 2]:.3f}, F1 >= 0.9 on {sum(v >= 0.9 for v in f1s)}")
    print(f"title exact {sum(titles)}/{len(titles)} ({rate(titles):.1%}), "
          f"byline exact {sum(bylines)}/{len(bylines)} ({rate(bylines):.1%}), "
          f"lang exact {sum(langs)}/{len(langs)} ({rate(langs):.1%})")
    bad = []
    if failed:
        bad.append(f"{len(failed)} page(s) failed: {' '.join(failed)}")
    if mean < opts["--min-f1"]:
        bad.append(f"mean F1 {mean:.3f} under {opts['--min-f1']}")
    if rate(titles) < opts["--min-title"]:
        bad.append(f"title exact rate {rate(titles):.3f} under {opts['--min-title']}")
    for b in bad:
        print(f"extract_score: FAIL: {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
