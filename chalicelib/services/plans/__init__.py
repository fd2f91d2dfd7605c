"""Plans: a date picked together by vote, which then becomes the event."""
