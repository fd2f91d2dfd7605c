"""The day itself: the shared photo album and check-in at the door."""
