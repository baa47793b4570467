"""Tests of the command line (esize.cli), one module per subcommand."""
