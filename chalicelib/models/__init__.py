"""PynamoDB models, one module per table. Key layouts are documented in docs/data-model.md."""
