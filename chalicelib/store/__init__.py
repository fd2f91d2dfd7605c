"""The data-access layer's shared pieces: what a refused write means (conditions.py).

Keys are built and parsed next to their models (chalicelib/models); every model and transaction runs
on the one DynamoDB client of chalicelib/models/base.py.
"""
