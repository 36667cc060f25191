import os, yaml
from common import ROOT

# kind -> (origin, description). origin: "brief" (named in the brief) or "invented" (ours).
KINDS = {
 "wrong-figure": ("brief", "A number from the record is changed (23 -> 32 subgraphs, top 200 -> top 100 candidates)."),
 "wrong-unit": ("brief", "The number is kept but its unit is changed (under a microsecond -> under a millisecond)."),
 "direction-flip": ("brief", "Direction reversed while keeping the words: what replaced what is swapped."),
 "invented-cause": ("brief", "A motive, cause or requirement the record does not state is added ('GDPR requires')."),
 "invented-outcome": ("brief", "A benefit the record does not report is added ('removed the lag users saw', 'ingestion became more reliable')."),
 "other-company": ("brief", "Another company is named as doing or originating the work, in any section."),
 "open-sourced": ("brief", "Claims the company open-sourced, released or made publicly available a system."),
 "sentiment-praise": ("brief", "Evaluative praise is added ('impressively engineered', 'elegant fix')."),
 "generalisation": ("brief", "Our sections generalise one company's result to all teams ('as in every on-call rotation')."),
 "superlative": ("brief", "An unsupported superlative or first is added ('one of the largest')."),
 "relative-time": ("brief", "A relative time expression is added ('last year', 'recently')."),
 "estimate-as-fact": ("brief", "A plan or estimate in the record is stated as an achieved or measured fact."),
 "approximation-dropped": ("brief", "Hedge dropped: 'about', 'roughly' are removed, so an approximate figure reads as exact."),
 "fake-quote": ("brief", "The quote is not verbatim: hedges or a condition removed, phrasing altered."),
 "misattributed-technique": ("brief", "A result is credited to the wrong technique or component of the same record."),
 "advice-in-reports": ("brief", "Advice put in the company's mouth: a reported statement says the source recommends what it only describes."),
 "scope-inflation": ("invented", "A figure or result stated for a subset (batch capacity, one region) is widened to the whole system."),
 "negation-dropped": ("invented", "A negation in the record is dropped, so the statement says the opposite ('has not been automated' -> 'has been automated')."),
 "joined-claims": ("invented", "A statement joins the subject of one source sentence with the result or figure of another, implying a link the source does not make."),
 "figure-swapped-between-sources": ("brief", "Articles: a figure of one source is stated in another source's block."),
 "quote-from-other-source": ("brief", "Articles: a verbatim quote from source B is used in source A's block."),
 "comparison-misstated": ("brief", "Articles: the shared interpretation says company X did what company Y did."),
 "claim-swapped": ("brief", "Articles: a claim made by source B is attributed to source A."),
}

DESCRIPTION = "prepguide test corpus: synthetic source records, faithful drafts, one-error variants and roundup articles. All record content, including every company name, is invented for testing."

def write(record_ids, slugs, variants, article_variants, kinds=None, description=None):
    """Write manifest.yaml; kinds and description default to this corpus's own."""
    KINDS = kinds or globals()["KINDS"]
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
        "description": description or DESCRIPTION,
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
