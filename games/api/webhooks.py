"""``/api/v1/webhooks/``: a player's outbound webhooks (the notifications app delivers
them: notifications/outbound.py). The signing secret is shown once, at creation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.events import new_webhook_secret
from games.models import PlayerEvent, Webhook
from lords.api.base import AUTHENTICATION
from lords.api.schema import errors
from lords.api.strict import checked

MAX_HOOKS = 5

URL_CHECKS: list[Callable[[str], str]] = []
"""What the app that delivers the webhooks refuses of a URL (each says why, or ""), checked
at creation too: the notifications app adds its own when it is ready (the games know
nothing of it), so that a hook every delivery would refuse is not made (decision 0039)."""


class WebhookInSerializer(serializers.Serializer[Any]):
    url = serializers.URLField(
        max_length=500,
        help_text="Where your events are POSTed (a Discord or Slack incoming webhook works).",
    )


class WebhookSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    url = serializers.URLField()
    active = serializers.BooleanField(help_text="False: switched off after repeated failures.")
    failures = serializers.IntegerField(help_text="Failed deliveries in a row.")
    last_error = serializers.CharField()
    last_event = serializers.IntegerField(help_text="The last event id delivered.")


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(help_text="Verify the webhook-signature header with it.")


def _shown(hook: Webhook, **extra: Any) -> dict[str, Any]:
    fields = ("id", "url", "active", "failures", "last_error", "last_event")
    return {name: getattr(hook, name) for name in fields} | extra


class WebhookListView(APIView):
    authentication_classes = AUTHENTICATION

    @extend_schema(
        operation_id="webhooks_list",
        responses={200: WebhookSerializer(many=True), **errors(401)},
    )
    def get(self, request: Request) -> Response:
        user: Any = request.user
        hooks = Webhook.objects.filter(user=user).order_by("id")
        return Response([_shown(h) for h in hooks])

    @extend_schema(
        operation_id="webhooks_create",
        request=WebhookInSerializer,
        responses={201: WebhookCreatedSerializer, **errors(400, 401)},
    )
    def post(self, request: Request) -> Response:
        given = WebhookInSerializer(data=request.data)
        checked(given)
        url = given.validated_data["url"]
        if not url.startswith(("https://", "http://")):
            raise ValidationError({"url": gettext("an http or https address")})
        user: Any = request.user  # (authenticated: IsAuthenticated)
        if Webhook.objects.filter(user=user).count() >= MAX_HOOKS:
            message = gettext("at most %(most)s webhooks; delete one first") % {"most": MAX_HOOKS}
            raise ValidationError({"url": message})
        _check_url(url)  # (after the cheap refusals: it may wait for a name's lookup)
        newest = PlayerEvent.objects.filter(user=user).order_by("-id").first()
        hook = Webhook.objects.create(
            user=user,
            url=url,
            secret=new_webhook_secret(),
            last_event=newest.pk if newest else 0,  # from now on, not the past
        )
        return Response(_shown(hook, secret=hook.secret), status=status.HTTP_201_CREATED)


def _check_url(url: str) -> None:
    """A 400 naming the reason a delivery would give, if any check refuses ``url``."""
    for check in URL_CHECKS:
        why = check(url)
        if why:
            message = gettext(
                "%(why)s: webhooks are not sent to this server's own network (loopback, "
                "private or link-local addresses)"
            )
            raise ValidationError({"url": message % {"why": why}})


class WebhookDetailView(APIView):
    authentication_classes = AUTHENTICATION

    @extend_schema(operation_id="webhooks_delete", responses={204: None, **errors(401, 404)})
    def delete(self, request: Request, hook_id: int) -> Response:
        user: Any = request.user
        deleted, _ = Webhook.objects.filter(user=user, pk=hook_id).delete()
        if not deleted:
            raise NotFound(gettext("you have no webhook %(hook)s") % {"hook": hook_id})
        return Response(status=status.HTTP_204_NO_CONTENT)
