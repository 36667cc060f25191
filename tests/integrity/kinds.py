"""Every edit kind, its group, and the rule-id families allowed to catch it.

A wrong edit counts as detected only when a blocking error comes from one of its families
(a prefix ending in "." names a family, anything else one rule id). Legitimate kinds list
no family: any new blocking error on them is a false flag.
"""

from __future__ import annotations

from .model import Kind

G = ("grounding.",)

# wrong: claims in "What X reports", and figures
TERM = Kind("invented_term", "wrong", G, "a technology or product the record never names")
SUPERLATIVE = Kind("superlative", "wrong", G, "a superlative the evidence does not state")
OUTCOME = Kind("invented_outcome", "wrong", (*G, "figures."), "an outcome the record lacks")
NEGATION = Kind("negation_flip", "wrong", G, "not/no/never/without added, dropped or flipped")
HEDGE = Kind("hedge_flip", "wrong", G, "a hedge or quantifier changed (only, all, may, ...)")
ACTOR = Kind("other_actor", "wrong", G, "another company named as the actor")
COMPONENT = Kind("wrong_component", "wrong", G, "a result credited to the wrong component")
JOINED = Kind("joined_claim", "wrong", G, "subject and result from two source sentences")
SWAP = Kind(
    "figure_swap", "wrong", ("figures.", "grounding."), "record figures moved between claims"
)
UNIT = Kind("unit_change", "wrong", ("figures.",), "the unit after a number changed")
MAGNITUDE = Kind(
    "magnitude_word", "wrong", ("figures.", "grounding.claim"), "a magnitude word not in evidence"
)
NUMWORD = Kind("number_word", "wrong", ("figures.",), "a small number word changed or added")
CHANGED = Kind("changed_figure", "wrong", ("figures.",), "a figure changed (caught before)")
WITHIN = Kind(
    "within_claim_swap", "limit", ("figures.", "grounding."), "two figures of one claim swapped"
)
DIRECTION = Kind(
    "direction_flip", "limit", G, "meaning reversed with the same terms and no polarity word"
)

# wrong: hidden text, quotes, advice, our sections, and the classes caught before
COMMENT = Kind("html_comment", "wrong", ("hidden.",), "instructions hidden in an HTML comment")
INJECTION = Kind("injection", "wrong", ("hidden.",), "text addressed to the reviewer or a model")
INVISIBLE = Kind("invisible_chars", "wrong", ("hidden.",), "zero-width or bidi control characters")
AI_ENDING = Kind("ai_ending", "wrong", ("hidden.", "leftovers."), "a conversational AI ending")
QUOTE_OUT = Kind(
    "quote_outside_reports",
    "wrong",
    ("quotes.",),
    "a quote in the company's mouth outside reports",
)
ELLIPSIS = Kind("ellipsis_stitch", "wrong", ("quotes.",), "an ellipsis stitching fragments")
PARAPHRASE = Kind(
    "paraphrased_advice", "wrong", ("attribution.",), "advice paraphrased into the company's mouth"
)
PRODUCT = Kind("product_advice", "wrong", ("attribution.",), "advice put in a product's mouth")
DIRECT = Kind("direct_advice", "wrong", ("attribution.",), "direct-verb advice (caught before)")
COPIED = Kind("copied_verbatim", "wrong", ("ours.",), "our section copies a record sentence")
NEAR = Kind("copied_near", "wrong", ("ours.",), "our section nearly copies a record sentence")
ANGLE = Kind(
    "angle_sentence", "wrong", ("ours.", "structure.angle"), "the angle is a whole source sentence"
)
HEADINGS = Kind(
    "heading_limits",
    "wrong",
    ("ours.", "structure.angle"),
    "angle or case-study title too long, with figures or sentence punctuation",
)
DUPLICATE = Kind(
    "duplicate_steps", "wrong", ("ours.", "steps."), "a duplicate or near-duplicate step"
)
STEP_FORM = Kind("step_form", "wrong", ("ours.", "steps."), "a step that is not one imperative")
OURS_FIGURE = Kind(
    "figure_ours",
    "wrong",
    ("figures.",),
    "a figure about the company in our sections that the record lacks",
)
QUOTE_IN = Kind(
    "invented_quote", "wrong", ("quotes.",), "an invented quote in reports (caught before)"
)
LINK = Kind("foreign_link", "wrong", ("links.",), "a link in no citation (caught before)")
STRUCTURE = Kind("structure_break", "wrong", ("structure.",), "headings or disclaimer broken")
CITATION = Kind("citation_edit", "wrong", ("citations.", "originals."), "the originals edited")
LEFTOVER = Kind("template_leftover", "wrong", ("leftovers.",), "template or placeholder leftovers")

# legitimate: edits to "What X reports"
ROUNDING = Kind("rounding", "legit", (), "consistent rounding with about/over/more than/nearly")
ARITHMETIC = Kind("arithmetic", "legit", (), "an exact arithmetic restatement")
FORMAT = Kind("figure_format", "legit", (), "the same figure written another way")
FRAMING = Kind("attribution_framing", "legit", (), "a reported sentence framed as the source's")
CUT = Kind("shortened_reports", "legit", (), "reported sentences removed or reordered")
STYLE = Kind("reports_style", "legit", (), "punctuation and style in reports")
QUOTE = Kind("verbatim_quote", "legit", (), "the company quoted verbatim")

# legitimate: edits to our sections
REWORD = Kind("reworded_ours", "legit", (), "our own sections reworded")
REORDER = Kind("reordered_ours", "legit", (), "our sentences or steps reordered or cut")
OWN = Kind("own_sentence", "legit", (), "a new sentence of our own")
INSTRUCTION = Kind("instruction_numbers", "legit", (), "numbers in instructions to the reader")
QUOTE_OURS = Kind("verbatim_quote_ours", "legit", (), "the company quoted verbatim in our sections")
MENTION = Kind("company_mention", "legit", (), "the company or a record figure named correctly")
HEADING = Kind("heading_reword", "legit", (), "a short angle or case-study title of our own")
TYPO = Kind("typo_and_style", "legit", (), "spelling, punctuation and layout fixes")
STEPS = Kind("steps_edit", "legit", (), "steps reworded, added or reordered")

# The classes the hostile evaluation of issue 13 found "caught never"; each needs at least
# three different wordings (templates).
CAUGHT_NEVER = (
    TERM,
    SUPERLATIVE,
    OUTCOME,
    NEGATION,
    HEDGE,
    ACTOR,
    COMPONENT,
    COMMENT,
    INJECTION,
    SWAP,
    UNIT,
    MAGNITUDE,
    NUMWORD,
    QUOTE_OUT,
    ELLIPSIS,
    PARAPHRASE,
    PRODUCT,
    COPIED,
    NEAR,
    ANGLE,
    HEADINGS,
    DUPLICATE,
    INVISIBLE,
    AI_ENDING,
)
