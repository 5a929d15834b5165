"""The web door's pages, mounted at ``/games/`` (namespace ``web``)."""

from django.urls import path

from games.web import calendar, talk, trade_builder, views

app_name = "web"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("calendar/new/", calendar.regenerate, name="calendar-new"),
    path("calendar/<str:token>.ics", calendar.feed, name="calendar"),
    path("new/", views.create, name="create"),
    path("<int:game_id>/", views.game, name="game"),
    path("<int:game_id>/moves/", views.replay_goto, name="replay-goto"),
    path("<int:game_id>/moves/<int:seq>/", views.replay, name="replay"),
    path("<int:game_id>/live/", views.live, name="live"),
    path("<int:game_id>/join/", views.join, name="join"),
    path("<int:game_id>/start/", views.start, name="start"),
    path("<int:game_id>/leave/", views.leave, name="leave"),
    path("<int:game_id>/resign/", views.resign, name="resign"),
    path("<int:game_id>/pause/", views.vote_pause, name="vote-pause"),
    path("<int:game_id>/pause/withdraw/", views.withdraw_pause_vote, name="withdraw-pause-vote"),
    path("<int:game_id>/pause/end/", views.end_pause, name="end-pause"),
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
    path("<int:game_id>/trades/new/", trade_builder.build, name="trade-builder"),
    path("<int:game_id>/trades/new/propose/", trade_builder.propose, name="trade-builder-propose"),
    path("<int:game_id>/trades/<int:offer_id>/accept/", views.accept_trade, name="accept-trade"),
    path("<int:game_id>/trades/<int:offer_id>/decline/", views.decline_trade, name="decline-trade"),
    path(
        "<int:game_id>/trades/<int:offer_id>/withdraw/",
        views.withdraw_trade,
        name="withdraw-trade",
    ),
    path("<int:game_id>/chat/", talk.say, name="say"),
    path("<int:game_id>/chat/mute/", talk.mute, name="mute"),
    path("<int:game_id>/notes/", talk.notes, name="notes"),
]
