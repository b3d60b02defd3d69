"""The graph layer (networkx): runs as paths in a rank graph, wild roles and
table moves as matchings. Shared by the solvers; independent of CP-SAT."""
