"""MkDocs hooks for the docs site (mkdocs.yml, ``hooks:``).

The code's docstrings use Sphinx roles (``:class:`Rules```), which mkdocstrings renders as
the literal role followed by the code; this drops the role so the API reference reads
``Rules`` in code type, as the docstrings mean.
"""

from __future__ import annotations

import re
from typing import Any

SPHINX_ROLE = re.compile(r":(?:py:)?(?:func|class|mod|meth|attr|data|exc|obj):(?=<code)")


def on_page_content(html: str, **kwargs: Any) -> str:
    """The page's HTML with Sphinx roles before inline code removed."""
    return SPHINX_ROLE.sub("", html)
