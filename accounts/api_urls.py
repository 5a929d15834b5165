"""The person's data in the API, mounted at ``/api/v1/profile/`` (before the games API's
catch-all, see ``lords/urls.py``)."""

from django.urls import path

from accounts import api_data

app_name = "profile-api"

urlpatterns = [
    path("", api_data.AccountView.as_view(), name="account"),
    path("data/", api_data.PersonalDataView.as_view(), name="data"),
]
