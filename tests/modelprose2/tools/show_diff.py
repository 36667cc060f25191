"""Print the word-level difference between a variant and its faithful draft (and the corrected draft).
Usage: python3 tools/show_diff.py [--corpus DIR] variants/<file>.json [...]   (or article_variants/<file>.json)"""
import difflib, json, os, sys
sys.path.insert(0, os.path.dirname(__file__))
from common import ROOT

def flatten(o, pre=()):
    if isinstance(o, dict):
        return {k2: v2 for k, v in o.items() for k2, v2 in flatten(v, pre + (k,)).items()}
    if isinstance(o, list):
        return {k2: v2 for i, v in enumerate(o) for k2, v2 in flatten(v, pre + (i,)).items()}
    return {pre: o}

def faithful_for(v):
    if "record" in v:
        return json.load(open(os.path.join(ROOT, "drafts", v["record"] + ".json")))
    return json.load(open(os.path.join(ROOT, "articles", v["slug"] + ".json")))["draft"]

def show(a, b, tag):
    fa, fb = flatten(a), flatten(b)
    for k in sorted(set(fa) | set(fb), key=str):
        if fa.get(k) != fb.get(k):
            wa, wb = str(fa.get(k, "")).split(), str(fb.get(k, "")).split()
            sm = difflib.SequenceMatcher(None, wa, wb)
            parts = [("[-%s-]{+%s+}" % (" ".join(wa[i1:i2]), " ".join(wb[j1:j2])))
                     for op, i1, i2, j1, j2 in sm.get_opcodes() if op != "equal"]
            print("  %s %s: %s" % (tag, ".".join(map(str, k)), " ".join(parts)))

for f in sys.argv[1:]:
    v = json.load(open(f))
    fd = faithful_for(v)
    print(os.path.basename(f), "|", v["description"])
    show(fd, v["draft"], "variant  ")
    show(fd, v["corrected"], "corrected")
