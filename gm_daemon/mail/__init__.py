"""Mail I/O at the edge: transports (Maildir, IMAP, SMTP) and message decoding."""
