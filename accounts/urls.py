"""The account's web pages, mounted at ``/profile/`` (namespace ``accounts``)."""

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("", views.profile, name="profile"),
    path("data/", views.download_data, name="data"),
    path("delete/", views.delete_account, name="delete"),
    path("deleted/", views.deleted, name="deleted"),
]
