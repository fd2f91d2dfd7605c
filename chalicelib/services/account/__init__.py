"""A person's whole account: deleting it, and exporting its data."""
