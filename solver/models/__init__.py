"""CP-SAT models, one module per question (the solver layer under the public APIs)."""
