"""The person pages; allauth's account pages are included under /accounts/ by the site urls."""

from __future__ import annotations

from django.urls import path

from web.people import views

app_name = "people"

urlpatterns = [
    path("me/", views.me, name="me"),
    path("me/waiting.json", views.waiting_json, name="waiting"),
    path("people/<str:username>/", views.person_page, name="person"),
]
