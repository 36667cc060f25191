"""Build drafts/, variants/, articles/, article_variants/ and manifest.yaml from tools/src.
Usage: python3 tools/build.py [--corpus DIR]   (DIR's data sources live in DIR/src)"""
import copy, json, os, sys, shutil, collections
sys.path.insert(0, os.path.dirname(__file__))
from common import ROOT, SRC, load_records
sys.path.insert(0, SRC)
from drafts import DRAFTS
import variants as variants_src
from variants import VARIANTS
from articles import ARTICLES
from article_variants import ARTICLE_VARIANTS
import manifest_spec


def parse(path):
    return [int(t) if t.isdigit() else t for t in path.split(".")]

def locate(doc, toks):
    cur = doc
    for t in toks[:-1]:
        cur = cur[t]
    return cur, toks[-1]

def apply_edit(doc, spec):
    """Return (variant, corrected)."""
    toks = parse(spec["path"])
    var = copy.deepcopy(doc)
    parent, last = locate(var, toks)
    if isinstance(last, str) and last.startswith("+"):
        idx = int(last[1:])
        assert idx <= len(parent), spec
        parent.insert(idx, copy.deepcopy(spec["new"]))
        cor = copy.deepcopy(doc)
        if spec["fix"] is not None:
            p2, _ = locate(cor, toks)
            p2.insert(idx, copy.deepcopy(spec["fix"]))
        return var, cor
    val = parent[last]
    assert isinstance(val, str), spec
    assert val.count(spec["old"]) == 1, ("old not unique/absent", spec["path"], spec["old"], val)
    parent[last] = val.replace(spec["old"], spec["new"])
    if spec["fix"] is None:
        cor = copy.deepcopy(doc)
    else:
        cor = copy.deepcopy(var)
        p2, l2 = locate(cor, toks)
        o, n = spec["fix"]
        assert p2[l2].count(o) == 1, ("fix old absent", spec)
        p2[l2] = p2[l2].replace(o, n)
    assert var != doc and cor != var
    return var, cor

def dump(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=2, ensure_ascii=False)
        f.write("\n")

def main():
    recs = load_records()
    assert set(recs) == set(DRAFTS)
    for d in ("drafts", "variants", "articles", "article_variants"):
        shutil.rmtree(os.path.join(ROOT, d), ignore_errors=True)
        os.makedirs(os.path.join(ROOT, d))
    for rid, d in DRAFTS.items():
        dump(os.path.join(ROOT, "drafts", rid + ".json"), d)
    counter = collections.Counter()
    for v in VARIANTS:
        assert v["record"] in DRAFTS, v["record"]
        var, cor = apply_edit(DRAFTS[v["record"]], v)
        counter[(v["record"], v["kind"])] += 1
        n = counter[(v["record"], v["kind"])]
        dump(os.path.join(ROOT, "variants", "%s__%s__%d.json" % (v["record"], v["kind"], n)),
             {"record": v["record"], "kind": v["kind"], "section": v["section"],
              "description": v["description"], "draft": var, "corrected": cor})
    arts = {}
    for a in ARTICLES:
        arts[a["slug"]] = a
        dump(os.path.join(ROOT, "articles", a["slug"] + ".json"), a)
    counter = collections.Counter()
    for v in ARTICLE_VARIANTS:
        var, cor = apply_edit(arts[v["slug"]]["draft"], v)
        counter[(v["slug"], v["kind"])] += 1
        n = counter[(v["slug"], v["kind"])]
        dump(os.path.join(ROOT, "article_variants", "%s__%s__%d.json" % (v["slug"], v["kind"], n)),
             {"slug": v["slug"], "kind": v["kind"], "section": v["section"],
              "description": v["description"], "draft": var, "corrected": cor})
    manifest_spec.write(sorted(recs), [a["slug"] for a in ARTICLES], VARIANTS, ARTICLE_VARIANTS,
                        kinds=getattr(variants_src, "KINDS", None),
                        description=getattr(variants_src, "DESCRIPTION", None))
    print("built", len(DRAFTS), "drafts,", len(VARIANTS), "variants,", len(ARTICLES), "articles,",
          len(ARTICLE_VARIANTS), "article variants")

if __name__ == "__main__":
    main()
