"""The project's dataset tools: build the shipped tables from ``data/runs`` and re-check them.

Not part of the installed package (``scoring`` is the user-facing scorer); the Makefile and
``data/make_data.sh`` call them as ``python -m tools build-data data`` and ``python -m tools check data``.
"""
