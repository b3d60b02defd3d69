"""``python -m cli`` runs the ``shanghai`` command."""

from cli.main import main

main()
