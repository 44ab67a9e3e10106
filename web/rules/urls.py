"""The rules pages' URLs, included at the site root by ``harbormaster/urls.py``."""

from __future__ import annotations

from django.urls import path

from web.rules import views

app_name = "rules"

urlpatterns = [
    path("rules/", views.rules_index, name="index"),
    path("rules/<slug:engine>/", views.rules_page, name="page"),
]
