"""The platform's use cases (see docs/decisions/0001-platform-contract.md): every door (REST,
web, email, bots, tasks) calls these keyword-only functions and nothing else writes games."""

from games.services.errors import (
    GameNotActive,
    IllegalMove,
    InvalidRequest,
    MalformedCommand,
    NotAllowed,
    NotFound,
    NotYourTurn,
    ServiceError,
    StaleVersion,
)
from games.services.games import (
    add_bot,
    create_game,
    invite,
    join_game,
    leave_game,
    resign,
    start_game,
)
from games.services.moves import MoveResult, play_bots, submit_command
from games.services.records import Verification, export_game, verify_game
from games.services.timeouts import TimeoutResult, apply_timeout, sweep
from games.services.trades import (
    accept_trade,
    decline_trade,
    expire_trades,
    propose_trade,
    withdraw_trade,
)

__all__ = [
    "GameNotActive",
    "IllegalMove",
    "InvalidRequest",
    "MalformedCommand",
    "MoveResult",
    "NotAllowed",
    "NotFound",
    "NotYourTurn",
    "ServiceError",
    "StaleVersion",
    "TimeoutResult",
    "Verification",
    "accept_trade",
    "add_bot",
    "apply_timeout",
    "create_game",
    "decline_trade",
    "expire_trades",
    "export_game",
    "invite",
    "join_game",
    "leave_game",
    "play_bots",
    "propose_trade",
    "resign",
    "start_game",
    "submit_command",
    "sweep",
    "verify_game",
    "withdraw_trade",
]
