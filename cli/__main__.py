"""``python -m cli`` runs the ``shanghai`` command."""

from cli import start

start()
