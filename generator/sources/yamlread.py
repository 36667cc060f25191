"""A safe YAML reader for records: dates stay text, duplicate keys and deep nesting refused."""

from __future__ import annotations

from typing import Any

import yaml

MAX_NESTING = 100


class RecordLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml when available
    """A safe YAML loader that keeps dates as text and refuses duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


# Dates stay strings so that parse_date judges them and errors name the field.
RecordLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def nesting_too_deep(text: str, limit: int = MAX_NESTING) -> bool:
    """Return True if YAML text nests collections deeper than limit, without building them.

    libyaml's composer recurses in C and crashes the process on deep nesting.
    """
    if sum(text.count(char) for char in "[{-:?") <= limit:  # each level needs one of these
        return False
    loader = RecordLoader(text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > limit:
                    return True
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError as exc:
        # PyYAML 6.0.4 and later stop at their own depth limit; earlier ones never do.
        return "maximum nesting depth" in str(exc)
    finally:
        loader.dispose()
    return False


def load_yaml(text: str) -> Any:
    """Parse YAML text; raise RecursionError if it nests deeper than MAX_NESTING."""
    if nesting_too_deep(text):
        raise RecursionError(f"nested more than {MAX_NESTING} levels deep")
    return yaml.load(text, Loader=RecordLoader)  # noqa: S506 - a SafeLoader subclass


# What a parse depends on, for the parsed index: a new PyYAML or rule parses anew.
PARSER = f"yaml {yaml.__version__} {RecordLoader.__mro__[1].__name__} {MAX_NESTING} 1"
