"""The OpenAI drafter: structured drafts from any OpenAI-compatible Chat Completions endpoint."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

import httpx2
import openai
from openai import AsyncOpenAI
from openai.lib._parsing import type_to_response_format_param
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from generator.core.errors import AuthError, DraftError
from generator.core.names import plural
from generator.drafting.prompts import PromptSet
from generator.drafting.protocol import OPENAI_DRAFTER_VERSION, DraftResult, Revision
from generator.drafting.repair import (
    MAX_ERRORS_SENT,
    QUOTE_RULE,
    SCHEMA_RULE,
    error_lines,
    finding_lines,
    rules_of,
    schema_errors,
)
from generator.guides.document import RepairRound, Usage
from generator.guides.findings import Finding
from generator.guides.project import Project
from generator.guides.schema import Draft
from generator.llm.cache import CachedResponse, ResponseCache, request_key
from generator.llm.calllog import CallLog, CallRecord
from generator.llm.client import make_client
from generator.sources.records import Source

DRAFTER_VERSION = OPENAI_DRAFTER_VERSION
CHAT_COMPLETIONS = "/chat/completions"
MAX_REASKS = 2
# Call log rows are committed together this long after the first uncommitted one, and on close:
# a SIGKILL loses at most the last half second of log rows, never a guide or a cached answer.
LOG_COMMIT_DELAY = 0.5
RESPONSE_FORMAT: dict[str, Any] = type_to_response_format_param(Draft)  # type: ignore[assignment]
# The content checks of a draft's guide (composed as it would be written): its findings.
Checker = Callable[[Source, Draft], list[Finding]]
_SPACE = re.compile(r"\s+")
_QUOTE_MARKS = " \"'“”‘’«»…"


def _squash(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def quote_problems(draft: Draft, source: Source) -> list[str]:
    """List every reported statement whose quote is not verbatim in the source text."""
    haystack = _squash(source.source_text)
    problems = []
    for index, statement in enumerate(draft.reported):
        quote = _squash(statement.quote).strip(_QUOTE_MARKS)
        if not quote or quote not in haystack:
            problems.append(
                f"reported.{index}.quote: {statement.quote!r} is not a verbatim span of the "
                "source; copy the supporting words exactly from the source data"
            )
    return problems


def validate_answer(content: str, source: Source) -> tuple[Draft | None, list[str], str]:
    """Parse a model answer into a Draft; return it, or the errors and the rule they break."""
    try:
        draft = Draft.model_validate_json(content)
    except ValidationError as exc:
        return None, schema_errors(exc), SCHEMA_RULE
    problems = quote_problems(draft, source)
    if problems:
        return None, problems[:MAX_ERRORS_SENT], QUOTE_RULE
    return draft, [], ""


def validate_content(content: str, source: Source) -> tuple[Draft | None, list[str]]:
    """Parse a model answer into a Draft; return it, or the errors to send back."""
    draft, errors, _ = validate_answer(content, source)
    return draft, errors


# No call counts more tokens than this; a bigger number is a broken server, not usage (and
# SQLite stores at most 2**63 - 1).
MAX_TOKEN_COUNT = 2**31 - 1
_Count = Annotated[StrictInt, Field(ge=0, le=MAX_TOKEN_COUNT)]


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore")


class PromptTokenDetails(_Lenient):
    cached_tokens: _Count | None = None


class CompletionUsage(_Lenient):
    prompt_tokens: _Count | None = None
    completion_tokens: _Count | None = None
    total_tokens: _Count | None = None
    prompt_tokens_details: PromptTokenDetails | None = None

    @property
    def cached_tokens(self) -> int:
        details = self.prompt_tokens_details
        return (details.cached_tokens or 0) if details else 0


class CompletionMessage(_Lenient):
    content: str | None = None
    refusal: str | None = None


class CompletionChoice(_Lenient):
    message: CompletionMessage
    finish_reason: str | None = None


class Completion(_Lenient):
    """The parts of a chat completion the drafter reads, validated: a server may send anything."""

    model: str | None = None
    choices: list[CompletionChoice]
    usage: CompletionUsage | None = None


class UnusableResponse(ValueError):
    """A 200 answer that is not a chat completion (an HTML page, nonsense usage, ...)."""


def parse_completion(
    body: bytes | str | dict, content_type: str = "application/json"
) -> Completion:
    """Validate a chat completion body; raise UnusableResponse saying what is wrong with it."""
    try:
        if isinstance(body, dict):
            return Completion.model_validate(body)
        return Completion.model_validate_json(body)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        if first["type"] == "json_invalid":
            text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body)
            kind = content_type.split(";")[0].strip() or "no content type"
            raise UnusableResponse(
                f"the server answered with {kind}, not a chat completion "
                f"(is OPENAI_BASE_URL right?): {_squash(text)[:80]!r}"
            ) from None
        loc = ".".join(str(part) for part in first["loc"]) or "answer"
        raise UnusableResponse(
            f"the answer is not a valid chat completion: {loc}: {first['msg']}"
        ) from None


@dataclass(frozen=True)
class Verdict:
    """What one answer means: ok (a draft), invalid (re-ask), length, or a failure."""

    outcome: str
    content: str = ""
    draft: Draft | None = None
    errors: list[str] = field(default_factory=list)
    failure: str | None = None
    rule: str = ""  # schema or quote, for an invalid answer

    @property
    def lines(self) -> list[str]:
        """Return the repair lines of an invalid answer, each naming the rule it breaks."""
        return error_lines(self.rule, self.errors)


def judge(
    completion: Completion,
    source: Source,
    content_judge: Callable[[str, Source], Verdict] | None = None,
) -> Verdict:
    """Judge a validated completion exactly as the online path does, for any transport."""
    if not completion.choices:
        return Verdict("error: no choices", failure="the model returned no choices")
    choice = completion.choices[0]
    if choice.message.refusal:
        return Verdict("refusal", failure=f"the model refused: {_squash(choice.message.refusal)}")
    if choice.finish_reason == "content_filter":
        return Verdict("content_filter", failure="the answer was blocked by the content filter")
    if choice.finish_reason == "length":
        return Verdict("length")
    return (content_judge or judge_content)(choice.message.content or "", source)


def judge_content(content: str, source: Source) -> Verdict:
    """Judge the text of an answer (fresh or cached): a draft, or what is wrong with it."""
    draft, errors, rule = validate_answer(content, source)
    if draft is not None:
        return Verdict("ok", content, draft)
    return Verdict("invalid", content, errors=errors, rule=rule)


def _retries_of(request: Any) -> int:
    try:
        return int(request.headers.get("x-stainless-retry-count", 0))
    except (AttributeError, RuntimeError, ValueError):
        return 0


_TOKENS = ("prompt_tokens", "completion_tokens", "total_tokens")


@dataclass
class _Rounds:
    """The rounds of one guide so far: the first messages, the next request, what it cost."""

    first: list
    messages: list = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    reasks: int = 0
    calls: int = 0
    repairs: list[RepairRound] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.messages = self.messages or self.first

    def add(self, usage: dict) -> None:
        """Count one answer's tokens (every round is billed)."""
        for name in _TOKENS:
            value = usage.get(name) or 0
            setattr(self.usage, name, getattr(self.usage, name) + value)


@dataclass(frozen=True)
class _Step:
    """What one answer settled: its call-log outcome, and a result, an error or neither."""

    outcome: str
    result: DraftResult | None = None
    error: DraftError | None = None


@dataclass(frozen=True)
class _Answer:
    completion: Completion
    latency: float
    retries: int


@dataclass(frozen=True)
class _CallFailed:
    error: Exception
    outcome: str
    retries: int


class OpenAIDrafter:
    """Draft guides with a model; every answer is validated and its quotes checked."""

    backend = "openai"
    version = DRAFTER_VERSION
    # The structured output asked for; a drafter of another kind of text sets its own.
    response_format: dict[str, Any] = RESPONSE_FORMAT

    def __init__(
        self,
        client: AsyncOpenAI,
        model: str,
        prompts: PromptSet,
        *,
        max_tokens: int = 2000,
        cache: ResponseCache | None = None,
        log: CallLog | None = None,
        checker: Checker | None = None,
    ) -> None:
        self.client = client
        self.model = model
        self.prompts = prompts
        self.prompt_hash = prompts.hash
        self.max_tokens = max_tokens
        self.cache = cache
        self.log = log
        self.checker = checker
        self._log_commit: asyncio.TimerHandle | None = None
        self._closed = False
        self.notices = [store.notice for store in (cache, log) if store and store.notice]
        self._schema_tokens = len(json.dumps(self.response_format)) // 4

    def judge_content(self, content: str, source: Source) -> Verdict:
        """Judge the text of an answer: a draft, or what is wrong with it."""
        return judge_content(content, source)

    def estimate_prompt_tokens(self, source: Source) -> int:
        """Estimate the prompt tokens of a first request at about four characters a token."""
        chars = sum(len(message["content"]) for message in self.prompts.messages(source))
        return chars // 4 + self._schema_tokens

    def request_body(self, messages: list, max_tokens: int | None = None) -> dict[str, Any]:
        """Return the Chat Completions request body, the same online and in a batch file."""
        return {
            "model": self.model,
            "messages": messages,
            "response_format": self.response_format,
            "max_completion_tokens": max_tokens or self.max_tokens,
        }

    def cache_key(self, messages: list) -> str:
        """Return the cache key of a request with these messages (a re-ask's hold findings)."""
        params = {"max_completion_tokens": self.max_tokens}
        return request_key(self.model, messages, self.response_format, params)

    def first_messages(self, source: Source, revision: Revision | None = None) -> list:
        """Return the messages of a first request: the record, and a revision request if any."""
        messages = self.prompts.messages(source)
        if revision is not None:
            messages.append(self.prompts.revise(revision.text, revision.note))
        return messages

    def reask_messages(self, first: list, content: str, lines: list[str]) -> list:
        """Return a re-ask: the first messages, the last answer and its findings, nothing more."""
        return [*first, {"role": "assistant", "content": content}, self.prompts.repair(lines)]

    def round_messages(self, source: Source, history: list[tuple[str, list[str]]]) -> list:
        """Return the request of the round after these (answer, repair lines) rounds."""
        first = self.first_messages(source)
        asked = [(content, lines) for content, lines in history if lines]
        return self.reask_messages(first, *asked[-1]) if asked else first

    def cached(self, source: Source, key: str | None = None) -> DraftResult | None:
        """Return the result the cached rounds settle for this record, or None.

        Each round is looked up by its own request; a missing round, or cached rounds that end
        in no draft, give None (the record is asked for afresh).
        """
        rounds = _Rounds(self.first_messages(source))
        try:
            return self._replay(source, rounds)
        except DraftError:
            return None

    def _replay(self, source: Source, rounds: _Rounds) -> DraftResult | None:
        """Walk the rounds the cache holds answers for; stop at the first it lacks."""
        while self.cache is not None:
            hit = self.cache.get(self.cache_key(rounds.messages))
            if hit is None:
                return None
            rounds.calls += 1
            rounds.add(hit.usage)
            step = self._settle(source, rounds, self.judge_content(hit.content, source))
            self.log_call(source, rounds.calls, outcome=step.outcome, cached=True)
            if step.error is not None:
                raise step.error
            if step.result is not None:
                return step.result
        return None

    def _settle(self, source: Source, rounds: _Rounds, verdict: Verdict) -> _Step:
        """Accept a draft, or prepare the next round; at the end of the budget, give up."""
        draft = verdict.draft
        if draft is not None:
            findings = self.checker(source, draft) if self.checker is not None else []
            lines = finding_lines(findings)
        else:
            lines = verdict.lines
        outcome = "invalid" if draft is None else ("findings" if lines else "ok")
        if draft is not None and (not lines or rounds.reasks == MAX_REASKS):
            # Provenance names the model we asked for, which the skip key compares; the
            # call log keeps the snapshot the server reports (e.g. gpt-4o-mini-2024-07-18).
            result = DraftResult(
                draft=draft,
                usage=rounds.usage,
                model=self.model,
                rounds=rounds.reasks + 1,
                repairs=rounds.repairs,
            )
            return _Step(outcome, result=result)
        if rounds.reasks == MAX_REASKS:
            error = DraftError(
                f"no valid draft after {MAX_REASKS} re-asks: {'; '.join(verdict.errors[:3])}",
                record_id=source.key,
            )
            return _Step(outcome, error=error)
        rounds.reasks += 1
        rounds.repairs.append(RepairRound(round=rounds.reasks + 1, rules=rules_of(lines)))
        rounds.messages = self.reask_messages(rounds.first, verdict.content, lines)
        return _Step(outcome)

    async def draft(self, source: Source, revision: Revision | None = None) -> DraftResult:
        """Draft one guide; re-ask at most twice with the first messages and the findings.

        An answer is re-asked when it is no valid draft or when its guide has findings the
        model can fix; every round is cached under its own request, so a rerun sends nothing.
        """
        rounds = _Rounds(self.first_messages(source, revision))
        hit = self._replay(source, rounds)
        if hit is not None:
            return hit
        max_tokens = self.max_tokens
        bumped = False
        while True:
            rounds.calls += 1
            key = self.cache_key(rounds.messages) if self.cache is not None else None
            answer = await self._call(source, rounds.calls, rounds.messages, max_tokens)
            completion = answer.completion
            spent = completion.usage.model_dump() if completion.usage is not None else {}
            rounds.add(spent)
            verdict = judge(completion, source, self.judge_content)
            if verdict.outcome == "length":
                self._log_completion(source, rounds.calls, answer, "length")
                if bumped:
                    raise DraftError(
                        f"the answer was cut off at {max_tokens} tokens, even after one retry "
                        "with a larger limit; raise [llm] max_tokens",
                        record_id=source.key,
                    )
                bumped = True
                max_tokens *= 2
                continue
            if verdict.failure:
                self._log_completion(source, rounds.calls, answer, verdict.outcome)
                raise DraftError(verdict.failure, record_id=source.key)
            step = self._settle(source, rounds, verdict)
            self._log_completion(source, rounds.calls, answer, step.outcome)
            if self.cache is not None and key is not None:
                served = completion.model or self.model
                tokens = {name: spent.get(name) or 0 for name in _TOKENS}
                self.cache.put(key, CachedResponse(served, verdict.content, tokens))
            if step.error is not None:
                raise step.error
            if step.result is not None:
                return step.result

    async def _call(self, source: Source, attempt: int, messages: list, max_tokens: int) -> _Answer:
        started = time.perf_counter()
        try:
            # The client's own post (its retries, headers and timeouts) with the body as built:
            # chat.completions.create would only walk this plain JSON through the SDK's type
            # transform (about 1.5 ms a call) and send the same bytes.
            http = await self.client.post(
                CHAT_COMPLETIONS,
                cast_to=httpx2.Response,
                body=self.request_body(messages, max_tokens),
            )
            completion = parse_completion(http.content, http.headers.get("content-type", ""))
        except UnusableResponse as exc:
            self.log_call(
                source,
                attempt,
                outcome="error: response",
                retries=_retries_of(http.request),
                latency=time.perf_counter() - started,
            )
            raise DraftError(str(exc), record_id=source.key) from None
        except openai.APIError as exc:
            failed = self._translate(exc, source)
            self.log_call(
                source,
                attempt,
                outcome=failed.outcome,
                retries=failed.retries,
                latency=time.perf_counter() - started,
            )
            raise failed.error from exc
        return _Answer(completion, time.perf_counter() - started, _retries_of(http.request))

    def _translate(self, exc: openai.APIError, source: Source) -> _CallFailed:
        if isinstance(exc, openai.APIStatusError):
            retries = _retries_of(exc.response.request)
            status = exc.status_code
            if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
                error: Exception = AuthError(
                    f"the API refused the credentials (HTTP {status}); check OPENAI_API_KEY",
                    record_id=source.key,
                    rule="llm.auth",
                )
                return _CallFailed(error, f"error: HTTP {status}", retries)
            detail = _squash(str(exc.message))[:200]
            after = f" after {plural(retries, 'retry', 'retries')}" if retries else ""
            error = DraftError(f"HTTP {status}{after}: {detail}", record_id=source.key)
            return _CallFailed(error, f"error: HTTP {status}", retries)
        retries = _retries_of(getattr(exc, "request", None))
        after = f" after {plural(retries, 'retry', 'retries')}" if retries else ""
        if isinstance(exc, openai.APITimeoutError):
            timeout = self.client.timeout
            seconds = getattr(timeout, "read", None) or timeout
            error = DraftError(f"timed out ({seconds}s){after}", record_id=source.key)
            return _CallFailed(error, "error: timeout", retries)
        if isinstance(exc, openai.APIConnectionError):
            error = DraftError(f"cannot reach {self.client.base_url}{after}", record_id=source.key)
            return _CallFailed(error, "error: connection", retries)
        error = DraftError(f"unusable response: {_squash(str(exc))[:200]}", record_id=source.key)
        return _CallFailed(error, "error: response", retries)

    def _log_completion(self, source: Source, attempt: int, answer: _Answer, outcome: str) -> None:
        completion = answer.completion
        usage = completion.usage
        self.log_call(
            source,
            attempt,
            outcome=outcome,
            prompt_tokens=(usage.prompt_tokens or 0) if usage else 0,
            completion_tokens=(usage.completion_tokens or 0) if usage else 0,
            cached_tokens=usage.cached_tokens if usage else 0,
            latency=answer.latency,
            retries=answer.retries,
            model=completion.model or self.model,
        )

    def log_call(
        self,
        source: Source,
        attempt: int,
        *,
        outcome: str,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
        cached_tokens: int = 0,
        latency: float = 0.0,
        retries: int = 0,
        cached: bool = False,
        model: str | None = None,
        batch_id: str | None = None,
    ) -> None:
        """Add one call to the log (committed within half a second online, by the caller else)."""
        if self.log is None:
            return
        self.log.add(
            CallRecord(
                model=model or self.model,
                prompt_hash=self.prompt_hash,
                guide_id=source.key,
                attempt=attempt,
                prompt_tokens=prompt_tokens,
                completion_tokens=completion_tokens,
                cached_tokens=cached_tokens,
                latency_ms=round(latency * 1000),
                retries=retries,
                cached=cached,
                outcome=outcome,
                via="batch" if batch_id else "online",
                batch_id=batch_id,
                requested_model=self.model,
            )
        )
        if self._log_commit is None and not batch_id:
            self._log_commit = asyncio.get_running_loop().call_later(
                LOG_COMMIT_DELAY, self._commit_log
            )

    def _commit_log(self) -> None:
        self._log_commit = None
        if self.log is not None:
            self.log.commit()

    async def aclose(self) -> None:
        """Close the HTTP client, the cache and the log (once)."""
        if self._closed:
            return
        self._closed = True
        if self._log_commit is not None:
            self._log_commit.cancel()
            self._log_commit = None
        if self.log is not None:
            self.log.close()
        if self.cache is not None:
            self.cache.close()
        await self.client.close()


def open_drafter(
    project: Project,
    model: str,
    prompts: PromptSet,
    *,
    key: str,
    cache: bool = True,
    checker: Checker | None = None,
) -> OpenAIDrafter:
    """Build the drafter over a new client, with the project's response cache and call log."""
    settings = project.settings.llm
    client = make_client(key, settings)
    state = project.workspace.state_dir
    return OpenAIDrafter(
        client,
        model,
        prompts,
        max_tokens=settings.max_tokens,
        cache=ResponseCache.in_state_dir(state) if cache else None,
        log=CallLog.in_state_dir(state),
        checker=checker,
    )
