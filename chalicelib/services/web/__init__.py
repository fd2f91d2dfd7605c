"""The pages for people without the app: the guest's event page, joining by link, deleting an account."""
