"""The user's own settings, never a book's: the user config's endpoints, keys and trusted
stores (config), and every spelling of this machine (loopback)."""
