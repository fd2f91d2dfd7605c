"""Push to iOS devices: their SNS endpoints and delivering each push once."""
