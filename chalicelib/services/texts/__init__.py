"""Texts to people without the app: invitations, changes, promotions, the stop list and replies by text."""
