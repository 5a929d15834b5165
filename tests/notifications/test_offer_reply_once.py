"""A counter-offer by email is made once, and only while the offer it answers is open (QA,
H2): a counter to an offer already declined is refused and nothing is proposed; a counter
whose answer could not be sent, delivered again by the mail server, gets the answer it
was first given and proposes nothing more."""

from __future__ import annotations

import pytest
from django.core.management import CommandError

from games.models import TradeOffer
from games.services import decline_trade
from tests.notifications.conftest import deliver, reply_to, text_part
from tests.notifications.test_offers_by_email import _answers, _offered, _trade

pytestmark = pytest.mark.django_db


def test_a_counter_to_a_declined_offer_proposes_nothing(make_game, ada, bob, smtp):
    offer, to_bob = _offered(make_game, ada, bob, smtp)
    decline_trade(offer=offer, user=bob)  # on the web, before his email arrives
    counter = _trade(offer.game, (ada, bob, 5))
    printed = deliver(reply_to(to_bob, counter, sender=bob.email))
    assert printed.startswith("refused"), printed
    [refusal] = _answers(smtp)
    assert "Not played: nothing was changed" in refusal["Subject"]
    assert f"trade offer #{offer.pk} is already declined" in text_part(refusal)
    assert list(TradeOffer.objects.filter(game=offer.game)) == [offer]


def test_a_counter_redelivered_after_its_answer_failed_is_proposed_once(
    make_game, ada, bob, smtp, settings
):
    offer, to_bob = _offered(make_game, ada, bob, smtp)
    counter = _trade(offer.game, (ada, bob, 2))
    raw = reply_to(to_bob, counter, sender=bob.email)
    port, settings.EMAIL_PORT = settings.EMAIL_PORT, 9  # the answer cannot be sent
    with pytest.raises(CommandError) as raised:
        deliver(raw)
    assert raised.value.returncode == 75  # the MTA keeps the message and delivers it again
    settings.EMAIL_PORT = port
    printed = deliver(raw)
    assert printed.startswith("played"), printed
    [proposed] = TradeOffer.objects.filter(game=offer.game, status="open")
    assert proposed.text == counter
    [answer] = _answers(smtp)
    assert f"proposed trade offer #{proposed.pk} instead" in text_part(answer)
    assert TradeOffer.objects.filter(game=offer.game).count() == 2
