"""Presentation only: how each command's records are laid out for people."""
