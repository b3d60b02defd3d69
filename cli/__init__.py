"""The ``shanghai`` command: a thin typer shell over the :mod:`solver` library."""
