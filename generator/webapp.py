"""The review page: a local Flask app over the review library (queue, evidence, diffs, actions)."""

from __future__ import annotations

import hmac
import re
import secrets
from pathlib import Path

from flask import Flask, abort, redirect, render_template, request, url_for
from jinja2 import StrictUndefined
from markupsafe import Markup
from werkzeug.serving import BaseWSGIServer
from werkzeug.serving import make_server as werkzeug_server

from generator import review
from generator.errors import PrepguideError
from generator.markdown import to_html
from generator.project import Project

GUIDE_ID = re.compile(r"^[a-z0-9-]{1,80}$")
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]"}


def evidence(row: review.GuideReview) -> tuple[list[review.Claim], list[dict]]:
    """Locate the figures and quotes of "reports" and split source fields into highlights."""
    if row.doc is None or row.source is None:
        return [], []
    fields = review.source_fields(row.source)
    claims = review.locate_claims(review.reports_text(row.doc), fields)
    shown = []
    for name, value in fields:
        spans = [
            (span.start, span.end, number)
            for number, claim in enumerate(claims, start=1)
            for span in claim.spans
            if span.field == name
        ]
        shown.append({"name": name, "segments": review.highlight(value, spans)})
    return claims, shown


def create_app(root: Path, *, secret: str | None = None) -> Flask:
    """Build the review app for one workspace; the CSRF token lives as long as the process."""
    app = Flask(__name__, template_folder="templates")
    app.jinja_env.undefined = StrictUndefined
    token = secret or secrets.token_urlsafe(32)
    app.config["CSRF_TOKEN"] = token
    app.config["ALLOWED_HOSTS"] = set()

    def project() -> Project:
        return Project(root)

    @app.before_request
    def local_only():
        host = (request.host or "").rsplit(":", 1)[0]
        allowed = app.config.get("ALLOWED_HOSTS")
        if allowed is not None and host not in allowed and host not in LOCAL_HOSTS:
            abort(400, f"unexpected Host header {request.host!r}")

    @app.context_processor
    def globals_():
        return {"csrf_token": token, "statuses": review.STATUSES}

    def known(guide_id: str, proj: Project) -> None:
        if not GUIDE_ID.match(guide_id) or guide_id not in proj.guides.ids():
            abort(404, f"no guide {guide_id!r}")

    @app.get("/")
    def queue():
        status = request.args.get("status") or None
        rows = review.queue(project(), status if status in review.STATUSES else None)
        return render_template("review/queue.html", rows=rows, status=status)

    def guide_page(guide_id: str, message: str | None = None, ok: str | None = None, code=200):
        proj = project()
        known(guide_id, proj)
        row = review.inspect(proj, guide_id)
        claims, fields = evidence(row)
        problem = None
        try:
            previous = review.diff_previous(proj, guide_id) if row.doc else None
            published = review.diff_published(proj, guide_id) if row.doc else None
        except PrepguideError as exc:
            previous = published = None
            problem = str(exc)
        html = Markup(to_html(row.doc.body)) if row.doc else Markup("")
        page = render_template(
            "review/guide.html",
            row=row,
            html=html,
            claims=claims,
            fields=fields,
            previous=previous,
            published=published,
            revisions=proj.guides.revisions(guide_id),
            message=message or problem,
            ok=ok,
            reasons=review.WITHDRAW_REASONS,
        )
        return page, code

    @app.get("/guides/<guide_id>")
    def guide(guide_id: str):
        return guide_page(guide_id, ok=request.args.get("done"))

    def checked_form() -> None:
        sent = request.form.get("csrf_token", "")
        if not hmac.compare_digest(sent.encode(), token.encode()):
            abort(403, "refused: the form's CSRF token is missing or wrong; reload the page")

    def act(guide_id: str, action, done: str, **kwargs):
        proj = project()
        known(guide_id, proj)
        checked_form()
        try:
            action(proj, guide_id, by=request.form.get("by", ""), **kwargs)
        except PrepguideError as exc:
            return guide_page(guide_id, message=f"Refused: {exc.message}", code=409)
        return redirect(url_for("guide", guide_id=guide_id, done=done), code=303)

    @app.post("/guides/<guide_id>/approve")
    def approve(guide_id: str):
        return act(
            guide_id,
            review.approve,
            "approved",
            note=request.form.get("note") or None,
            expected_hash=request.form.get("content_hash") or None,
        )

    @app.post("/guides/<guide_id>/reject")
    def reject(guide_id: str):
        return act(
            guide_id,
            review.reject,
            "rejected",
            note=request.form.get("note", ""),
            expected_hash=request.form.get("content_hash") or None,
        )

    @app.post("/guides/<guide_id>/withdraw")
    def withdraw(guide_id: str):
        return act(guide_id, review.withdraw, "withdrawn", reason=request.form.get("reason", ""))

    @app.errorhandler(400)
    @app.errorhandler(403)
    @app.errorhandler(404)
    def refused(error):
        return render_template("review/error.html", error=error), error.code

    return app


def make_server(root: Path, host: str = "127.0.0.1", port: int = 0) -> BaseWSGIServer:
    """Return a threaded server for the review app (port 0 picks a free port)."""
    app = create_app(root)
    if host not in ("127.0.0.1", "localhost", "::1"):
        app.config["ALLOWED_HOSTS"] = None
    return werkzeug_server(host, port, app, threaded=True)
