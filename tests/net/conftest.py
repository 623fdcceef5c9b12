"""Server and protocol tests: tables, the SSH server and the remote session, on loopback only."""
