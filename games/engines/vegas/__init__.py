"""Vegas (Rüdiger Dorn), the dice game: a pure rules engine. The platform uses ``ENGINE``."""

from games.engines.vegas.commands import Place
from games.engines.vegas.engine import ENGINE, VegasEngine

__all__ = ["ENGINE", "Place", "VegasEngine"]
