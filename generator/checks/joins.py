"""Claims that join two record sentences: words or names taken from a sentence other than
the claim's evidence, or a name moved to another place in its own evidence sentence."""

from __future__ import annotations

import re
from functools import lru_cache

from generator.checks.claims import COMPANY_WORDS
from generator.checks.claimwords import OUTCOMES
from generator.checks.text import (
    LEAD_IN,
    STOP,
    WORD,
    RecordIndex,
    Unit,
    _text_names,
    _unit,
    stem,
    stems,
    words,
)

BREAK = re.compile(r"[,;:()\[\]]|\.\s|\s[-–—]\s")
JOINED = "grounding.joined"


@lru_cache(maxsize=16384)
def _chunks(text: str) -> tuple[tuple[str, ...], ...]:
    """Return the content stems of a text, chunk by chunk between punctuation."""
    out = []
    for chunk in BREAK.split(text):
        stemmed = tuple(s for s in stems(chunk) if s not in STOP)
        if stemmed:
            out.append(stemmed)
    return tuple(out)


# Adverbs and discourse words that join any two phrases: a pair with one says nothing of
# which sentence a claim's words come from ("hours instead", "now takes").
LINKERS = frozenset(
    ["instead", "rather", "now", "still", "even", "only", "already", "today", "again"]
    + ["currently", "then", "later", "first", "roughly", "nearly", "almost", "approximately"]
)
# A reporting lead-in says who reports, not what: "The team says", "Stripe reports that".
REPORTING = re.compile(
    r"^\W*(?:(?:the|its|their)\s+)?(?:[\w-]+\s+){0,2}?(?:team|company|authors?|engineers"
    r"|write-?up|post|article|paper|blog|[A-Z][\w-]*)\s+(?:says?|said|reports?|reported"
    r"|writes?|wrote|notes?|noted|explains?|explained|describes?|described|estimates?"
    r"|estimated|states?|stated)\s+(?:that\s+)?",
)


def reported_part(text: str) -> str:
    """Return a claim without its lead-ins ("According to X,", "The team says that")."""
    core = LEAD_IN.sub("", text.strip())
    return REPORTING.sub("", core, count=1) or core


def _content_pair(a: str, b: str) -> bool:
    return not (
        a in STOP or b in STOP or a in LINKERS or b in LINKERS or a[:1].isdigit() or b[:1].isdigit()
    )


@lru_cache(maxsize=16384)
def bigrams(text: str) -> frozenset[tuple[str, str]]:
    """Return the pairs of adjacent content words of a text (as stems), figures aside."""
    pairs = set()
    for chunk in BREAK.split(text):
        stemmed = stems(chunk)
        for a, b in zip(stemmed, stemmed[1:], strict=False):
            if _content_pair(a, b):
                pairs.add((a, b))
    return frozenset(pairs)


def borrowed(
    claim: str, unit: Unit, index: RecordIndex, own: set[str]
) -> list[tuple[str, str, str]]:
    """Find word pairs of a claim that another record sentence holds and its evidence lacks.

    The record's titles name its main subject, so their pairs may join any claim about it.
    """
    evidence = bigrams(unit.text)
    titles = frozenset().union(*(bigrams(t) for t in index.titles))
    found = []
    for a, b in sorted(bigrams(reported_part(claim)) - evidence - titles):
        if a in own or b in own or (a in unit.all_stems and b in unit.all_stems):
            continue
        if any((a, b) in bigrams(other.text) for other in index.units if other is not unit):
            term = f"{a} {b}"
            found.append(
                (JOINED, term, f"{term!r} comes from another sentence of the record than this one")
            )
    return found


LEAD = re.compile(
    r"^\W*(?:according\s+to\s+[^,:]{1,60}[,:]\s*|(?:in\s+)?(?:the|a|an|its|their)\s+)",
    re.IGNORECASE,
)


# An evidence sentence whose subject is a pronoun or a stand-in ("They report …", "The team
# cut …") is about the subject of the sentence before it.
PRONOUN = re.compile(
    r"^\W*(?:they|it|we|he|she|these|this|the\s+(?:team|company|firm|engineers|authors|group"
    r"|organi[sz]ation))\b",
    re.IGNORECASE,
)
# What a pronoun's subject may be called in a claim: the company's people stand for it.
STAND_INS = frozenset(
    stem(w) for w in ["team", "company", "firm", "engineers", "authors", "group", "organisation"]
) | frozenset(stems("organization engineer author"))
SUBJECT_WORDS = 4
DIGITS = re.compile(r"\d[\d.,]*\d|\d")
# A scale item that states a change ("consumer breakages from 11 to one") is a result.
CHANGE = re.compile(
    r"(?i)\bfrom\b.+\bto\b|\b(?:down|up|fell|rose|dropped|cut|reduced|grew|increased"
    r"|decreased|halved|doubled|tripled)\b"
)


def another_result(item: str, unit: Unit) -> bool:
    """Return True when a scale item states a change that its evidence sentence does not name.

    Joined to that sentence's action, a claim would credit the action with the change.
    """
    if not CHANGE.search(item):
        return False
    named = {s for s in stems(item) if s not in STOP and not DIGITS.fullmatch(s)}
    return not named & set(stems(unit.text))


# Words that end a subject: its verb ("cut", "reports", any -ed form) or a figure.
VERBS = frozenset(
    ["is", "are", "was", "were", "has", "have", "had", "cut", "cuts", "built", "ran", "runs"]
    + ["grew", "fell", "rose", "report", "reports", "uses", "use", "serves", "handles", "keeps"]
    + ["says", "said", "sends", "routes", "processes", "stores", "powers", "makes", "made"]
    + ["moves", "saw", "sees", "hit", "hits", "reached", "spans", "takes", "took", "can"]
    + ["kept", "sent", "held", "led", "won", "found", "got", "went", "put", "set", "shrank"]
    + ["drove", "brought", "paid", "wrote", "spent", "gave", "began", "chose", "rebuilt"]
    + ["will", "would", "could", "may", "might", "must", "should", "does", "did", "do"]
    + ["reruns", "predicts", "plans", "flags", "tries", "finds", "compares", "replans"]
)


def opening(text: str) -> tuple[str, ...]:
    """Return the content stems of a sentence's subject: its words before the verb."""
    found = []
    for token in words(LEAD.sub("", LEAD_IN.sub("", text.strip())))[:6]:
        if _verbish(token) or any(ch.isdigit() for ch in token):
            break
        found.extend(s for s in stems(token) if s not in STOP)
    return tuple(found[:SUBJECT_WORDS])


def _verbish(token: str) -> bool:
    lowered = token.casefold()
    return lowered in VERBS or (token.islower() and len(token) > 3 and lowered.endswith("ed"))


def subject_of(unit: Unit, index: RecordIndex) -> frozenset[str]:
    """Return a record sentence's subject stems, a pronoun resolved to the sentence before it.

    A pronoun may stand for that sentence's subject or for a name it introduces ("Stripe built
    Ledger, … It processes …").
    """
    units = index.units
    if not PRONOUN.match(unit.text) or unit not in units:
        return frozenset(opening(unit.text))
    at = units.index(unit)
    for before in reversed(units[:at]):
        if not PRONOUN.match(before.text):
            names = {s for name in _text_names(before.text) for s in stems(name)}
            return frozenset(opening(before.text)) | names | STAND_INS
    return STAND_INS


def borrowed_subject(
    claim: str, unit: Unit, index: RecordIndex, own: set[str]
) -> list[tuple[str, str, str]]:
    """Find a claim's opening word (its subject) taken from another sentence than its result."""
    opening = words(LEAD.sub("", reported_part(claim)))[:1]
    if not opening:
        return []
    key = stems(opening[0])[-1] if stems(opening[0]) else ""
    if not key or key in STOP or key in own or key in unit.all_stems:
        return []
    if any(key in stems(title) for title in index.titles):
        return []  # the system a record is about may carry any of its results
    if PRONOUN.match(unit.text) and key in subject_of(unit, index):
        return []  # "The team reports …" for "They report …"
    if not any(key in other.all_stems for other in index.units if other is not unit):
        return []
    word = opening[0]
    return [(JOINED, word, f"{word!r} comes from another sentence of the record than the result")]


# Where a phrase ends for its neighbours: a parenthesis names the phrase before it, so it
# does not break it.
PHRASE_BREAK = re.compile(r"[,;:\[\]]|\.\s|\s[-–—]\s")


@lru_cache(maxsize=16384)
def _sequence(text: str) -> tuple[str, ...]:
    """Return a text's content stems, phrase by phrase, with "" where punctuation breaks them."""
    out: list[str] = []
    for chunk in PHRASE_BREAK.split(text):
        out.extend(s for s in stems(chunk) if s not in STOP)
        out.append("")
    return tuple(out)


def _neighbours(sequence: tuple[str, ...], phrase: tuple[str, ...]) -> list[tuple[str, str]]:
    """Return the content stems before and after each place a phrase occurs in a sequence
    ("" across punctuation: words of another phrase are no neighbours)."""
    n = len(phrase)
    out = []
    for i in range(len(sequence) - n + 1):
        if sequence[i : i + n] == phrase:
            before = sequence[i - 1] if i > 0 else ""
            after = sequence[i + n] if i + n < len(sequence) else ""
            out.append((before, after))
    return out


# A name the evidence gives to the phrase before it: "an architecture (Kunlun)", "a platform
# called Shepherd". The name may stand wherever that phrase stands.
ALIAS = r"(?:\(\s*{0}\s*\)|\b(?:called|named|dubbed|known\s+as)\s+(?:the\s+)?{0}\b)"


def _alias(name: str, text: str) -> bool:
    return re.search(ALIAS.format(re.escape(name)), text, re.IGNORECASE) is not None


def _named_phrase(sequence: tuple[str, ...], phrase: tuple[str, ...]) -> set[str]:
    """Return the stems of the phrase just before each place a name stands in a sequence."""
    n = len(phrase)
    out: set[str] = set()
    for i in range(len(sequence) - n + 1):
        if sequence[i : i + n] == phrase:
            before = []
            for word in reversed(sequence[max(0, i - 8) : i]):
                if not word:
                    break
                before.append(word)
            out.update(before)
    return out


def misplaced(
    claim: str,
    unit: Unit,
    named: list[tuple[str, tuple[str, ...]]],
    own: set[str],
) -> list[tuple[str, str, str, bool]]:
    """Find names of a claim standing beside words that its evidence gives to another name.

    Each finding holds for the whole sentence: splitting it into clauses cannot clear it.
    """
    claim_sequence = _sequence(claim)
    evidence_sequence = _sequence(unit.text)
    phrases = {}
    compounds = [(t, stems(t)) for t in {w for w in words(claim) if "-" in w and w.islower()}]
    for name, name_stems in [*named, *sorted(compounds)]:
        phrase = tuple(s for s in name_stems if s not in STOP)
        if phrase and not all(p in own for p in phrase) and _neighbours(evidence_sequence, phrase):
            phrases[name] = phrase
    found = []
    for name, phrase in phrases.items():
        stated = _neighbours(evidence_sequence, phrase)
        befores = {b for b, _ in stated}
        afters = {a for _, a in stated}
        if _alias(name, unit.text):  # "the Kunlun architecture" for "an architecture (Kunlun)"
            named_phrase = _named_phrase(evidence_sequence, phrase)
            befores |= named_phrase
            afters |= named_phrase
        others = [
            p
            for n, p in phrases.items()
            if n != name and not set(p) & set(phrase) and (len(p) > 1 or n != n.casefold())
        ]
        sides = set().union(*(_sides(other, evidence_sequence) for other in others))
        for before, after in _neighbours(claim_sequence, phrase):
            if (before and before not in befores and (before, "") in sides) or (
                after and after not in afters and ("", after) in sides
            ):
                message = f"{name!r} stands where its evidence sentence names another"
                found.append((JOINED, name, message, True))
                break
    return found


def swapped(
    claim: str,
    unit: Unit,
    named: list[tuple[str, tuple[str, ...]]],
    own: set[str],
) -> list[tuple[str, str, str, bool]]:
    """Find a name of the claim, absent from its evidence sentence, that stands between the
    very words where that sentence names another one the claim leaves out ("racks (Prometheus
    on GB200" for "racks (Catalina on GB200")."""
    claim_sequence = _sequence(claim)
    evidence_sequence = _sequence(unit.text)
    said = set(claim_sequence)
    others = [
        (other, tuple(s for s in stems(other) if s not in STOP))
        for other in sorted(_text_names(unit.text))
    ]
    found = []
    for name, name_stems in named:
        phrase = tuple(s for s in name_stems if s not in STOP)
        if not phrase or all(p in own for p in phrase) or _neighbours(evidence_sequence, phrase):
            continue  # in its evidence sentence, misplaced() judges where it stands
        slots = {(b, a) for b, a in _neighbours(claim_sequence, phrase) if b and a}
        for other, theirs in others:
            if not theirs or set(theirs) & (said | set(phrase)):
                continue
            if slots & set(_neighbours(evidence_sequence, theirs)):
                message = f"{name!r} stands where its evidence sentence names {other!r}"
                found.append((JOINED, name, message, True))
                break
    return found


def _sides(phrase: tuple[str, ...], sequence: tuple[str, ...]) -> set[tuple[str, str]]:
    """Return (before, "") and ("", after) for each place a phrase occurs in a sequence."""
    out = set()
    for before, after in _neighbours(sequence, phrase):
        out.add((before, ""))
        out.add(("", after))
    return out


def co_evidence(
    claim: str,
    unit: Unit,
    index: RecordIndex,
    scale: tuple[str, ...],
    own: frozenset[str] = frozenset(),
) -> Unit | None:
    """Join an evidence sentence with the record sentences about the same subject as the claim.

    A claim may rest on several sentences that share its subject (a pronoun resolved to the
    subject before it), and on the scale items whose figures it states. A claim whose subject
    is the company (its name's stems, own) shares it with sentences about its team or engineers.
    """
    subject = set(opening(claim))
    if subject & own:
        subject |= STAND_INS
    scale_items = set(scale)
    figures = set(DIGITS.findall(claim))
    stated = set(DIGITS.findall(unit.text))
    shared = bool(subject) and bool(subject & subject_of(unit, index))
    others = []
    for other in index.units:
        if other is unit or other.text in index.titles:
            continue
        if other.text in scale_items:
            # A scale item that restates the evidence's own figures is the same fact.
            items = set(DIGITS.findall(other.text))
            if figures & items and (
                items <= stated or (shared and not another_result(other.text, unit))
            ):
                others.append(other.text)
        elif shared and subject & subject_of(other, index):
            others.append(other.text)
    if not others:
        return None
    return _unit(". ".join(t.rstrip(". ") for t in [unit.text, *others]) + ".")


# A sentence that refers back to the one before it: a pronoun subject, or a definite noun that
# names what that sentence described ("… reduced the effect", "this problem").
ANAPHOR = re.compile(
    r"(?i)^\W*(?:this|that|these|those|it|they)\b|\b(?:the|this|that|these|those)\s+"
    r"(?:effect|effects|problem|problems|issue|issues|bias|gap|trend|behaviou?r|pattern"
    r"|bottleneck|limitation|risk|symptom|impact)\b"
)


def with_antecedent(unit: Unit, index: RecordIndex) -> Unit | None:
    """Join a record sentence that refers back with the sentence before it, or return None."""
    units = index.units
    if unit not in units or not ANAPHOR.search(unit.text):
        return None
    at = units.index(unit)
    if at == 0 or units[at - 1].text in index.titles:
        return None
    before = units[at - 1].text
    return _unit(f"{before.rstrip('. ')}. {unit.text}")


def spliced(sentence: str, clauses: list[str], evidence: list[str]) -> list[tuple[str, str, str]]:
    """Find a clause with no subject of its own ("…, and cut storage by 31%") whose evidence
    gives its verb another subject than the sentence's: a result spliced onto a subject."""
    opening = [stem(w) for w in words(LEAD.sub("", LEAD_IN.sub("", sentence.strip())))[:6]]
    subject = {w for w in opening[:4] if w not in STOP}
    if not subject:
        return []
    problems = []
    for clause, text in zip(clauses[1:], evidence[1:], strict=True):
        first = words(clause)[:1]
        if not first or not first[0].islower():
            continue
        verb = stem(first[0])
        if verb not in OUTCOMES and not first[0].endswith("ed"):
            continue
        keys = [stem(t) for t in words(text) if t.casefold() not in STOP]
        if verb in keys:
            at = keys.index(verb)
            head = next((k for k in reversed(keys[:at]) if not k.endswith("ly")), "")
            if not head or head in subject or head in COMPANY_WORDS:
                continue
        elif subject & set(keys):
            continue
        problems.append(
            (
                "grounding.joined",
                clause,
                f"{clause!r} has no subject of its own, and its evidence says who did it: "
                "not the subject of this sentence",
            )
        )
    return problems


# What ties an effect to the phrase just before it: "…, which cut …", "…, cutting …".
CLAIM_TIE = re.compile(r"(?i)(?:,\s*(?:which|that)?|\s(?:which|that))\s*\Z")
EVIDENCE_TIE = re.compile(r"(?i)(?:,\s*(?:which|that)?|\s(?:which|that|to))\s*\Z")
# Where one action of a sentence ends and the next begins.
ACTION_BREAK = re.compile(r"[,;:]\s*|\s+(?:and|then|before|after|while)\s+")
AGENT_WORDS = 2  # content words of the evidence's action before a claim that drops it is wrong


def _tied(text: str, at: int, tie: re.Pattern[str], participle: bool) -> str:
    """Return the action just before an effect verb at a position, when it is tied to it."""
    before = text[:at]
    hit = tie.search(before)
    if hit is None or (not participle and hit.group().strip(" ,") == ""):
        return ""
    pieces = [p for p in ACTION_BREAK.split(before[: hit.start()]) if p.strip()]
    return pieces[-1] if pieces else ""


def credited_elsewhere(claim: str, unit: Unit) -> list[tuple[str, str, str, bool]]:
    """Find an effect the claim ties to an action ("…, which cut memory") that its evidence
    ties to another action the claim leaves out ("… and compressed vectors, cutting memory")."""
    found: list[tuple[str, str, str, bool]] = []
    evidence = unit.text
    claim_stems = set(stems(claim))
    for hit in WORD.finditer(claim):
        verb = stem(hit.group())
        if verb not in OUTCOMES:
            continue
        participle = hit.group().casefold().endswith("ing")
        ours = _tied(claim, hit.start(), CLAIM_TIE, participle)
        after = [s for s in stems(claim[hit.end() :]) if s not in STOP][:1]
        if not ours or not after:
            continue
        for other in WORD.finditer(evidence):
            if stem(other.group()) != verb:
                continue
            rest = stems(evidence[other.end() :])
            if [s for s in rest if s not in STOP][:1] != after:
                continue
            theirs = _tied(evidence, other.start(), EVIDENCE_TIE, True)
            agent = {s for s in stems(theirs) if s not in STOP and not s[:1].isdigit()}
            agent -= set(rest)
            if len(agent) < AGENT_WORDS or agent & claim_stems:
                continue
            earlier = set(stems(evidence[: evidence.find(theirs)])) if theirs else set()
            kept = {s for s in stems(ours) if s not in STOP and not s[:1].isdigit()}
            if len(kept & earlier) >= AGENT_WORDS:
                effect = " ".join(words(claim[hit.start() :])[:3])
                message = (
                    f"{effect!r} is credited to another action than its evidence's "
                    f"{theirs.strip()!r}"
                )
                found.append((JOINED, effect, message, True))
                break
    return found
