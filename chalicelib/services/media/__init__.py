"""Uploaded images: checked, re-encoded to clean JPEGs and stored in S3 under unguessable keys."""
