"""The league pages, mounted at ``/leagues/`` (namespace ``leagues``). The REST endpoints
are in :mod:`leagues.api_urls` (``/api/v1/leagues/``). The admins' pages are in
:mod:`leagues.manage_views`."""

from django.urls import path

from leagues import manage_views as m
from leagues import views

app_name = "leagues"

urlpatterns = [
    path("", views.league_list, name="list"),
    path("new/", m.create, name="create"),
    path("invitations/<str:token>/", m.accept, name="accept"),
    path("games/<int:game_id>/tools/<str:name>/", m.tool, name="tool"),
    path("<slug:slug>/", views.league_detail, name="detail"),
    path("<slug:slug>/join/", views.join, name="join"),
    path("<slug:slug>/leave/", views.leave, name="leave"),
    path("<slug:slug>/seasons/<int:number>/enter/", m.enter, name="enter"),
    path("<slug:slug>/manage/", m.manage_page, name="manage"),
    path("<slug:slug>/manage/edit/", m.edit, name="edit"),
    path("<slug:slug>/manage/admins/", m.appoint, name="appoint"),
    path("<slug:slug>/manage/admins/<int:user_id>/dismiss/", m.dismiss, name="dismiss"),
    path("<slug:slug>/manage/members/", m.add_member, name="add_member"),
    path("<slug:slug>/manage/members/<int:user_id>/remove/", m.remove_member, name="remove_member"),
    path("<slug:slug>/manage/requests/<int:user_id>/<str:verdict>/", m.answer, name="answer"),
    path("<slug:slug>/manage/invite/", m.invite, name="invite"),
    path(
        "<slug:slug>/manage/invitations/<int:invitation_id>/withdraw/",
        m.withdraw_invitation,
        name="withdraw_invitation",
    ),
    path("<slug:slug>/manage/announce/", m.announce, name="announce"),
    path("<slug:slug>/manage/seasons/", m.open_season, name="open_season"),
    path("<slug:slug>/seasons/<int:number>/", m.season_page, name="season"),
    path("<slug:slug>/seasons/<int:number>/enrolment/", m.enrolment, name="enrolment"),
    path("<slug:slug>/seasons/<int:number>/entries/", m.enter_player, name="enter_player"),
    path("<slug:slug>/seasons/<int:number>/start/", m.start, name="start"),
    path("<slug:slug>/seasons/<int:number>/finish/", m.finish, name="finish"),
    path("<slug:slug>/seasons/<int:number>/next/", m.next_season, name="next_season"),
]
