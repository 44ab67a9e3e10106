"""One error shape for the API.

Validation errors keep DRF's form, which names each field (``{"name": ["..."]}``;
errors about the request as a whole under ``non_field_errors``). Every other
error is ``{"detail": "<what went wrong>", "code": "<stable code>"}``, e.g.
``not_authenticated``, ``not_found`` or a :class:`botapi.services.BotConflict`
code such as ``has_games`` (409).

Every answer under ``/api/`` has that shape, including those that never
reach a DRF view: :func:`exception_handler` turns an unexpected exception in
a view into a JSON 500 (still logged with its traceback), :func:`not_found`
answers any unknown path under ``/api/`` (a non-numeric id included), and
the project's ``handler400/403/404/500`` answer JSON for API paths.
Bodies over the size limit are refused before Django reads them
(:mod:`web.http.bodylimit`, a 413); a WSGI server's request reaches
:func:`exception_handler` instead, with the same answer.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core import signals
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from botapi.services import BotConflict

API_PREFIX = "/api/"
request_logger = logging.getLogger("django.request")


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "the request conflicts with the current state of the resource"
    default_code = "conflict"


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "the request body is larger than the server accepts"
    default_code = "request_too_large"


def error(detail: str, code: str) -> dict[str, str]:
    """The body of every non-validation error."""
    return {"detail": detail, "code": code}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, BotConflict):
        exc = Conflict(exc.message, exc.code)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound("not found (or not yours)")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        exc = RequestTooLarge()  # the client's doing: no error log, no traceback
    response = drf_exception_handler(exc, context)
    if response is None:
        return _server_error(exc, context)
    if (
        isinstance(exc, exceptions.APIException)
        and not isinstance(exc, exceptions.ValidationError)
        and isinstance(exc.detail, str)
    ):
        response.data = error(str(exc.detail), exc.detail.code)
    return response


def _server_error(exc: Exception, context: dict[str, Any]) -> Response:
    """A JSON 500 for an unexpected exception, reported exactly as Django reports one.

    The ``got_request_exception`` signal and the ``django.request`` error log
    with the traceback are what Django's own handler would produce (error
    reporting hooks and the test client rely on them); only the answer differs.
    """
    request = getattr(context.get("request"), "_request", None)
    signals.got_request_exception.send(sender=None, request=request)
    path = request.path if request is not None else "?"
    request_logger.error(
        "Internal Server Error: %s",
        path,
        exc_info=exc,
        extra={"status_code": 500, "request": request},
    )
    set_rollback()
    return Response(
        error("internal server error; it has been logged", "server_error"),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


# ---------------------------------------------------------------- Django level
def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


@csrf_exempt  # like the API's own views: a POST to a wrong path is a 404, not a CSRF 403
def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any path under /api/ that no endpoint matches (mounted last in the URLs)."""
    return JsonResponse(
        error(f"no API endpoint at {request.path}", "not_found"), status=status.HTTP_404_NOT_FOUND
    )


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return JsonResponse(error(RequestTooLarge.default_detail, "request_too_large"), status=413)
    return JsonResponse(error("bad request", "bad_request"), status=400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.permission_denied(request, exception)
    return JsonResponse(error("permission denied", "permission_denied"), status=403)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return not_found(request)


def server_error(request: HttpRequest) -> HttpResponse:
    if not _is_api(request):
        return defaults.server_error(request)
    return JsonResponse(
        error("internal server error; it has been logged", "server_error"), status=500
    )
