"""The web app: a page per game to enter a position by tapping cards and see the
answer as cards, play against AI players, and the HTTP API under it.

``shanghai serve`` starts it (:func:`web.serve.serve`); :func:`web.app.create_app`
builds the ASGI app. Needs the ``web`` extra (FastAPI and uvicorn).
"""
