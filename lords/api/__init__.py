"""The API's shared infrastructure, used by every app's endpoints (games, accounts, leagues):
token authentication, throttles, the one error shape and its handlers, the JSON parser with
its limits and the renderer that says engines' texts, the OpenAPI helpers and the base
viewset. It knows no app's endpoints: each app's ``api`` module imports it, never the
reverse."""
