"""gm-daemon: an email-driven game master for classic German play-by-mail games."""

__version__ = "0.1.0"
