"""Measuring programs: each prints a figure the README or the model card quotes, with the command beside it."""
