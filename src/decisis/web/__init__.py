"""The web front door: a JSON API (with its OpenAPI document at ``/openapi.json`` and
``/docs``) and pages for people to browse the graph, ask what stands and audit the ledger.

Like the CLI and the MCP server it holds no logic of its own: every route parses its input,
calls the graph, ``decisis.adr`` or the agent tools, and prints the result (JSON in the forms
of ``decisis.forms``, or HTML). ``decisis serve`` runs it; ``create_app`` builds it for an
ASGI server of your own. Needs the ``web`` extra (FastAPI, uvicorn, Jinja2).
"""

from __future__ import annotations

from decisis.web.app import create_app, serve

__all__ = ["create_app", "serve"]
