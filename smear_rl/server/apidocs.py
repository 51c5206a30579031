"""The API reference at ``/docs``: one HTML page built from the service's OpenAPI schema, needing nothing else.

FastAPI's own pages (Swagger UI, ReDoc) load their scripts and styles from a CDN: offline,
or behind a firewall, they are blank, and every visit tells a third party who is reading.
This page is rendered on the server from ``/openapi.json``: every operation with its
parameters, request body and answers, then every schema, in plain HTML with its style
inline and no script, so it works wherever the service does (and its answer forbids the
browser to fetch anything else). The protocol page, ``docs/protocol.md``, has the examples.
"""

from __future__ import annotations

import html
import json
from typing import Any

STYLE = """
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem 2rem; color: #1d1d1f; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2.5rem; border-top: 1px solid #ccc; padding-top: 1rem; }
h3 { margin: 1.2rem 0 0.3rem; font-size: 1rem; }
code, .type { font-family: ui-monospace, monospace; font-size: 0.9em; }
.method { display: inline-block; min-width: 4.5rem; font-weight: bold; }
table { border-collapse: collapse; width: 100%; margin: 0.3rem 0; }
th, td { text-align: left; vertical-align: top; padding: 0.25rem 0.5rem; border-bottom: 1px solid #e3e3e3; }
th { background: #f4f4f6; } nav li { margin: 0.1rem 0; } a { color: #0b5cad; }
"""

HTTP_METHODS = ("get", "post", "put", "patch", "delete")


def api_page(schema: dict[str, Any]) -> str:
    """The whole page for an OpenAPI ``schema``."""
    info = schema.get("info", {})
    operations = [
        (path, method, op)
        for path, item in schema.get("paths", {}).items()
        for method, op in item.items()
        if method in HTTP_METHODS
    ]
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{_text(info.get('title', 'API'))}</title><style>{STYLE}</style></head><body>",
        f"<h1>{_text(info.get('title', 'API'))}</h1>",
        f"<p>API version {_text(info.get('version', ''))}. {_text(info.get('description', ''))} "
        "The schema itself: <a href='/openapi.json'>/openapi.json</a>.</p>",
        "<nav aria-label='Operations'><ul>",
        *(
            f"<li><a href='#{_anchor(method, path)}'><span class='method'>{method.upper()}</span>"
            f"<code>{_text(path)}</code></a> {_text(op.get('summary', ''))}</li>"
            for path, method, op in operations
        ),
        "</ul></nav><main>",
        *(_operation(path, method, op) for path, method, op in operations),
        _schemas(schema.get("components", {}).get("schemas", {})),
        "</main></body></html>",
    ]
    return "\n".join(parts)


def _operation(path: str, method: str, op: dict[str, Any]) -> str:
    parts = [
        f"<section><h2 id='{_anchor(method, path)}'><span class='method'>{method.upper()}</span>"
        f"<code>{_text(path)}</code></h2>",
        f"<p>{_text(op.get('summary', ''))}</p>",
    ]
    if op.get("description"):
        parts.append(f"<p>{_text(op['description'])}</p>")
    parameters = op.get("parameters", [])
    if parameters:
        rows = [
            (f"<code>{_text(p['name'])}</code>", _text(p.get("in", "")), "yes" if p.get("required") else "",
             _type(p.get("schema", {})), _text(p.get("description") or p.get("schema", {}).get("description", "")))
            for p in parameters
        ]  # fmt: skip
        parts += ["<h3>Parameters</h3>", _table(("name", "in", "required", "type", "meaning"), rows)]
    body = op.get("requestBody", {}).get("content", {})
    for media, content in body.items():
        parts += [f"<h3>Request body ({_text(media)})</h3>", _schema_block(content.get("schema", {}))]
    answers = [
        (f"<code>{_text(status)}</code>", _text(answer.get("description", "")),
         " or ".join(_type(c.get("schema", {})) for c in answer.get("content", {}).values()))
        for status, answer in op.get("responses", {}).items()
    ]  # fmt: skip
    parts += ["<h3>Answers</h3>", _table(("status", "when", "body"), answers), "</section>"]
    return "\n".join(parts)


def _schemas(schemas: dict[str, Any]) -> str:
    parts = ["<h2 id='schemas'>Schemas</h2>"]
    for name, schema in schemas.items():
        parts += [f"<h3 id='schema-{_text(name)}'>{_text(name)}</h3>", _schema_block(schema)]
    return "\n".join(parts)


def _schema_block(schema: dict[str, Any]) -> str:
    """An object's fields as a table; anything else as its type."""
    properties = schema.get("properties")
    if not properties:
        description = f" {_text(schema['description'])}" if schema.get("description") else ""
        return f"<p>{_type(schema)}{description}</p>"
    required = set(schema.get("required", []))
    rows = [
        (f"<code>{_text(name)}</code>", "yes" if name in required else "", _type(field),
         _text(field.get("description", "")) + _default(field))
        for name, field in properties.items()
    ]  # fmt: skip
    intro = f"<p>{_text(schema['description'])}</p>" if schema.get("description") else ""
    return intro + _table(("field", "required", "type", "meaning"), rows)


def _type(schema: dict[str, Any]) -> str:
    """A schema's type in words, with its bounds; references link to the schema."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"<a href='#schema-{_text(name)}'>{_text(name)}</a>"
    for union in ("anyOf", "oneOf"):
        if union in schema:
            return " or ".join(_type(option) for option in schema[union])
    kind = schema.get("type")
    if kind == "array":
        text = "list of " + _type(schema.get("items", {}))
    elif "enum" in schema:
        text = "one of " + ", ".join(f"<code>{_text(json.dumps(v))}</code>" for v in schema["enum"])
    else:
        text = f"<span class='type'>{_text(kind or 'any')}</span>"
    bounds = [
        f"{word} {schema[key]}"
        for key, word in (("minimum", "&ge;"), ("maximum", "&le;"), ("maxLength", "at most"), ("maxItems", "at most"))
        if key in schema
    ]
    return text + (f" ({', '.join(bounds)})" if bounds else "")


def _default(schema: dict[str, Any]) -> str:
    return f" Default <code>{_text(json.dumps(schema['default']))}</code>." if "default" in schema else ""


def _table(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    head = "".join(f"<th>{h}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _anchor(method: str, path: str) -> str:
    return f"{method}-" + "".join(c if c.isalnum() else "-" for c in path).strip("-")


def _text(value: Any) -> str:
    return html.escape(str(value), quote=True)
