"""The guards every capability shares: rolling rate limits kept in the auth table."""
