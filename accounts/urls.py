"""The account's web pages, mounted at ``/profile/`` (namespace ``accounts``)."""

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("", views.profile, name="profile"),
]
