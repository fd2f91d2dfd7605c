"""Guests in their language: the catalogues of words, the choice of a language, and dates in its forms."""
