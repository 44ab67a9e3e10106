"""The site's URLs and one more for tests: what Django took for the request's client."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.urls import path

from common.client_address import throttle_ident
from harbormaster import urls as site
from harbormaster.urls import handler400, handler403, handler404, handler500  # noqa: F401

CLIENT_PATH = "/test/client/"


def client(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {"remote_addr": request.META.get("REMOTE_ADDR"), "ident": throttle_ident(request)}
    )


urlpatterns = [path(CLIENT_PATH.strip("/") + "/", client), *site.urlpatterns]
