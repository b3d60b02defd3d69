"""Test oracles: brute forces and second models used only to check the solver."""
