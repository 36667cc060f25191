"""The registry's entries for the claim rules: figures, quotations, grounding and advice."""

from __future__ import annotations

from generator.checks.examples import (
    ALL,
    CASE,
    INTERPRETATION,
    S1,
    S2,
    S3,
    C,
    I,
    P,
    R,
    RuleDoc,
    _ex,
    _in,
)

CLAIM_DOCS: tuple[RuleDoc, ...] = (
    RuleDoc(
        "figures.reports",
        "error",
        (R,),
        "a figure (digits, magnitude or number word) in reports that the record lacks",
        _ex(S1, f"{S1} Meta cut serving costs by 37%."),
        _ex(S1, f"{S1} Meta apps reach more than 3 billion daily users."),
    ),
    RuleDoc(
        "figures.claim",
        "error",
        (R,),
        "a reported figure that the record states, but not in the claim's evidence sentence",
        _ex(S1, "Meta replaced separate ad prediction systems with 4x the GEM surfaces."),
        _ex(S1, "Custom kernels used 4x the training FLOPs."),
    ),
    RuleDoc(
        "figures.unit",
        "error",
        (R,),
        "a reported figure counting a different thing than its evidence (hours → days)",
        _ex(S3, "Mean time between interruptions passed 54K GPU days."),
        _ex(S3, "Mean time between interruptions passed over 50K GPU hours."),
    ),
    RuleDoc(
        "figures.attributed",
        "error",
        (I, C, P),
        "a figure about the company, its publisher or its systems, or given for a metric the "
        "record measures in percent, that the record lacks",
        _ex(*_in(CASE, "GEM runs on 12,000 GPUs.")),
        _ex(*_in(CASE, "Summarise Meta's approach in under 300 words.")),
    ),
    RuleDoc(
        "figures.prose",
        "warning",
        (I, C, P),
        "a figure in our sentences the record lacks (our own, but worth a look)",
        _ex(*_in(CASE, "A run of 12 epochs shows the trend.")),
        _ex(*_in(CASE, "Train for 12 epochs and record the results.")),
    ),
    RuleDoc(
        "quotes.verbatim",
        "error",
        (R,),
        "a quotation in reports that is not verbatim in the record",
        _ex(S1, 'Meta calls GEM "a revolution in ads".'),
        _ex(S1, 'Meta says it "replaced separate per-surface ad prediction systems".'),
    ),
    RuleDoc(
        "quotes.attributed",
        "error",
        (I, C, P),
        "a quotation attributed to the company, its people or systems that is not verbatim",
        _ex(*_in(INTERPRETATION, 'As Meta puts it, "GEM changed everything."')),
        _ex(
            *_in(
                INTERPRETATION,
                'As Meta puts it, "Meta replaced separate per-surface '
                'ad prediction systems with GEM."',
            )
        ),
    ),
    RuleDoc(
        "quotes.ellipsis",
        "error",
        ALL,
        "an ellipsis joining more than two fragments, or fragments of different sentences",
        _ex(S1, 'Meta says "Meta replaced separate … 54K GPU hours".'),
        _ex(S1, 'Meta says "Meta replaced separate … systems with GEM".'),
    ),
    RuleDoc(
        "grounding.term",
        "error",
        ALL,
        "a proper noun, acronym, product, technical term or tool (using X) the record never "
        "names, in reports or in our sentence about the company",
        _ex(S1, f"{S1} The cluster runs on Slurm."),
        _ex(S1, "Meta swapped its separate per-surface ad prediction systems for GEM."),
    ),
    RuleDoc(
        "grounding.actor",
        "error",
        ALL,
        "another company (of the database, or a well-known one) named in a reported sentence "
        "or in our sentence about the company",
        _ex(S1, "Shopify replaced separate per-surface ad prediction systems with GEM."),
        _ex(S1, "Meta replaced per-surface ad prediction systems with GEM."),
    ),
    RuleDoc(
        "grounding.polarity",
        "error",
        ALL,
        "a negation, hedge or quantifier (not, without, only, all, may, probably…) the evidence "
        "lacks; in our sentence about the company, always, never, every, all, only…",
        _ex(
            S1,
            "Post-training transfer (LoopFM) passes GEM's gains to "
            "serving models with extra latency.",
        ),
        _ex(
            S1,
            "Post-training transfer (LoopFM) passes GEM's gains to serving models with no "
            "extra latency.",
        ),
    ),
    RuleDoc(
        "grounding.claim",
        "error",
        ALL,
        "a superlative (-est, most, first, no one else), outcome, cause or motive the evidence "
        "does not state, or a lesson credited to the company (X's experience shows that …)",
        _ex(S1, "GEM is the first system of its kind, and it halved on-call pages."),
        _ex(S1, "Custom kernels doubled end-to-end training efficiency."),
    ),
    RuleDoc(
        "grounding.joined",
        "error",
        (R,),
        "a claim joining one sentence's subject with another sentence's result, names swapped, "
        "or a result credited to another action than its evidence's",
        _ex(S1, "LoopFM doubled end-to-end training efficiency."),
        _ex(S1, "5D parallelism doubled end-to-end training efficiency."),
    ),
    RuleDoc(
        "grounding.direction",
        "error",
        ALL,
        "a claim turning its evidence around: higher/lower, before/after, from/to, what "
        "replaced what",
        _ex(S1, "Meta replaced GEM with separate per-surface ad prediction systems."),
        _ex(S1, "Meta swapped its separate per-surface ad prediction systems for GEM."),
    ),
    RuleDoc(
        "grounding.time",
        "error",
        ALL,
        "a year, date or relative time (last year, recently, for the first time) the evidence "
        "lacks",
        _ex(S1, "Last year, Meta replaced separate per-surface ad prediction systems with GEM."),
        _ex(S1, "Meta replaced its separate per-surface ad prediction systems with GEM."),
    ),
    RuleDoc(
        "grounding.release",
        "error",
        ALL,
        "a release or availability (open-sourced, released, publicly available, launched) the "
        "evidence lacks",
        _ex(S1, f"{S1[:-1]} and open-sourced it."),
        _ex(S1, "Meta replaced its separate per-surface ad prediction systems with GEM."),
    ),
    RuleDoc(
        "grounding.sentiment",
        "error",
        ALL,
        "an evaluation or feeling (impressive, loved, praised, struggled) the evidence lacks",
        _ex(S1, "Meta impressively replaced separate per-surface ad prediction systems with GEM."),
        _ex(S1, "Meta replaced its separate per-surface ad prediction systems with GEM."),
    ),
    RuleDoc(
        "grounding.hiring",
        "error",
        ALL,
        "a hiring or interview claim about the company (is hiring, open roles, asks about it "
        "in interviews) the record lacks",
        _ex(*_in(INTERPRETATION, "Meta's ads team asks about MFU in its interviews.")),
        _ex(*_in(INTERPRETATION, "Interviewers for ML roles often ask how MFU is computed.")),
    ),
    RuleDoc(
        "grounding.plan",
        "error",
        ALL,
        "a plan or intention of the company (plans to, will next, on its roadmap) the evidence "
        "lacks",
        _ex(S1, f"{S1} Meta plans to extend GEM to organic posts next."),
        _ex(S1, "Meta replaced its separate per-surface ad prediction systems with GEM."),
    ),
    RuleDoc(
        "grounding.comparison",
        "error",
        ALL,
        "a comparison with the industry or other providers (above the industry average, "
        "unlike most companies) the evidence does not make",
        _ex(S2, "Custom low-precision kernels doubled training efficiency, unlike most companies."),
        _ex(S2, "Custom low-precision kernels doubled end-to-end training efficiency."),
    ),
    RuleDoc(
        "attribution.advice",
        "error",
        ALL,
        "advice, a lesson or an endorsement in the company's or its systems' mouth, paraphrased",
        _ex(*_in(INTERPRETATION, "The engineers behind GEM advise profiling first.")),
        _ex(*_in(INTERPRETATION, "We suggest profiling first, as Meta's write-up shows.")),
    ),
)
