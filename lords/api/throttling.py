"""DRF's rate throttles with the same rule in one cache round trip.

DRF's ``SimpleRateThrottle`` keeps each caller's request times as a pickled list in the
cache: a GET, then a SET of the whole list, on every request (two round trips, and a list
as long as the rate, e.g. 600 floats for a busy bot). These throttles keep the same sliding
window ("at most N requests in any ``duration`` seconds", the same ``Retry-After``) in a
Redis sorted set, trimmed, counted and appended by one server-side script: one round trip,
atomic (two requests of one user on two workers cannot both take the last slot). With
another cache (tests without Redis, local memory) they fall back to DRF's own code.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from rest_framework import throttling
from rest_framework.request import Request

# KEYS[1]: the caller's set; ARGV: now, duration (s), limit, a unique member.
# Answers {1, count} (allowed) or {0, count, oldest time} (refused, nothing recorded).
_SLIDING_WINDOW = """
local now = tonumber(ARGV[1])
local duration = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - duration)
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, count, oldest[2]}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.ceil(duration * 1000))
return {1, count + 1}
"""

# The script, registered on one client per cache object (Django's caches are per thread;
# ``get_client`` would build a new client on every call, and the write pool does not depend
# on the key).
_SCRIPT_ATTRIBUTE = "_lords_sliding_window"


class _OneTrip(throttling.SimpleRateThrottle):
    duration: int
    num_requests: int

    def allow_request(self, request: Request, view: Any) -> bool:
        cache = caches["default"]
        if self.rate is None or not isinstance(cache, RedisCache):
            return super().allow_request(request, view)
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        # Its own key: DRF's pickled list may still sit under ``self.key``.
        key = cache.make_and_validate_key(f"{self.key}:set")
        script = getattr(cache, _SCRIPT_ATTRIBUTE, None)
        if script is None:
            client = cache._cache.get_client(key, write=True)
            script = client.register_script(_SLIDING_WINDOW)
            setattr(cache, _SCRIPT_ATTRIBUTE, script)
        self.now = self.timer()
        answer = script(
            keys=[key],
            args=[repr(self.now), self.duration, self.num_requests, uuid.uuid4().hex],
        )
        if int(answer[0]) == 1:
            return True
        # What DRF's ``wait`` reads: the times still in the window (only the oldest and
        # their number matter).
        self.history = [float(answer[2])] * int(answer[1])
        return self.throttle_failure()


class AnonRateThrottle(_OneTrip, throttling.AnonRateThrottle):
    """Anonymous callers, per address (scope ``anon``)."""


class UserRateThrottle(_OneTrip, throttling.UserRateThrottle):
    """Signed-in callers, per user (scope ``user``)."""
