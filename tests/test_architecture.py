"""The package's shape: stages in order, no import circles, a thin CLI, and a true code map."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "generator"

# Lowest first: a module may import its own stage or a lower one, never a higher one.
STAGES = (
    "core",
    "sources",
    "verify",
    "guides",
    "llm",
    "checks",
    "drafting",
    "batch",
    "review",
    "digest",
    "site",
    "pipeline",
    "cli",
)
# Optional extras may be imported where they are used, inside a function.
OPTIONAL = {"flask"}
# Imports inside a function, each for start-up time and none hiding a circle (the circle test
# reads them too): a run loads only the backend it chose, and the SDK while its worker forks.
LAZY_ALLOWED = {
    "drafting.backends": {
        "drafting.build",
        "drafting.offline",
        "drafting.playbook",
        "drafting.openai_drafter",
        "drafting.article_build",
        "drafting.article_offline",
        "drafting.article_openai",
        "drafting.article_prompts",
        "llm.client",
    },
    "drafting.run": {"drafting.openai_drafter", "llm.transport"},
}
# A forked worker ends with os._exit so that the parent's exit handlers do not run twice.
EXITS_ALLOWED = {"core.workers": {"_exit"}}


def modules() -> dict[str, Path]:
    """Name every module of the package relative to it: "checks", "site.model"."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = modules()


def resolve(name: str) -> str | None:
    """Return the package module a dotted name lands in ("" is the package's own __init__)."""
    name = name.removeprefix("generator").lstrip(".")
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports(module: str) -> list[tuple[str, bool, int]]:
    """Return (module, at top level, line) for every package import of one module."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    for node in tree.body:  # type-only imports run never; stage and circle tests still read them
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            top |= {id(child) for child in node.body}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(["generator", *parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            subs = [f"{base}.{alias.name}" for alias in node.names]
            names = (
                subs if all(resolve(s) == s.removeprefix("generator.") for s in subs) else [base]
            )
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "lazy_exports":
            # A package's exports load on first use: each names the module it comes from.
            where = node.args[1]
            names = [f"generator.{module}.{value.value}" for value in where.values]  # type: ignore[attr-defined]
            top.add(id(node))
        for name in names:
            if name == "generator" or name.startswith("generator."):
                target = resolve(name)
                if target is not None and target != module:
                    found.append((target, id(node) in top, node.lineno))
    return found


def stage(module: str) -> int:
    return STAGES.index(module.split(".")[0]) if module else -1


def test_every_module_belongs_to_a_stage() -> None:
    loose = [m for m in MODULES if m and m != "__main__" and m.split(".")[0] not in STAGES]
    assert loose == []


def test_no_module_imports_a_higher_stage() -> None:
    wrong = [
        f"{module} imports {target} (line {line})"
        for module in MODULES
        if module.split(".")[0] in STAGES
        for target, _, line in imports(module)
        if target and stage(target) > stage(module)
    ]
    assert wrong == []


def test_the_imports_form_no_circle() -> None:
    graph = {m: {t for t, _, _ in imports(m) if t} for m in MODULES}
    # Importing a module runs its package's __init__ first, so a package's own __init__
    # importing its modules is not a circle; a module importing its package's __init__ is.
    state: dict[str, int] = {}
    circles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join([*path[path.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_no_lazy_import_outside_the_cli() -> None:
    lazy = [
        f"{module} imports {target} inside a function (line {line})"
        for module in MODULES
        if not module.startswith("cli") and module != "__main__"
        for target, top, line in imports(module)
        if not top and target not in LAZY_ALLOWED.get(module, set())
    ]
    assert lazy == []


def _imported_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and not node.level:
        return [node.module or ""]
    return []


def _called(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return ""


def test_only_the_cli_imports_click_prints_or_exits() -> None:
    forbidden = {"print", "exit", "quit", "sys.exit", "os._exit", "os.abort"}
    wrong = []
    for module, path in MODULES.items():
        if module.startswith("cli") or module == "__main__":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if any(name.split(".")[0] == "click" for name in _imported_names(node)):
                wrong.append(f"{module} imports click (line {node.lineno})")
            called = _called(node) if isinstance(node, ast.Call) else ""
            allowed = EXITS_ALLOWED.get(module, set())
            if called in forbidden and called.split(".")[-1] not in allowed:
                wrong.append(f"{module} calls {called}() (line {node.lineno})")
    assert wrong == []


def test_optional_extras_are_imported_only_by_the_cli_or_lazily() -> None:
    eager = []
    for module, path in MODULES.items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            for name in _imported_names(node):
                if name.split(".")[0] in OPTIONAL and module != "review.web":
                    eager.append(f"{module} imports {name}")
    assert eager == []
    importers = {
        module for module in MODULES for target, _, _ in imports(module) if target == "review.web"
    }
    assert {m.split(".")[0] for m in importers} <= {"cli"}


def test_every_stage_package_says_what_it_holds_and_exports_a_sorted_all() -> None:
    for name in STAGES:
        init = PACKAGE / name / "__init__.py"
        if not init.exists():
            assert (PACKAGE / f"{name}.py").is_file(), name
            continue
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{init} has no docstring"
        exported = [
            node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and any(getattr(t, "id", "") == "__all__" for t in node.targets)
        ]
        assert len(exported) == 1, f"{init} has no __all__"
        names = [element.value for element in exported[0].elts]  # type: ignore[attr-defined]
        # Sorted as isort and ruff sort it: CONSTANTS, then Classes, then functions.
        kinds = sorted(names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))
        assert names == kinds, f"{init}: __all__ is not sorted"


def test_the_code_map_names_every_package_and_only_modules_that_exist() -> None:
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    for name in STAGES:
        assert f"`{name}/`" in text or f"`{name}.py`" in text, f"ARCHITECTURE.md lacks {name}"
    for mentioned in re.findall(r"`((?:[a-z_]+/)+[a-z_]+\.py)`", text):
        path = (
            ROOT / mentioned
            if mentioned.startswith(("generator/", "tests/"))
            else PACKAGE / mentioned
        )
        assert path.is_file(), f"ARCHITECTURE.md names {mentioned}"
