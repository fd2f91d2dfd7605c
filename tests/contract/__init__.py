"""The published contract (openapi.yaml) checked against the app and the running service."""
