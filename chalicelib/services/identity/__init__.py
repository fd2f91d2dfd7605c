"""Who a person is: users found or made by phone number, login by pin and bearer tokens, the social link."""
