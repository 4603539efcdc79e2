"""The `mcr` command line and the HTTP service: thin layers over scoring and vision."""
