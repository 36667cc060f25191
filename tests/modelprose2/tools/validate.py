"""Validate the corpus files on disk (independent of the build sources).
Usage: python3 tools/validate.py [--corpus DIR]"""
import glob, json, os, re, sys, collections, datetime
import yaml
sys.path.insert(0, os.path.dirname(__file__))
from common import ROOT, load_records, check_draft, quote_ok

# Minimum sizes per corpus (by directory name); a corpus not listed is held to this one's.
SIZES = {
    "modelprose2": dict(records=12, companies=8, notes=4, citations=2, guide_kinds=19,
                        variants=24, articles=3, article_variants=6, invented=3),
    "modelprose3": dict(records=15, companies=10, notes=5, citations=2, guide_kinds=18,
                        variants=30, articles=4, article_variants=8, invented=4),
}
MIN = SIZES.get(os.path.basename(ROOT), SIZES["modelprose2"])

problems = []
def P(*a):
    problems.append(" ".join(str(x) for x in a))

def flatten(o, pre=()):
    if isinstance(o, dict):
        out = {}
        for k, v in o.items():
            out.update(flatten(v, pre + (k,)))
        return out
    if isinstance(o, list):
        out = {}
        for i, v in enumerate(o):
            out.update(flatten(v, pre + (i,)))
        return out
    return {pre: o}

def diff_paths(a, b):
    fa, fb = flatten(a), flatten(b)
    return sorted(set(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k)), key=str)

def one_error_diff(faithful, variant):
    """True if variant differs from faithful in exactly one leaf string, or by exactly one inserted list element."""
    d = diff_paths(faithful, variant)
    if len(d) == 1 and d[0] in flatten(faithful) and d[0] in flatten(variant):
        return True, d
    # single insertion into some list
    def lists(o, pre=()):
        if isinstance(o, dict):
            for k, v in o.items():
                yield from lists(v, pre + (k,))
        elif isinstance(o, list):
            yield pre, o
            for i, v in enumerate(o):
                yield from lists(v, pre + (i,))
    fl = dict(lists(faithful))
    for p, lst in lists(variant):
        if p in fl and len(lst) == len(fl[p]) + 1:
            for i in range(len(lst)):
                if lst[:i] + lst[i + 1:] == fl[p]:
                    import copy
                    v2 = copy.deepcopy(variant)
                    cur = v2
                    for t in p:
                        cur = cur[t]
                    del cur[i]
                    if v2 == faithful:
                        return True, [p + ("+%d" % i,)]
    return False, d

def section_of(path):
    top = path[0]
    if top in ("reported", "blocks"):
        return "reported"
    return top

# ---------------- records
recs = load_records()
REQ = ["id", "company", "title", "url", "published", "summary", "scale", "techniques", "stack"]
for stem, r in recs.items():
    for k in REQ:
        if k not in r:
            P("record", stem, "missing", k)
    if r.get("id") != stem:
        P("record id mismatch", stem)
    if not re.fullmatch(r"[a-z0-9-]+", stem):
        P("bad id", stem)
    if not str(r.get("url", "")).startswith("https://"):
        P("url not https", stem)
    if not isinstance(r.get("published"), datetime.date):
        P("published not a date", stem)
    if "checked" in r and r["checked"] < r["published"]:
        P("checked before published", stem)
    n = len(re.findall(r"[.!?](\s|$)", r["summary"]))
    if not 3 <= n <= 6:
        P("summary sentences", stem, n)
    if "notes" in r:
        n = len(re.findall(r"[.!?](\s|$)", r["notes"]))
        if not 3 <= n <= 8:
            P("notes sentences", stem, n)
    for c in r.get("citations", []) or []:
        for k in ("title", "url", "publisher", "published", "checked"):
            if k not in c:
                P("citation missing", stem, k)
        if not str(c.get("url", "")).startswith("https://"):
            P("citation url", stem)
companies = collections.Counter(r["company"] for r in recs.values())
n_notes = sum("notes" in r for r in recs.values())
n_cit = sum(bool(r.get("citations")) for r in recs.values())
if len(recs) < MIN["records"]: P("too few records")
if len(companies) < MIN["companies"]: P("too few companies")
if n_notes < MIN["notes"]: P("too few notes")
if n_cit < MIN["citations"]: P("too few citations")

# ---------------- drafts
drafts = {}
for f in sorted(glob.glob(os.path.join(ROOT, "drafts", "*.json"))):
    stem = os.path.basename(f)[:-5]
    d = json.load(open(f))
    drafts[stem] = d
    if stem not in recs:
        P("draft without record", stem)
        continue
    for e in check_draft(d, recs[stem]):
        P("draft", stem, e)
if set(drafts) != set(recs):
    P("drafts/records mismatch", set(recs) ^ set(drafts))

manifest = yaml.safe_load(open(os.path.join(ROOT, "manifest.yaml")))
kinds = {k["name"]: k for k in manifest["kinds"]}
SECTIONS = {"reported", "interpretation", "case_study", "steps", "angle", "case_study_title"}

def check_variant(f, v, faithful, rec_for_quotes, article):
    name = os.path.basename(f)
    for k in ("kind", "section", "description", "draft", "corrected"):
        if k not in v:
            P(name, "missing", k)
            return
    if v["kind"] not in kinds:
        P(name, "unknown kind", v["kind"])
    if v["section"] not in SECTIONS:
        P(name, "bad section", v["section"])
    ok, d = one_error_diff(faithful, v["draft"])
    if not ok:
        P(name, "variant differs in", len(d), "places:", d[:4])
    elif section_of(d[0]) != v["section"]:
        P(name, "section says", v["section"], "but diff is in", d[0])
    if v["draft"] == v["corrected"]:
        P(name, "corrected equals variant")
    # corrected must be fully valid
    for e in check_draft(v["corrected"], rec_for_quotes, article=article):
        P(name, "corrected:", e)
    # variant: format and quotes
    errs = check_draft(v["draft"], rec_for_quotes, article=article)
    quote_errs = [e for e in errs if e.startswith("quote not verbatim")]
    other = [e for e in errs if not e.startswith("quote not verbatim")]
    if v["kind"] == "fake-quote":
        if len(quote_errs) != 1:
            P(name, "fake-quote should have exactly one non-verbatim quote, has", len(quote_errs))
    elif v["kind"] == "quote-from-other-source":
        if len(quote_errs) != 1:
            P(name, "quote-from-other-source should have one foreign quote, has", len(quote_errs))
    elif quote_errs:
        P(name, "unexpected non-verbatim quote", quote_errs)
    if v["kind"] == "step-multi-sentence":
        if not any("one sentence" in e for e in other):
            P(name, "step-multi-sentence variant has no multi-sentence step")
        other = [e for e in other if "one sentence" not in e]
    if other:
        P(name, "variant format:", other)
    # changed text must not be identical to the corrected
    return d

guide_kinds = collections.Counter()
guide_sections = collections.Counter()
vrecs = collections.Counter()
for f in sorted(glob.glob(os.path.join(ROOT, "variants", "*.json"))):
    v = json.load(open(f))
    rid = v.get("record")
    m = re.fullmatch(r"(.+)__(.+)__(\d+)\.json", os.path.basename(f))
    if not m or m.group(1) != rid or m.group(2) != v.get("kind"):
        P("variant filename", f)
    if rid not in drafts:
        P("variant unknown record", f)
        continue
    check_variant(f, v, drafts[rid], recs[rid], article=False)
    guide_kinds[v["kind"]] += 1
    guide_sections[v["section"]] += 1
    vrecs[rid] += 1

# ---------------- articles
arts = {}
class Multi(dict):
    pass
for f in sorted(glob.glob(os.path.join(ROOT, "articles", "*.json"))):
    a = json.load(open(f))
    stem = os.path.basename(f)[:-5]
    arts[stem] = a
    if a.get("slug") != stem:
        P("article slug", stem)
    srcs = a["sources"]
    if not 3 <= len(srcs) <= 4:
        P("article sources count", stem)
    if len({recs[s]["company"] for s in srcs}) < 2:
        P("article single company", stem)
    if [b["source"] for b in a["draft"]["blocks"]] != srcs:
        P("article block order", stem)
    for e in check_draft(a["draft"], recs, article=True):
        P("article", stem, e)

art_kinds = collections.Counter()
for f in sorted(glob.glob(os.path.join(ROOT, "article_variants", "*.json"))):
    v = json.load(open(f))
    slug = v.get("slug")
    if slug not in arts:
        P("article variant unknown slug", f)
        continue
    d = check_variant(f, v, arts[slug]["draft"], recs, article=True)
    art_kinds[v["kind"]] += 1
    if v["kind"] == "quote-from-other-source":
        # the foreign quote must be verbatim in another source of the same article
        for b in v["draft"]["blocks"]:
            for s in b["reported"]:
                if not quote_ok(recs[b["source"]], s["quote"]):
                    others = [o for o in arts[slug]["sources"] if o != b["source"] and quote_ok(recs[o], s["quote"])]
                    if not others:
                        P(os.path.basename(f), "foreign quote not found in another source")

# ---------------- manifest
if sorted(manifest["records"]) != sorted(recs): P("manifest records")
if sorted(manifest["articles"]) != sorted(arts): P("manifest articles")
used = set(guide_kinds) | set(art_kinds)
if used != set(kinds): P("manifest kinds vs used", used ^ set(kinds))
guide_only = [k for k in kinds if guide_kinds[k]]
if len(guide_only) < MIN["guide_kinds"]: P("fewer than %d guide kinds" % MIN["guide_kinds"])
for k in guide_only:
    if guide_kinds[k] < 1: P("kind with no guide variants", k, guide_kinds[k])
if sum(guide_kinds.values()) < MIN["variants"]: P("fewer than %d variants" % MIN["variants"])
if len(arts) < MIN["articles"]: P("fewer than %d articles" % MIN["articles"])
if sum(art_kinds.values()) < MIN["article_variants"]: P("fewer than %d article variants" % MIN["article_variants"])
inv = [k for k in kinds if kinds[k]["origin"] == "invented"]
if len(inv) < MIN["invented"]: P("fewer than %d invented kinds" % MIN["invented"])
ho = manifest["held_out"]
if len([k for k in ho["kinds"] if kinds[k]["origin"] == "invented"]) < 1: P("no invented held-out kind")

print("records %d, companies %d, notes %d, citations %d" % (len(recs), len(companies), n_notes, n_cit))
print("drafts %d, variants %d over %d records, kinds %d" % (len(drafts), sum(guide_kinds.values()), len(vrecs), len(guide_kinds)))
print("guide sections", dict(guide_sections))
print("articles %d, article variants %d, article kinds %d" % (len(arts), sum(art_kinds.values()), len(art_kinds)))
print("PROBLEMS: %d" % len(problems))
for p in problems:
    print("  ", p)
sys.exit(1 if problems else 0)
