"""The server's operator key: what only whoever runs the server may do (webhooks for every
encounter, the metrics)."""

from __future__ import annotations

import hmac

from litestar import Request

from server.auth.tokens import bearer, unauthorized
from server.http.problems import Problem


def check_operator_key(request: Request) -> None:
    """Refuse a request without the server's operator key (webhooks for every encounter see every
    fight; the metrics tell of every table)."""

    key: str | None = request.app.state.settings.operator_key
    if not key:
        raise Problem(403, "operator_key_not_set", "Forbidden",
                      "This needs the server's operator key: start it with FRACAS_OPERATOR_KEY.")
    secret = bearer(request)
    if secret is None:
        raise unauthorized("operator_key_required", "This route needs the server's operator key: "
                           "`Authorization: Bearer <key>`.")
    if not hmac.compare_digest(secret.encode(), key.encode()):
        raise Problem(403, "operator_key_invalid", "Forbidden", "That is not this server's operator key.")
