"""The web door's pages, mounted at ``/games/`` (namespace ``web``)."""

from django.urls import path

from games.web import views

app_name = "web"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("<int:game_id>/", views.game, name="game"),
    path("<int:game_id>/join/", views.join, name="join"),
    path("<int:game_id>/start/", views.start, name="start"),
    path("<int:game_id>/leave/", views.leave, name="leave"),
    path("<int:game_id>/resign/", views.resign, name="resign"),
    path("<int:game_id>/bots/", views.add_bot, name="add-bot"),
    path("<int:game_id>/bots/<int:order>/remove/", views.remove_bot, name="remove-bot"),
    path("<int:game_id>/invitations/", views.invite, name="invite"),
    path(
        "<int:game_id>/invitations/<int:invitation_id>/withdraw/",
        views.withdraw_invitation,
        name="withdraw-invitation",
    ),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    path("invitations/<str:token>/accept/", views.accept_invitation, name="accept-invitation"),
    path("invitations/<str:token>/decline/", views.decline_invitation, name="decline-invitation"),
    path("<int:game_id>/trades/", views.propose_trade, name="propose-trade"),
    path("<int:game_id>/trades/<int:offer_id>/accept/", views.accept_trade, name="accept-trade"),
    path("<int:game_id>/trades/<int:offer_id>/decline/", views.decline_trade, name="decline-trade"),
    path(
        "<int:game_id>/trades/<int:offer_id>/withdraw/",
        views.withdraw_trade,
        name="withdraw-trade",
    ),
]
