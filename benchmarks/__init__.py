"""Benchmarks: one command per game, each printing a table (``python -m benchmarks.bench_<game>``)."""
