"""One module per ``2048`` subcommand: ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``."""
