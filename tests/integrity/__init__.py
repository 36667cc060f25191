"""The integrity corpus: wrong and legitimate editor edits to generated guides (issue 13)."""

from .corpus import TEMPLATES, Corpus, build_corpus, write_body

__all__ = ["TEMPLATES", "Corpus", "build_corpus", "write_body"]
