"""The HTTP layer: one blueprint of routes per module (registered in app.py) and the plumbing they share."""
