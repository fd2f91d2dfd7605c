"""Pure rules of the service: no AWS, no clock of their own, no I/O."""
