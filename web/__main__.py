"""``python -m web``: the same as ``shanghai serve`` with its defaults."""

from web.serve import serve

if __name__ == "__main__":
    serve()
