"""The scripts and styles the app ships, served from the package (``decisis/web/static``,
each library with its LICENSE and a SOURCE note naming the npm package and version), and
the API's browsable documentation at ``/docs`` built on them. Nothing is fetched from a CDN:
a server on a machine without the internet (or a browser that may not reach one) still
shows its documentation and its pictures."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

__all__ = ["STATIC", "mount"]

STATIC = "/static"  # where the package's static folder is served
SWAGGER = f"{STATIC}/swagger-ui"


def mount(app: FastAPI) -> None:
    """Serve the static folder and ``/docs`` (Swagger UI from it) on ``app``, which must be
    made with ``docs_url=None`` and ``redoc_url=None`` (FastAPI's own load from CDNs)."""
    app.mount(STATIC, StaticFiles(packages=[("decisis.web", "static")]), name="static")
    openapi_url = app.openapi_url or "/openapi.json"
    title = f"{app.title} API"

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=title,
            swagger_js_url=f"{SWAGGER}/swagger-ui-bundle.js",
            swagger_css_url=f"{SWAGGER}/swagger-ui.css",
            swagger_favicon_url=f"{SWAGGER}/favicon-32x32.png",
            # no badge from validator.swagger.io: the document is checked in the tests
            swagger_ui_parameters={"validatorUrl": None},
        )
