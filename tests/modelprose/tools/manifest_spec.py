import os, yaml
from common import ROOT

# kind -> (origin, description). origin: "brief" (named in the brief) or "invented" (ours).
KINDS = {
 "wrong-figure": ("brief", "A number from the record is changed (e.g. 54K -> 45K GPU hours)."),
 "wrong-unit": ("brief", "The number is kept but its unit is changed (GPU hours -> GPUs, per second -> per minute, Tbps -> terabytes per second)."),
 "invented-figure": ("brief", "A figure the record does not contain is added."),
 "direction-flip": ("brief", "Direction reversed while keeping the words: from A to B becomes from B to A, off-peak becomes peak, lost to becomes beat."),
 "relative-time": ("brief", "A relative time expression is added ('recently', 'has just', 'last year')."),
 "wrong-year": ("brief", "A year is changed or a year the record does not give is asserted."),
 "other-company": ("brief", "Another company is named as doing or originating the work, in any section."),
 "open-sourced": ("brief", "Claims the company open-sourced, released or made publicly available a system."),
 "invented-cause": ("brief", "A motive or cause the record does not state is added ('to cut warehouse costs', 'to meet HIPAA audit requirements')."),
 "sentiment-praise": ("brief", "Evaluative praise is added ('impressive', 'widely praised', 'sets a high bar')."),
 "superlative": ("brief", "An unsupported superlative or first is added ('the largest', 'the first', 'the highest of any')."),
 "advice-in-reports": ("brief", "A reported statement says the source recommends or advises something it only describes."),
 "invented-outcome": ("brief", "A benefit the record does not report is added ('faster release cycles', 'map loads feel faster')."),
 "invented-name": ("brief", "A system or tool name absent from the record is introduced."),
 "generalisation": ("brief", "Our sections generalise one company's result to all teams ('every mobile team', 'always')."),
 "fake-quote": ("brief", "The quote is not verbatim: a word dropped, hedges removed or phrasing altered."),
 "misattribution": ("brief", "Our own advice or framing is presented as the company's recommendation or words."),
 "estimate-as-fact": ("invented", "A plan, target or estimate in the record is stated as an achieved or measured fact."),
 "approximation-dropped": ("invented", "Hedges such as 'about', 'roughly', 'under' are removed, so an approximate figure reads as exact."),
 "metric-swap": ("invented", "A correct figure is attached to the wrong metric (read vs insert latency, hot vs cold, p95 vs median, saves vs time spent)."),
 "quote-statement-mismatch": ("invented", "The quote is verbatim from the record but does not support the statement it is attached to."),
 "misattributed-technique": ("invented", "A result is credited to the wrong technique or component of the same record."),
 "external-comparison": ("invented", "A comparison with the industry or other providers that the record does not make is added."),
 "invented-plan": ("invented", "A future plan or intention of the company is invented."),
 "hiring-claim": ("invented", "Our sections claim the company is hiring or asks about the topic in its interviews."),
 "step-multi-sentence": ("invented", "A step is written as two sentences instead of one."),
 "figure-swapped-between-sources": ("brief", "Articles: a figure of one source is stated in another source's block."),
 "name-swapped-between-sources": ("brief", "Articles: a named system of one source appears in another source's block."),
 "quote-from-other-source": ("brief", "Articles: a verbatim quote from source B is used in source A's block."),
 "claim-swapped": ("brief", "Articles: a claim made by source B is attributed to source A."),
 "comparison-misstated": ("brief", "Articles: the shared interpretation says company X did what company Y did."),
}

def write(record_ids, slugs, variants, article_variants):
    used = {v["kind"] for v in variants} | {v["kind"] for v in article_variants}
    assert used <= set(KINDS), used - set(KINDS)
    assert set(KINDS) <= used, set(KINDS) - used
    # Held-out split, chosen mechanically: sort alphabetically, take every third item
    # starting with the third (indices 2, 5, 8, ...). Applied to records, kinds and slugs.
    rec_sorted = sorted(record_ids)
    held_records = rec_sorted[2::3]
    kinds_sorted = sorted(KINDS)
    held_kinds = kinds_sorted[2::3]
    held_slugs = sorted(slugs)[2::3]
    def held(v, key, held_keys):
        return v[key] in held_keys or v["kind"] in held_kinds
    guide_held = [v for v in variants if held(v, "record", held_records)]
    art_held = [v for v in article_variants if held(v, "slug", held_slugs)]
    m = {
        "description": "prepguide test corpus: synthetic source records, faithful drafts, one-error variants and roundup articles. All record content is invented for testing, including records that use real company names.",
        "records": rec_sorted,
        "articles": sorted(slugs),
        "kinds": [{"name": k, "origin": KINDS[k][0], "description": KINDS[k][1],
                   "guide_variants": sum(v["kind"] == k for v in variants),
                   "article_variants": sum(v["kind"] == k for v in article_variants),
                   "held_out": k in held_kinds} for k in kinds_sorted],
        "held_out": {
            "rule": "Sort record ids, kind names and article slugs alphabetically and hold out every third one, starting with the third (0-based indices 2, 5, 8, ...). A guide variant is held out if its record or its kind is held out; an article variant is held out if its slug or its kind is held out.",
            "records": held_records,
            "kinds": held_kinds,
            "invented_kinds_held_out": [k for k in held_kinds if KINDS[k][0] == "invented"],
            "articles": held_slugs,
            "guide_variants_held_out": len(guide_held),
            "guide_variants_training": len(variants) - len(guide_held),
            "article_variants_held_out": len(art_held),
            "article_variants_training": len(article_variants) - len(art_held),
        },
    }
    with open(os.path.join(ROOT, "manifest.yaml"), "w") as f:
        yaml.safe_dump(m, f, sort_keys=False, width=100, allow_unicode=True)
