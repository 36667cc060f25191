"""Issue 11 (B7-B14, E26, E27) and issue 14 item 6: hostile or careless records, ids, URLs,
config and imports are refused with a message naming the file and field, and never crash."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from generator.core.config import Workspace, load_settings
from generator.core.errors import ConfigError
from generator.core.urls import url_path
from generator.sources.records import Source, is_valid_id, load_sources, normalize_tag, slugify
from generator.sources.topics import compute_topics

TODAY = date(2026, 11, 30)
GOOD = {
    "company": "Acme",
    "title": "A good record",
    "url": "https://acme.example/good",
    "published": "2026-10-13",
    "summary": "Acme rebuilt its queue and cut latency by 40%.",
}
C0_C1_CONTROLS = [
    chr(c) for c in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)] if c not in (9, 10)
]
BIDI = [
    "\u061c",
    "\u200e",
    "\u200f",
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
]
WINDOWS_RESERVED = ["con", "prn", "aux", "nul"] + [
    f"{p}{n}" for p in ("com", "lpt") for n in range(1, 10)
]


def run_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator", "--root", str(root), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def write_records(folder: Path, records: dict[str, dict]) -> Path:
    """Write JSON records (name -> fields) next to one good record; return sources/."""
    sources = folder / "sources"
    sources.mkdir(parents=True, exist_ok=True)
    (sources / "good.json").write_text(json.dumps(GOOD), encoding="utf-8")
    for name, fields in records.items():
        (sources / name).write_text(json.dumps(fields), encoding="utf-8")
    return sources


def with_field(field: str, value: str) -> dict:
    """Return a valid record whose field (dotted, e.g. citations.0.title) holds value."""
    data = json.loads(json.dumps(GOOD))
    data["url"] = None
    data["citations"] = [{"title": "Further reading", "publisher": "Acme"}]
    data["notes"] = "Notes."
    data["scale"] = ["12,000 workers"]
    data["techniques"] = ["queueing"]
    data["stack"] = ["Kafka"]
    data["publisher"] = "Acme Engineering"
    parts = field.split(".")
    target = data
    for part in parts[:-1]:
        target = target[int(part)] if part.isdigit() else target[part]
    last = parts[-1]
    if last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return data


TEXT_FIELDS = [
    "company",
    "title",
    "publisher",
    "summary",
    "notes",
    "scale.0",
    "techniques.0",
    "stack.0",
    "citations.0.title",
    "citations.0.publisher",
]


# B7 ---------------------------------------------------------------------------------------


def test_b7_every_c0_c1_control_is_refused_in_every_text_field(tmp_path: Path) -> None:
    records = {}
    for char in C0_C1_CONTROLS:
        for field in TEXT_FIELDS:
            name = f"c{ord(char):02x}-{field.replace('.', '-')}.json"
            records[name] = with_field(field, f"before{char}after")
    sources = write_records(tmp_path, records)
    result = load_sources(sources, TODAY)
    assert [s.key for s in result.sources] == ["good"]
    by_path = {Path(p.path).name: p for p in result.problems}
    assert len(result.problems) == len(records) == len(C0_C1_CONTROLS) * len(TEXT_FIELDS)
    for name in records:
        problem = by_path[name]
        char = chr(int(name[1:3], 16))
        field = name[4:-5].replace("-", ".")
        assert problem.field == field, name
        assert f"control character U+{ord(char):04X}" in problem.message, name
        assert str(problem).startswith(f"{sources / name}: {field}: "), str(problem)


def test_b7_tab_and_newline_are_still_allowed(tmp_path: Path) -> None:
    sources = write_records(
        tmp_path, {"fine.json": with_field("notes", "line one\n\tindented line two")}
    )
    result = load_sources(sources, TODAY)
    assert result.problems == []
    assert result.by_id()["fine"].notes == "line one\n\tindented line two"


def test_b7_yaml_escapes_from_the_report_are_refused_by_sources_check(workspace: Path) -> None:
    evil = workspace / "sources" / "evil.yaml"
    evil.write_text(
        'company: Acme\ntitle: "bell\\a escape\\e[31m red nul\\0 del\\x7f"\n'
        "summary: Acme did things.\n",
        encoding="utf-8",
    )
    result = run_cli(workspace, "sources", "check")
    assert result.returncode == 1
    assert f"invalid source: {evil}: title: contains the control character U+0007" in result.stderr
    assert "Traceback" not in result.stderr


# B8 ---------------------------------------------------------------------------------------


def test_b8_a_file_name_ending_in_a_newline_does_not_become_an_id(tmp_path: Path) -> None:
    record = {k: v for k, v in GOOD.items() if k != "url"}
    sources = write_records(tmp_path, {"evil\n.json": record, "evil\r.json": record})
    result = load_sources(sources, TODAY)
    assert [s.key for s in result.sources] == ["good"]
    assert sorted(p.path for p in result.problems) == [
        str(sources / "evil\n.json"),
        str(sources / "evil\r.json"),
    ]
    assert all(p.field == "id" and "not a valid id" in p.message for p in result.problems)


def test_b8_sources_check_prints_the_newline_in_a_file_name_as_an_escape(workspace: Path) -> None:
    (workspace / "sources" / "evil\n.yaml").write_text(
        "company: Acme\ntitle: T\nsummary: S.\n", encoding="utf-8"
    )
    result = run_cli(workspace, "sources", "check")
    assert result.returncode == 1
    escaped = str(workspace / "sources" / "evil\\u000a.yaml")
    assert result.stderr.splitlines() == [
        f"invalid source: {escaped}: id: file name 'evil\\n' is not a valid id: it must be 1-80 "
        "characters of a-z, 0-9 and '-'; rename the file or add an id of a-z, 0-9 and '-'"
    ]


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("meta-gem", True),
        ("a", True),
        ("a" * 80, True),
        ("x-", True),
        ("com10", True),
        ("console", True),
        ("evil\n", False),
        ("\nevil", False),
        ("a" * 81, False),
        ("", False),
        ("Bad", False),
        ("a_b", False),
        ("a.b", False),
        ("../x", False),
        ("/etc/passwd", False),
        ("é", False),
        (None, False),
        (5, False),
    ],
)
def test_b8_one_shared_id_predicate(text: object, valid: bool) -> None:
    assert is_valid_id(text) is valid


# B12 --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", WINDOWS_RESERVED)
def test_b12_every_windows_reserved_name_is_refused_as_id_and_file_name(
    tmp_path: Path, name: str
) -> None:
    assert not is_valid_id(name)
    assert not is_valid_id(name.upper())
    assert not is_valid_id(f"{name}.txt")
    record = {k: v for k, v in GOOD.items() if k != "url"}
    sources = write_records(tmp_path, {f"{name}.json": record, "other.json": dict(record, id=name)})
    result = load_sources(sources, TODAY)
    assert [s.key for s in result.sources] == ["good"]
    assert len(result.problems) == 2
    for problem in result.problems:
        assert problem.field == "id"
        assert "reserved device name on Windows" in problem.message


@pytest.mark.parametrize("text", ["-", "--", "-x", "-rf", "---a"])
def test_b12_ids_starting_with_a_dash_are_refused(tmp_path: Path, text: str) -> None:
    assert not is_valid_id(text)
    record = {k: v for k, v in GOOD.items() if k != "url"}
    sources = write_records(tmp_path, {f"{text}.json": record, "given.json": dict(record, id=text)})
    result = load_sources(sources, TODAY)
    assert [s.key for s in result.sources] == ["good"]
    assert [p.field for p in result.problems] == ["id", "id"]
    assert all("start with a letter or digit" in p.message for p in result.problems)


def test_b12_names_that_only_contain_a_reserved_word_are_fine(tmp_path: Path) -> None:
    record = {k: v for k, v in GOOD.items() if k != "url"}
    names = ["con-x", "aux-log", "com10", "lpt0x", "nul1", "prn-2"]
    sources = write_records(tmp_path, {f"{name}.json": record for name in names})
    result = load_sources(sources, TODAY)
    assert result.problems == []
    assert sorted(result.by_id()) == sorted([*names, "good"])


# B11 --------------------------------------------------------------------------------------

BAD_URLS = {
    "port 99999": ("https://acme.example:99999/x", "port"),
    "port 65536": ("https://acme.example:65536/x", "port"),
    "port 0": ("https://acme.example:0/x", "port"),
    "port not a number": ("https://acme.example:http/x", "port"),
    "user and password": ("https://user:pass@acme.example/x", "user name or password"),
    "user only": ("https://user@acme.example/x", "user name or password"),
    "invalid punycode": ("https://xn--zz.example/x", "not a valid international domain"),
    "label starting with a hyphen": ("https://-acme.example/x", "not a valid domain name"),
    "empty label": ("https://acme..example/x", "not a valid domain name"),
    "label over 63": (f"https://{'a' * 64}.example/x", "over 63"),
    "invalid IDNA": ("https://a\u0301b\u200d.example/x", "invisible or control"),
    "disallowed IDNA code point": ("https://a\u2605b.example/x", "international domain"),
    "bad IPv4": ("https://999.1.1.1/x", "IPv4"),
    "bad IPv6": ("https://[::1/x", "not a valid URL"),
    "encoded bidi": ("https://acme.example/%E2%80%AEfdp.exe", "bidirectional"),
    "zero-width space": ("https://acme.example/a\u200bb", "invisible or control"),
}
BAD_URLS |= {f"bidi U+{ord(c):04X}": (f"https://acme.example/a{c}b", "bidirectional") for c in BIDI}
BAD_URLS |= {
    f"control U+{ord(c):04X}": (f"https://acme.example/a{c}b", "control")
    for c in C0_C1_CONTROLS
    if not c.isspace()  # whitespace controls are refused as spaces, also with a message
}


@pytest.mark.parametrize("where", ["url", "citations.0.url"])
def test_b11_invalid_urls_are_refused_in_records_and_citations(tmp_path: Path, where: str) -> None:
    records = {}
    for number, (url, _) in enumerate(BAD_URLS.values()):
        data = with_field("title", "T")
        if where == "url":
            data["url"] = url
        else:
            data["citations"][0]["url"] = url
        records[f"r{number}.json"] = data
    sources = write_records(tmp_path, records)
    result = load_sources(sources, TODAY)
    assert [s.key for s in result.sources] == ["good"]
    by_path = {Path(p.path).name: p for p in result.problems}
    assert len(by_path) == len(BAD_URLS)
    for number, (kind, (_, words)) in enumerate(BAD_URLS.items()):
        problem = by_path[f"r{number}.json"]
        assert problem.field == where, kind
        assert words in problem.message, (kind, problem.message)


@pytest.mark.parametrize("char", [c for c in C0_C1_CONTROLS if c.isspace()])
def test_b11_whitespace_controls_in_urls_are_refused(tmp_path: Path, char: str) -> None:
    sources = write_records(tmp_path, {"r.json": dict(GOOD, url=f"https://acme.example/a{char}b")})
    (problem,) = load_sources(sources, TODAY).problems
    assert problem.field == "url"


GOOD_URLS = [
    "https://acme.example:8443/x",
    "http://acme.example./x",
    "https://[2001:db8::1]:8080/x",
    "https://192.0.2.7/x",
    "https://пример.рф/статья",
    "https://例え.jp/記事",
    "https://bücher.example/x",
    "https://acme.example/a%20b?q=1#part",
]


def test_b11_ordinary_and_international_urls_are_accepted_without_warning(
    tmp_path: Path,
) -> None:
    records = {f"u{n}.json": dict(GOOD, url=url) for n, url in enumerate(GOOD_URLS)}
    result = load_sources(write_records(tmp_path, records), TODAY)
    assert result.problems == []
    assert all(source.warnings == [] for source in result.sources)


SUSPICIOUS = {
    "cyrillic a in a latin host": ("https://\u0430cme.example/x", "mixes Cyrillic and Latin"),
    "greek o in a latin host": ("https://go\u03bfgle.example/x", "mixes Greek and Latin"),
    "all-cyrillic look-alike label": ("https://\u0430\u0440\u0440\u04cf\u0435.com/", "Cyrillic"),
    "punycode host": ("https://xn--80ak6aa92e.com/", "punycode"),
    "punycode of a mixed host": ("https://xn--cme-5cd.example/", "punycode"),
}


def test_b11_suspicious_hosts_are_accepted_with_a_warning(tmp_path: Path) -> None:
    records = {}
    for number, (url, _) in enumerate(SUSPICIOUS.values()):
        data = with_field("title", f"T{number}")
        data["citations"][0]["url"] = url
        records[f"s{number}.json"] = data
    sources = write_records(tmp_path, records)
    result = load_sources(sources, TODAY)
    assert result.problems == []
    for number, (kind, (_, words)) in enumerate(SUSPICIOUS.items()):
        source = result.by_id()[f"s{number}"]
        assert source.warnings, kind
        assert all(w.field == "citations.0.url" for w in source.warnings)
        assert any(words in w.message for w in source.warnings), (kind, source.warnings)
        assert str(source.warnings[0]).startswith(f"{sources / f's{number}.json'}: citations.0.url")


def test_b11_sources_check_and_review_show_print_the_warning(workspace: Path) -> None:
    record = workspace / "sources" / "meta-prometheus.yaml"
    record.write_text(
        record.read_text(encoding="utf-8") + "url: https://\u0430cme.example/prometheus\n",
        encoding="utf-8",
    )
    check = run_cli(workspace, "sources", "check")
    assert check.returncode == 0, check.stderr
    assert (
        f"warning: {record}: url: host '\u0430cme.example' mixes Cyrillic and Latin letters"
        in check.stderr
    )
    assert "1 warning" in check.stdout
    assert run_cli(workspace, "generate", "--backend", "offline").returncode == 0
    show = run_cli(workspace, "review", "show", "meta-prometheus")
    assert show.returncode == 0, show.stderr
    assert "warning   url: host '\u0430cme.example' mixes Cyrillic and Latin" in show.stdout


# B10 and E26 ------------------------------------------------------------------------------

BAD_CONFIGS = {
    "javascript base url": (
        '[site]\nbase_url = "javascript:alert(document.domain)//"\n',
        "site.base_url",
    ),
    "relative base url": ('[site]\nbase_url = "/guides"\n', "site.base_url"),
    "ftp base url": ('[site]\nbase_url = "ftp://files.example/"\n', "site.base_url"),
    "data base url": ('[site]\nbase_url = "data:text/html,hi"\n', "site.base_url"),
    "base url with userinfo": ('[site]\nbase_url = "https://u:p@site.example"\n', "site.base_url"),
    "base url with a bad port": (
        '[site]\nbase_url = "https://site.example:99999"\n',
        "site.base_url",
    ),
    "base url with a query": ('[site]\nbase_url = "https://site.example/?x=1"\n', "site.base_url"),
    "base url with a newline": ('[site]\nbase_url = "https://site.example/\\n"\n', "site.base_url"),
    "huge freshness": (
        "[checks]\nfreshness_days = 99999999999999999999\n",
        "checks.freshness_days",
    ),
    "overflowing freshness": ("[checks]\nfreshness_days = 999999999\n", "checks.freshness_days"),
    "infinite llm timeout": ("[llm]\ntimeout = inf\n", "llm.timeout"),
    "nan llm timeout": ("[llm]\ntimeout = nan\n", "llm.timeout"),
    "negative llm timeout": ("[llm]\ntimeout = -5\n", "llm.timeout"),
    "infinite verify timeout": ("[verify]\ntimeout = inf\n", "verify.timeout"),
    "negative verify timeout": ("[verify]\ntimeout = -1\n", "verify.timeout"),
    "infinite host interval": ("[verify]\nhost_interval = inf\n", "verify.host_interval"),
    "huge concurrency": ("[llm]\nconcurrency = 99999999999999999999\n", "llm.concurrency"),
    "huge page size": ("[site]\npage_size = 99999999999999999999\n", "site.page_size"),
    "control character in the site name": ('[site]\nname = "A\\u0007B"\n', "site.name"),
}


@pytest.mark.parametrize("kind", list(BAD_CONFIGS))
def test_e26_b10_bad_settings_are_refused_at_load_naming_the_key(tmp_path: Path, kind: str) -> None:
    text, key = BAD_CONFIGS[kind]
    (tmp_path / "prepguide.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(Workspace(root=tmp_path))
    assert caught.value.field == key
    assert str(caught.value).startswith(f"{tmp_path / 'prepguide.toml'}: {key}: ")


@pytest.mark.parametrize(
    "base_url", ["https://guides.example.org", "http://localhost:8000/prep/", "https://例え.jp/"]
)
def test_b10_absolute_http_base_urls_are_accepted(tmp_path: Path, base_url: str) -> None:
    (tmp_path / "prepguide.toml").write_text(f'[site]\nbase_url = "{base_url}"\n', "utf-8")
    assert load_settings(Workspace(root=tmp_path)).site.base_url == base_url


def test_e26_the_cli_exits_2_for_bad_config_without_a_traceback(workspace: Path) -> None:
    config = workspace / "prepguide.toml"
    for text, key in [BAD_CONFIGS["javascript base url"], BAD_CONFIGS["huge freshness"]]:
        config.write_text(text, encoding="utf-8")
        for command in (["sources", "check"], ["check"], ["generate", "--backend", "offline"]):
            result = run_cli(workspace, *command)
            assert result.returncode == 2, (command, result.stderr)
            assert result.stderr.startswith(f"error: {config}: {key}: "), result.stderr
            assert "Traceback" not in result.stderr


def test_e26_a_config_that_is_a_directory_or_nests_deeply_exits_2(workspace: Path) -> None:
    config = workspace / "prepguide.toml"
    config.unlink()
    config.mkdir()
    result = run_cli(workspace, "sources", "check")
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {config}: is not a regular file")
    config.rmdir()
    config.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = run_cli(workspace, "sources", "check")
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {config}: not valid TOML: ")
    assert "nested too deeply" in result.stderr
    assert "Traceback" not in result.stderr


def test_e26_the_widest_freshness_window_does_not_overflow_generate_or_check(
    workspace: Path,
) -> None:
    (workspace / "prepguide.toml").write_text("[checks]\nfreshness_days = 36500\n", "utf-8")
    generate = run_cli(workspace, "generate", "--backend", "offline")
    assert generate.returncode == 0, generate.stderr
    check = run_cli(workspace, "check")
    assert check.returncode in (0, 1), check.stderr
    assert "Traceback" not in check.stderr and "stale" not in check.stdout


# B13 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("日本語", "日本語"),
        ("Ünïcödé GmbH", "ünïcödé-gmbh"),
        ("U\u0308ber Eats", "über-eats"),  # decomposed input gives the composed slug
        ("Straße", "strasse"),
        ("Ελληνικά δεδομένα", "ελληνικά-δεδομένα"),
        ("हिन्दी भाषा", "हिन्दी-भाषा"),  # vowel signs are part of the letters
        ("٣ نقاط", "٣-نقاط"),
        ("GPUs", "gpus"),
        ("distributed training", "distributed-training"),
        ("C++ / Rust!", "c-rust"),
        ("snake_case", "snake-case"),
        ("★ ☆ ★", ""),
        ("CON", "con-page"),  # Windows device names cannot be folders there
        ("Com 1", "com-1"),
        ("LPT1", "lpt1-page"),
        ("Console", "console"),
    ],
)
def test_b13_slugs_keep_letters_and_digits_of_every_script(text: str, slug: str) -> None:
    assert slugify(text) == slug


def test_b13_unicode_tags_and_companies_get_hubs_with_unicode_slugs() -> None:
    def source(n: int, company: str, *tags: str) -> Source:
        return Source(id=f"s{n}", company=company, title="T", summary="S.", techniques=list(tags))

    sources = [source(1, "Ünïcödé GmbH", "日本語"), source(2, "ünïcödé gmbh", "日本語")]
    (topic,) = compute_topics(sources, 2)
    assert (topic.name, topic.slug) == ("日本語", "日本語")
    assert {slugify(s.company) for s in sources} == {"ünïcödé-gmbh"}
    assert normalize_tag("U\u0308ber") == normalize_tag("Über") == "über"


def test_b13_url_paths_are_percent_encoded_utf8() -> None:
    assert url_path("topics/日本語/index.html") == "topics/%E6%97%A5%E6%9C%AC%E8%AA%9E/index.html"
    assert url_path("companies/ünïcödé-gmbh/") == "companies/%C3%BCn%C3%AFc%C3%B6d%C3%A9-gmbh/"
    assert url_path("guides/meta-gem/") == "guides/meta-gem/"


# B14 --------------------------------------------------------------------------------------


def test_b14_a_symlink_to_a_record_outside_the_root_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "root"
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    secret = outside / "planted.json"
    secret.write_text(json.dumps(dict(GOOD, url="https://evil.example/")), encoding="utf-8")
    sources = write_records(root, {})
    (root / "drafts").mkdir()
    inside = root / "drafts" / "inside.json"
    inside.write_text(json.dumps(dict(GOOD, url="https://acme.example/inside")), "utf-8")
    os.symlink(secret, sources / "planted.json")
    os.symlink(inside, sources / "inside.json")
    os.symlink(sources / "good.json", sources / "zz-alias.json")  # also inside, but a duplicate
    os.symlink(tmp_path / "missing.json", sources / "dangling.json")
    result = load_sources(sources, TODAY)
    assert sorted(result.by_id()) == ["good", "inside"]
    problems = {Path(p.path).name: p for p in result.problems}
    assert set(problems) == {"planted.json", "dangling.json", "zz-alias.json"}
    assert problems["planted.json"].rule == "source.symlink"
    assert f"symbolic link to {secret}, outside the root {root}" in str(problems["planted.json"])
    assert "does not exist" in str(problems["dangling.json"])
    assert "duplicate url" in str(problems["zz-alias.json"])


def test_b14_sources_check_names_the_outside_symlink(workspace: Path, tmp_path: Path) -> None:
    secret = tmp_path / "planted.yaml"
    secret.write_text("company: Evil\ntitle: Planted\nsummary: From outside.\n", "utf-8")
    os.symlink(secret, workspace / "sources" / "planted.yaml")
    result = run_cli(workspace, "sources", "check")
    assert result.returncode == 1
    link = workspace / "sources" / "planted.yaml"
    assert f"invalid source: {link}: is a symbolic link to {secret}, outside the root" in (
        result.stderr
    )


# E27 and deep records ----------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["json", "jsonl"])
def test_e27_importing_a_100000_deep_json_array_is_a_clear_error(
    workspace: Path, suffix: str
) -> None:
    deep = workspace / f"deep.{suffix}"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = run_cli(workspace, "sources", "import", str(deep))
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {deep}: not a JSON array or JSONL of records: ")
    assert "nested too deeply" in result.stderr
    assert "Traceback" not in result.stderr


def test_e27_a_csv_with_a_field_over_the_csv_limit_is_a_clear_error(workspace: Path) -> None:
    huge = workspace / "huge.csv"
    huge.write_text('company,title,summary\nAcme,T,"' + "x" * 200_000 + '"\n', "utf-8")
    result = run_cli(workspace, "sources", "import", str(huge))
    assert result.returncode == 1
    assert result.stderr.startswith(f"error: {huge}: not valid CSV: ")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "text",
    [
        "company: Acme\ntitle: T\nsummary: S\nscale: " + "[" * 50_000 + "]" * 50_000 + "\n",
        "company: Acme\ntitle: T\nsummary: S\nscale: " + "{a: " * 18_000 + "b" + "}" * 18_000,
        "company: Acme\ntitle: T\nsummary: S\nscale:\n  " + "- " * 40_000 + "x\n",
    ],
    ids=["flow sequences", "flow mappings", "compact block sequences"],
)
def test_e27_a_deeply_nested_yaml_record_is_refused_not_a_crash(workspace: Path, text: str) -> None:
    deep = workspace / "sources" / "deep.yaml"
    deep.write_text(text, encoding="utf-8")
    assert deep.stat().st_size < 100 * 1024
    result = run_cli(workspace, "sources", "check")
    assert result.returncode == 1, result.stderr  # not -11: libyaml's composer must not run
    assert f"invalid source: {deep}: not valid YAML: lists or mappings nested more than 100" in (
        result.stderr
    )
    assert "4 valid, 1 invalid" in result.stdout


def test_e27_a_deeply_nested_json_record_is_refused(tmp_path: Path) -> None:
    sources = write_records(tmp_path, {})
    (sources / "deep.json").write_text("[" * 50_000 + "]" * 50_000, encoding="utf-8")
    result = load_sources(sources, TODAY)
    (problem,) = result.problems
    assert "nested more than 100 levels deep" in str(problem)


def test_e27_ordinary_nesting_still_loads(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    citations = "".join(f"  - title: Further {n}\n    publisher: Acme\n" for n in range(150))
    text = "company: A-B-C\ntitle: 'Q: a - b - c?'\nsummary: S - T - U\ncitations:\n" + citations
    (sources / "many.yaml").write_text(text, encoding="utf-8")
    result = load_sources(sources, TODAY)
    assert result.problems == []
    assert len(result.by_id()["many"].citations) == 150


# Issue 14, item 6 --------------------------------------------------------------------------


def test_issue14_6_import_counts_refused_records_and_lists_every_problem(workspace: Path) -> None:
    batch = workspace / "batch.csv"
    batch.write_text(
        "company,title,url,published,summary\n"
        "Acme,Bad twice,javascript:x,03/04/2026,Acme did it.\n"
        "Acme,Bad once,https://acme.example/once,,\n"
        "Acme,Good,https://acme.example/good,2026-10-13,Acme did well.\n",
        encoding="utf-8",
    )
    result = run_cli(workspace, "sources", "import", str(batch))
    assert result.returncode == 1
    assert "1 written, 0 duplicates, 2 refused" in result.stdout
    problems = result.stderr.strip().splitlines()
    assert [line.split(": ")[1:3] for line in problems] == [
        [f"{batch}:2", "url"],
        [f"{batch}:2", "published"],
        [f"{batch}:3", "summary"],
    ]


def test_b13_a_built_site_has_unicode_folders_and_percent_encoded_links(workspace: Path) -> None:
    import xml.etree.ElementTree as ET
    from urllib.parse import unquote, urljoin

    from click.testing import CliRunner

    from generator import review
    from generator.cli import cli
    from generator.guides.project import Project
    from generator.site import publish

    for name, company in [
        ("shopify-catalog-clustering", "Ünïcödé GmbH"),
        ("meta-llm-training-at-scale", None),
    ]:
        record = workspace / "sources" / f"{name}.yaml"
        text = record.read_text(encoding="utf-8").replace(
            "techniques:\n", "techniques:\n  - 日本語\n"
        )
        if company:
            text = text.replace("company: Shopify\n", f"company: {company}\n")
        record.write_text(text, encoding="utf-8")
    for args in (
        ["generate", "--backend", "offline"],
        ["verify", "--manual", "meta-llm-training-at-scale", "--by", "Ed"],
    ):
        result = CliRunner().invoke(cli, ["--root", str(workspace), *args])
        assert result.exit_code == 0, result.output
    project = Project(workspace)
    for guide_id in ("shopify-catalog-clustering", "meta-llm-training-at-scale"):
        review.approve(project, guide_id, by="Ed")
    out = workspace / "site"
    publish(Project(workspace), out, preview=False)

    hub = out / "topics" / "日本語" / "index.html"
    company = out / "companies" / "ünïcödé-gmbh" / "index.html"
    assert hub.is_file() and company.is_file()
    base = Project(workspace).settings.site.base_url.rstrip("/")
    locs = [
        loc.text
        for loc in ET.parse(out / "sitemap.xml").iter(
            "{http://www.sitemaps.org/schemas/sitemap/0.9}loc"
        )
    ]
    assert f"{base}/topics/%E6%97%A5%E6%9C%AC%E8%AA%9E/" in locs
    assert f"{base}/companies/%C3%BCn%C3%AFc%C3%B6d%C3%A9-gmbh/" in locs
    assert all(loc.isascii() for loc in locs)
    ET.parse(out / "feed.xml")  # still well-formed
    links = 0
    for page in out.rglob("*.html"):
        relative = page.relative_to(out).as_posix()
        for href in re.findall(r'href="([^"#]+)(?:#[^"]*)?"', page.read_text(encoding="utf-8")):
            if href.startswith(("http://", "https://")):
                continue
            assert href.isascii(), (relative, href)
            # 404.html links from the site's path, as a host serves it at any address
            target = out / unquote(href[1:] if href.startswith("/") else urljoin(relative, href))
            assert target.is_file(), (relative, href)
            links += "%" in href
    assert links >= 4  # tag links, the topics and companies listings, the company link
