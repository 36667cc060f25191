import glob, os, re, sys, yaml, json

HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def corpus_root(argv):
    """Take `--corpus DIR` out of argv and return DIR (default: this tool's own corpus)."""
    if "--corpus" not in argv:
        return HOME
    i = argv.index("--corpus")
    if i + 1 >= len(argv):
        sys.exit("--corpus needs a directory")
    root = os.path.abspath(argv[i + 1])
    del argv[i:i + 2]
    if not os.path.isdir(os.path.join(root, "records")):
        sys.exit("%s has no records/ directory" % root)
    return root

ROOT = corpus_root(sys.argv)
# The data sources (drafts.py, variants.py, ...): DIR/src for another corpus, tools/src for this one.
SRC = os.path.join(ROOT, "src") if ROOT != HOME else os.path.join(HOME, "tools", "src")
DRAFT_KEYS = ["reported", "angle", "interpretation", "case_study_title", "case_study", "steps"]

def load_records():
    recs = {}
    for f in sorted(glob.glob(os.path.join(ROOT, "records", "*.yaml"))):
        d = yaml.safe_load(open(f))
        recs[os.path.basename(f)[:-5]] = d
    return recs

def record_texts(rec):
    out = []
    for k in ("summary", "notes"):
        if rec.get(k):
            out.append(rec[k])
    for k in ("scale", "techniques", "stack"):
        out.extend(str(x) for x in rec.get(k) or [])
    return out

def quote_ok(rec, q):
    return any(q in t for t in record_texts(rec))

PUNCT = re.compile(r"[^\w\s]|\d|_")

def title_ok(s):
    return len(s.split()) <= 8 and not PUNCT.search(s) and s == s.strip() and s != ""

def check_draft(d, rec, allow_fake=False, article=False):
    """Return list of problems. allow_fake: skip verbatim check (fake-quote variants)."""
    errs = []
    keys = (["blocks"] if article else ["reported"]) + DRAFT_KEYS[1:]
    if sorted(d.keys()) != sorted(keys):
        errs.append("keys %s" % sorted(d.keys()))
        return errs
    groups = []
    if article:
        for b in d["blocks"]:
            groups.append((rec[b["source"]], b["reported"]))
    else:
        groups.append((rec, d["reported"]))
    for r, reps in groups:
        if not (1 <= len(reps) <= 8):
            errs.append("reported count %d" % len(reps))
        for s in reps:
            if sorted(s.keys()) != ["quote", "text"]:
                errs.append("statement keys")
                continue
            if not s["text"].endswith(".") or not s["text"][0].isupper():
                errs.append("statement shape: " + s["text"][:50])
            if not allow_fake and not quote_ok(r, s["quote"]):
                errs.append("quote not verbatim in %s: %r" % (r["id"], s["quote"]))
    if not title_ok(d["angle"]):
        errs.append("angle: %r" % d["angle"])
    if not title_ok(d["case_study_title"]):
        errs.append("case_study_title: %r" % d["case_study_title"])
    if not (3 <= len(d["steps"]) <= 5):
        errs.append("steps count %d" % len(d["steps"]))
    for st in d["steps"]:
        if not st[:1].isupper() or not st.endswith("."):
            errs.append("step shape: %r" % st)
        if len(re.findall(r"[.!?](\s|$)", st)) != 1:
            errs.append("step not one sentence: %r" % st)
    if len(set(d["steps"])) != len(d["steps"]):
        errs.append("duplicate steps")
    for k in ("interpretation", "case_study"):
        if not d[k].strip():
            errs.append("empty " + k)
    return errs
