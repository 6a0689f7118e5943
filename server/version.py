"""Fracas's version: the OpenAPI document's, ``fracas --version``'s, pyproject.toml's (a test keeps them one)."""

VERSION = "0.1.0"
