"""A person's favorite contacts, their photos, and the lookups over the address book."""
