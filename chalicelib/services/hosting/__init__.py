"""What hosts do to an event: create, invite, edit, cancel, clone, cover, offline guests, join links, the guest list."""
