"""The LLM client behind a proxy: HTTP_PROXY and NO_PROXY are honoured, the bounds still hold."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fakes.openai_server import Drip, FakeOpenAI, Huge
from fakes.proxy_server import ForwardProxy
from openai import AsyncOpenAI

from generator.cli import cli
from generator.llm.transport import bounded_http_client

# A name only the proxy can reach: the loopback guard fails a test that resolves it here.
PUBLIC = "llm.prepguide.test"
GUIDE = "shopify-catalog-clustering"


@pytest.fixture
def fake():
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def proxy(fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch):
    with ForwardProxy(("127.0.0.1", fake.port)) as server:
        monkeypatch.setenv("HTTP_PROXY", server.url)
        yield server


def run(workspace: Path, base_url: str, *args: str):
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": base_url}
    result = CliRunner().invoke(cli, ["--root", str(workspace), *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def set_llm(workspace: Path, **values: object) -> None:
    config = workspace / "prepguide.toml"
    lines = "".join(f"{name} = {value}\n" for name, value in values.items())
    text = config.read_text(encoding="utf-8")
    kept = [
        line for line in text.splitlines(keepends=True) if line.split("=")[0].strip() not in values
    ]
    config.write_text("".join(kept).replace("[llm]\n", f"[llm]\n{lines}"), encoding="utf-8")


def posts(proxy: ForwardProxy) -> list[tuple[str, str]]:
    return [(method, url) for method, url, _ in proxy.seen]


def test_generate_reaches_the_model_through_the_proxy_from_the_environment(workspace, fake, proxy):
    result = run(workspace, f"http://{PUBLIC}/v1", "generate", GUIDE)
    assert result.exit_code == 0, result.output
    assert (workspace / "guides" / f"{GUIDE}.md").is_file()
    assert posts(proxy) == [("POST", f"http://{PUBLIC}/v1/chat/completions")]
    assert fake.request_count == 1


def test_no_proxy_hosts_are_reached_directly_and_the_others_through_the_proxy(
    fake, proxy, monkeypatch
):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")

    async def ask_both() -> list[str]:
        http_client = bounded_http_client(5.0)
        answers = []
        for base in (fake.base_url, f"http://{PUBLIC}/v1"):
            client = AsyncOpenAI(api_key="sk-test", base_url=base, http_client=http_client)
            reply = await client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "Shopify"}]
            )
            answers.append(reply.choices[0].message.content)
        await http_client.aclose()
        return answers

    answers = asyncio.run(ask_both())
    assert all(json.loads(answer) for answer in answers)
    assert fake.request_count == 2
    assert posts(proxy) == [("POST", f"http://{PUBLIC}/v1/chat/completions")]


def test_an_answer_over_the_cap_is_refused_through_the_proxy(workspace, fake, proxy):
    fake.script(Huge(64 * 1024 * 1024), match="Shopify")
    set_llm(workspace, max_retries=2)
    result = run(workspace, f"http://{PUBLIC}/v1", "generate", GUIDE)
    assert result.exit_code == 1
    assert GUIDE in result.output and "larger than" in result.output
    assert posts(proxy) == [("POST", f"http://{PUBLIC}/v1/chat/completions")]  # not retried
    assert not (workspace / "guides" / f"{GUIDE}.md").exists()


def test_a_dripped_answer_through_the_proxy_ends_at_the_whole_request_timeout(
    workspace, fake, proxy
):
    fake.script(Drip(rate=50), match="Shopify", times=None)  # a whole answer: about a minute
    set_llm(workspace, timeout=1.5, max_retries=2)
    result = run(workspace, f"http://{PUBLIC}/v1", "generate", GUIDE)
    assert result.exit_code == 1
    assert f"{GUIDE}  timed out (1.5s)" in result.output
    logged = run(workspace, f"http://{PUBLIC}/v1", "logs", "--json", "--guide", GUIDE)
    [call] = json.loads(logged.output)["calls"]
    assert call["latency_ms"] < 3500, call  # bounded by the timeout, not by the drip
    assert posts(proxy) == [("POST", f"http://{PUBLIC}/v1/chat/completions")]  # one try
