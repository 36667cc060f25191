"""The review page: a local Flask app over the review library (queue, evidence, diffs, actions)."""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
from functools import partial
from pathlib import Path

from flask import Flask, abort, g, redirect, render_template, request, url_for
from jinja2 import StrictUndefined
from markupsafe import Markup
from werkzeug.serving import BaseWSGIServer
from werkzeug.serving import make_server as werkzeug_server

from generator import review
from generator.checks import cached_findings, findings_cache
from generator.core.errors import ConfigError, PrepguideError
from generator.core.names import plural
from generator.guides.markdown import to_html
from generator.guides.project import Project
from generator.review import articles as review_articles
from generator.review import spans
from generator.sources.records import is_valid_id

# What a ?done= value says was done.
DONE = {
    "approved": "approved",
    "rejected": "rejected",
    "withdrawn": "withdrawn",
    "commented": "comment added",
    "assigned": "assignment saved",
}
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}
MAX_REQUEST_BYTES = 256 * 1024  # the forms hold a name and a note
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def host_name(header: str) -> str:
    """Return the host of a Host header without its port, brackets removed from IPv6."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def is_loopback(host: str) -> bool:
    """Return True for an address or name that only this machine can reach."""
    host = host_name(host)
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def evidence(row: review.GuideReview) -> tuple[list[spans.Claim], list[dict]]:
    """Locate the figures and quotes of "reports" and split source fields into highlights."""
    if row.doc is None or row.source is None:
        return [], []
    return spans.marked_fields(spans.reports_text(row.doc), row.source)


def create_app(
    root: Path, *, secret: str | None = None, allow_hosts: tuple[str, ...] = ()
) -> Flask:
    """Build the review app for one workspace; the CSRF token lives as long as the process."""
    app = Flask(
        "generator",
        template_folder="templates",
        static_folder="templates/review/static",
        static_url_path="/static",
    )
    app.jinja_env.undefined = StrictUndefined
    token = secret or secrets.token_urlsafe(32)
    app.config["CSRF_TOKEN"] = token
    app.config["ALLOWED_HOSTS"] = LOCAL_HOSTS | {host_name(h) for h in allow_hosts}
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES

    desk = review.Desk(root)

    def now() -> review.Current:
        """Return the workspace for this request (made once a request)."""
        if "now" not in g:
            g.now = desk.current()
        return g.now

    def project() -> Project:
        return now().project

    @app.before_request
    def guard():
        if host_name(request.host or "") not in app.config["ALLOWED_HOSTS"]:
            abort(400, f"unexpected Host header {request.host!r}; see review serve --allow-host")
        # Refuse a large body before anything reads it (the CSRF check parses the form).
        if (request.content_length or 0) > MAX_REQUEST_BYTES:
            abort(413, f"refused: requests are limited to {MAX_REQUEST_BYTES // 1024} KB")

    @app.after_request
    def secure(response):
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.context_processor
    def globals_():
        return {"csrf_token": token, "statuses": review.STATUSES}

    def known(guide_id: str, proj: Project) -> None:
        if not is_valid_id(guide_id) or guide_id not in proj.guides.ids():
            abort(404, f"no guide {guide_id!r}")

    def queue_rows() -> list[dict]:
        """Return every guide's queue row, with its assignee and comments."""
        return desk.rows(now())

    def chosen(query: review.QueueQuery) -> list[dict]:
        """Return the rows the query keeps, in its order."""
        return review.select(queue_rows(), query, desk.texts)

    @app.get("/")
    def queue():
        decided = done_message()
        return queue_page(ok=decided or bulk_message(), emptied=decided is not None)

    def queue_page(ok=None, message: str | None = None, code: int = 200, emptied=False):
        query = review.QueueQuery.parse(request.args)
        rows = queue_rows()
        selected = review.select(rows, query, desk.texts)
        clean = review.clean_drafts(selected)
        page = render_template(
            "review/queue.html",
            page=review.page_of(selected, query, rows),
            query=query,
            sorts=review.SORTS,
            clean=clean,
            seen=review.seen_key(clean),
            reviewer=review.default_reviewer(project().settings, os.environ) or "",
            ok=ok,
            message=message,
            emptied=emptied,
            articles=review_articles.article_queue(project()),
        )
        return page, code

    def bulk_message() -> str | None:
        count = request.args.get("approved_clean", "")
        return f"approved {plural(int(count), 'clean draft')}" if count.isdigit() else None

    @app.post("/approve-clean")
    def approve_clean():
        """Approve the drafts with no findings in the view, as the page showed them."""
        checked_form()
        proj = project()
        query = review.QueueQuery.parse(request.args)
        clean = review.clean_drafts(chosen(query))
        if request.form.get("seen") != review.seen_key(clean):
            message = (
                "Refused: the drafts with no findings in this view changed since the page was "
                "loaded; nothing was approved. Look at them again and approve."
            )
            return queue_page(message=message, code=409)
        with findings_cache(proj) as cache:
            try:
                outcomes, refused = review.approve_many(
                    proj,
                    list(clean),
                    by=request.form.get("by", ""),
                    note=request.form.get("note") or None,
                    clean=True,
                    findings_of=partial(cached_findings, proj, cache),
                    expected=clean,
                )
            except PrepguideError as exc:
                return queue_page(message=f"Refused: {exc.message}", code=409)
        passed = len(clean) - len(outcomes) - len(refused)
        if refused or passed:
            problems = [exc.message for exc in refused]
            if passed:
                problems.append(f"{plural(passed, 'draft')} had findings when checked again")
            done = f"approved {plural(len(outcomes), 'clean draft')}"
            return queue_page(ok=done, message="Not approved: " + "; ".join(problems), code=409)
        where = url_for("queue", approved_clean=len(outcomes), **query.order())
        return redirect(where, code=303)

    def guide_page(guide_id: str, message: str | None = None, ok: str | None = None, code=200):
        proj = project()
        known(guide_id, proj)
        query = review.QueueQuery.parse(request.args)
        ids = [row["id"] for row in chosen(query)]
        previous_id, next_id = review.neighbours(ids, guide_id)
        with findings_cache(proj) as cache:
            row = review.inspect(proj, guide_id, partial(cached_findings, proj, cache))
        claims, fields = evidence(row)
        problem = None
        try:
            previous = review.diff_previous(proj, guide_id) if row.doc else None
            published = review.diff_published(proj, guide_id) if row.doc else None
        except PrepguideError as exc:
            previous = published = None
            problem = str(exc)
        html = Markup(to_html(row.doc.body)) if row.doc else Markup("")
        originals = proj.originals(row.source) if row.source else []
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
            source_checked=originals[0].checked if originals else None,
            originals=originals,
            reviewer=review.default_reviewer(proj.settings, os.environ) or "",
            previous_id=previous_id,
            next_id=next_id,
            query=query.order(),
            queue_page=review.page_holding(ids, guide_id, query.per_page),
            remarks=review.remarks_of(proj, guide_id),
            assignee=review.assignees(proj).get(guide_id),
        )
        return page, code

    @app.get("/guides/<guide_id>")
    def guide(guide_id: str):
        return guide_page(guide_id, ok=done_message())

    def done_message() -> str | None:
        done, prior = request.args.get("done"), request.args.get("prior", "")
        if done not in DONE:
            return None
        return f"{DONE[done]} {prior}" if is_valid_id(prior) else DONE[done]

    def checked_form() -> None:
        sent = request.form.get("csrf_token", "")
        if not hmac.compare_digest(sent.encode(), token.encode()):
            abort(403, "refused: the form's CSRF token is missing or wrong; reload the page")

    def act(guide_id: str, action, done: str, *, onward: bool = False, checks=False, **kwargs):
        """Run an action; an approval or a rejection then goes on to the next guide to review.

        checks: pass the action the cached findings (an approval checks the text).
        """
        proj = project()
        known(guide_id, proj)
        checked_form()
        query = review.QueueQuery.parse(request.args)
        following = review.next_to_review(chosen(query), guide_id) if onward else None
        try:
            with findings_cache(proj) as cache:
                if checks:
                    kwargs["findings_of"] = partial(cached_findings, proj, cache)
                action(proj, guide_id, by=request.form.get("by", ""), **kwargs)
        except PrepguideError as exc:
            return guide_page(guide_id, message=f"Refused: {exc.message}", code=409)
        there = query.order()
        if not onward:
            anchor = "discussion" if done in ("commented", "assigned") else None
            where = url_for("guide", guide_id=guide_id, done=done, _anchor=anchor, **there)
            return redirect(where, code=303)
        if following is None:
            return redirect(url_for("queue", done=done, prior=guide_id, **there), code=303)
        where = url_for("guide", guide_id=following, done=done, prior=guide_id, **there)
        return redirect(where, code=303)

    @app.post("/guides/<guide_id>/approve")
    def approve(guide_id: str):
        return act(
            guide_id,
            review.approve,
            "approved",
            onward=True,
            checks=True,
            note=request.form.get("note") or None,
            expected_hash=request.form.get("content_hash") or None,
        )

    @app.post("/guides/<guide_id>/reject")
    def reject(guide_id: str):
        return act(
            guide_id,
            review.reject,
            "rejected",
            onward=True,
            note=request.form.get("note", ""),
            expected_hash=request.form.get("content_hash") or None,
        )

    @app.post("/guides/<guide_id>/comment")
    def comment(guide_id: str):
        return act(guide_id, review.comment, "commented", text=request.form.get("text", ""))

    @app.post("/guides/<guide_id>/assign")
    def assign(guide_id: str):
        return act(guide_id, review.assign, "assigned", to=request.form.get("to", ""))

    @app.post("/guides/<guide_id>/withdraw")
    def withdraw(guide_id: str):
        return act(guide_id, review.withdraw, "withdrawn", reason=request.form.get("reason", ""))

    def article_page(slug: str, message: str | None = None, ok: str | None = None, code=200):
        view = review_articles.article_view(project())
        if not is_valid_id(slug) or slug not in view.guides.ids():
            abort(404, f"no article {slug!r}")
        row = review_articles.review_article(view, slug)
        page = render_template(
            "review/article.html",
            row=row,
            slug=slug,
            html=Markup(to_html(row.doc.body)) if row.doc else Markup(""),
            blocks=review_articles.block_evidence(view, row.doc) if row.doc else [],
            message=message,
            ok=ok,
            reasons=review.WITHDRAW_REASONS,
            reviewer=review.default_reviewer(view.settings, os.environ) or "",
        )
        return page, code

    @app.get("/articles/<slug>")
    def article(slug: str):
        done = request.args.get("done")
        return article_page(slug, ok=DONE.get(done) if done else None)

    def act_article(slug: str, action, done: str, **kwargs):
        """Run a review action on an article, then show it again."""
        checked_form()
        view = review_articles.article_view(project())
        if not is_valid_id(slug) or slug not in view.guides.ids():
            abort(404, f"no article {slug!r}")
        try:
            action(view, slug, by=request.form.get("by", ""), **kwargs)
        except PrepguideError as exc:
            return article_page(slug, message=f"Refused: {exc.message}", code=409)
        return redirect(url_for("article", slug=slug, done=done), code=303)

    @app.post("/articles/<slug>/approve")
    def approve_article(slug: str):
        view = review_articles.article_view(project())
        return act_article(
            slug,
            review.approve,
            "approved",
            note=request.form.get("note") or None,
            expected_hash=request.form.get("content_hash") or None,
            findings_of=view.findings,
        )

    @app.post("/articles/<slug>/reject")
    def reject_article(slug: str):
        return act_article(
            slug,
            review.reject,
            "rejected",
            note=request.form.get("note", ""),
            expected_hash=request.form.get("content_hash") or None,
        )

    @app.post("/articles/<slug>/withdraw")
    def withdraw_article(slug: str):
        return act_article(
            slug, review.withdraw, "withdrawn", reason=request.form.get("reason", "")
        )

    @app.errorhandler(400)
    @app.errorhandler(403)
    @app.errorhandler(404)
    @app.errorhandler(413)
    def refused(error):
        return render_template("review/error.html", error=error), error.code

    return app


def make_server(
    root: Path, host: str = "127.0.0.1", port: int = 0, allow_hosts: tuple[str, ...] = ()
) -> BaseWSGIServer:
    """Return a threaded server for the review app (port 0 picks a free port).

    Beyond loopback it serves only the Host names in allow_hosts, and needs at least one.
    """
    if not is_loopback(host) and not allow_hosts:
        raise ConfigError(
            f"refusing to listen on {host} without --allow-host: name the host names or "
            "addresses reviewers will use (e.g. --allow-host review.example.lan)",
            rule="review.serve",
        )
    app = create_app(root, allow_hosts=(*allow_hosts, host) if is_loopback(host) else allow_hosts)
    return werkzeug_server(host, port, app, threaded=True)
