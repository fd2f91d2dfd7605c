"""A guest's answer to an invitation, and the waitlist of a full event."""
