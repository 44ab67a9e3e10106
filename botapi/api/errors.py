"""One error shape for the API.

Validation errors keep DRF's form, which names each field (``{"name": ["..."]}``;
errors about the request as a whole under ``non_field_errors``). Every other
error is ``{"detail": "<what went wrong>", "code": "<stable code>"}``, e.g.
``not_authenticated``, ``not_found`` or a :class:`botapi.services.BotConflict`
code such as ``has_games`` (409).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from botapi.services import BotConflict


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "the request conflicts with the current state of the resource"
    default_code = "conflict"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, BotConflict):
        exc = Conflict(exc.message, exc.code)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound("not found (or not yours)")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if (
        response is not None
        and isinstance(exc, exceptions.APIException)
        and not isinstance(exc, exceptions.ValidationError)
        and isinstance(exc.detail, str)
    ):
        response.data = {"detail": str(exc.detail), "code": exc.detail.code}
    return response
