"""Per-game handlers of ``shanghai solve``."""
