"""Dataset formats written and read by the project."""
