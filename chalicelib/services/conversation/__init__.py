"""Talk on an event: messages, polls, time suggestions, and the hosts' announcements and nudges."""
